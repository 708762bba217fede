import Foundation
import IloTokiCore
import IloTokiDesign
import IloTokiTestSupport
import Testing

/// The sitelen pona font that comes with the app turns Latin Toki Pona into sitelen pona by
/// its ligatures alone, which is all the app relies on.
@Suite struct BundledFontTests {
    let font = TestModels.sitelenPonaFont

    /// The glyph names HarfBuzz shapes `text` into, with the given features.
    func glyphs(_ text: String, features: String? = nil) async throws -> [String] {
        let shaper = URL(fileURLWithPath: "/usr/bin/hb-shape")
        try #require(
            FileManager.default.isExecutableFile(atPath: shaper.path), "hb-shape is missing: scripts/setup.sh --with-test-tools installs it"
        )
        let arguments = (features.map { ["--features=\($0)"] } ?? []) + ["--no-positions", "--no-clusters", font, text]
        let result = try await ToolProcess.run(shaper, arguments, environment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        // [uF1911|space|uF1927] → names
        return result.stdout.trimmingCharacters(in: CharacterSet(charactersIn: "[]\n")).split(separator: "|").map(String.init)
    }

    @Test func theFontIsThereAndIsTheDefault() {
        #expect(FileManager.default.fileExists(atPath: font), "scripts/fetch-fonts.sh puts it in build/fonts")
        #expect(AppSettings().sitelenPonaFont == nil)
        #expect(AppSettings().sitelenPonaFamily { _ in false } == "sitelen seli kiwen asuki")
        #expect(Tokens.Font.sitelenPona == AppSettings.bundledSitelenPonaFont)
    }

    @Test func itsLigaturesTurnEachWordIntoOneSitelenPonaGlyph() async throws {
        let words = try await glyphs("jan li moku e kili").filter { $0 != "space" }
        #expect(words.count == 5, "\(words)")
        // sitelen pona lives in the UCSUR block U+F1900…U+F19FF.
        #expect(words.allSatisfy { $0.hasPrefix("uF19") }, "\(words)")
        let plain = try await glyphs("jan li moku e kili", features: "-liga,-calt").filter { $0 != "space" }
        #expect(plain.count == 14, "without ligatures every letter is its own glyph: \(plain)")
    }
}
