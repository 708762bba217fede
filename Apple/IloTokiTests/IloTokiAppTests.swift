import CoreText
import IloTokiCore
import IloTokiDesign
import SwiftUI
import XCTest

@testable import IloToki

/// The platform parts of the app, on a simulator or a Mac: the app's logic is tested once, in
/// the package (`swift test`).
@MainActor
final class IloTokiAppTests: XCTestCase {
    func testEveryIconDrawsInsideItsSquare() {
        let square = CGRect(x: 0, y: 0, width: 48, height: 48)
        for icon in Icon.all {
            let bounds = IconShapeView(icon: icon).path(in: square).boundingRect
            XCTAssertFalse(bounds.isEmpty, "\(icon.name) draws nothing")
            XCTAssertTrue(square.insetBy(dx: -0.5, dy: -0.5).contains(bounds), "\(icon.name) leaves its square: \(bounds)")
        }
    }

    func testTheBundledFontsAreRegisteredAndDrawSitelenPona() {
        Platform.registerBundledFonts()
        XCTAssertTrue(Platform.isFontInstalled(Tokens.Font.ui))
        XCTAssertTrue(Platform.isFontInstalled(Tokens.Font.sitelenPona))
        // The ligatures turn five Latin words into five glyphs.
        let font = CTFontCreateWithName(Tokens.Font.sitelenPona as CFString, 30, nil)
        let text = NSAttributedString(string: "jan li moku e kili", attributes: [.init(kCTFontAttributeName as String): font])
        let line = CTLineCreateWithAttributedString(text)
        XCTAssertEqual(CTLineGetGlyphCount(line), 5)
    }

    func testTheResolvedLookDecidesThePaletteAndTheScheme() {
        XCTAssertEqual(Palette.forAppearance(.dark), .dark)
        XCTAssertEqual(Palette.forAppearance(.light), .light)
    }

    func testTheAvailableMemoryIsThePlatformsOwnFigure() {
        let available = DeviceMemory.available()
        XCTAssertNotNil(available)
        XCTAssertGreaterThan(available ?? 0, 0)
    }
}
