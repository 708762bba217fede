import Foundation
import FoundationXML
import IloTokiDesign
import Testing

@Suite struct IconTests {
    @Test(arguments: IconName.allCases)
    func everyShapeStaysOnTheGrid(name: IconName) {
        let icon = Icon.named(name)
        #expect(!icon.shapes.isEmpty)
        #expect(icon.staysOnGrid, "\(name) leaves the 100 × 100 grid")
    }

    @Test func theIconsTheAppNeedsExist() {
        #expect(
            Set(IconName.allCases.map(\.rawValue)) == [
                "swap", "translate", "download", "pause", "history", "settings", "models", "about", "copy", "share", "olin", "script",
                "close",
            ])
    }

    @Test(arguments: IconName.allCases)
    func eachIconExportsWellFormedSVG(name: IconName) throws {
        let svg = Icon.named(name).svg()
        #expect(try wellFormed(svg))
        #expect(svg.contains("viewBox=\"0 0 100 100\""))
    }

    @Test func theSheetAndTheAppIconAreWellFormed() throws {
        #expect(try wellFormed(Icon.sheet()))
        #expect(try wellFormed(Icon.sheet(palette: .dark)))
        #expect(try wellFormed(AppIcon.svg()))
    }

    @Test func aShapeOffTheGridIsCaught() {
        let icon = Icon(name: .close, shapes: [.rectangle(x: 80, y: 80, width: 30, height: 10)])
        #expect(!icon.staysOnGrid)
        let turned = Icon(name: .close, shapes: [.rectangle(x: 0, y: 0, width: 100, height: 100, rotation: 45)])
        #expect(!turned.staysOnGrid)
    }

    /// The committed sheet in docs/ is what the code draws.
    @Test func theCommittedSheetIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let committed = try String(contentsOf: root.appendingPathComponent("docs/icons.svg"), encoding: .utf8)
        #expect(committed == Icon.sheet())
    }

    @Test func theInstalledAppIconIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let committed = try String(contentsOf: root.appendingPathComponent("data/org.ilotoki.IloToki.svg"), encoding: .utf8)
        #expect(committed == AppIcon.svg())
    }

    func wellFormed(_ svg: String) throws -> Bool {
        let parser = XMLParser(data: Data(svg.utf8))
        return parser.parse()
    }
}

@Suite struct TokenTests {
    @Test func thePaletteIsTheSpecifiedOne() {
        #expect(Palette.light.paper.hex == "#F3EDE2")
        #expect(Palette.light.ink.hex == "#1B1B1B")
        #expect(Palette.light.jelo.hex == "#FFD400")
        // Dark: ink paper, bone lines, the same jelo.
        #expect(Palette.dark.paper == Palette.light.ink)
        #expect(Palette.dark.ink == Palette.light.paper)
        #expect(Palette.dark.jelo == Palette.light.jelo)
    }

    @Test func measures() {
        #expect(Tokens.outline == 2)
        #expect(Tokens.shadowOffset == 4)
        #expect(Tokens.progressLine == 12)
        #expect(Tokens.Window.minimumWidth == 360)
        #expect(Tokens.Font.sitelenPonaFeatures == ["liga", "calt"])
    }
}
