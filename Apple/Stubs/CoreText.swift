// Stub of the part of Apple's Core Text the app uses, for type-checking the Apple app on
// Linux (scripts/check-apple.sh). Written from Apple's documented declarations
// (developer.apple.com/documentation/coretext/ctfontmanager): the Core Foundation types are
// stood in for by the Swift types they bridge to, so `url as CFURL` and `as? [String]` check
// as they do on Apple's platforms. No behaviour.
@_exported import CoreGraphics

public typealias CFURL = URL
public typealias CFArray = [Any]
public typealias CFString = String
public typealias CFError = Error

public enum CTFontManagerScope: UInt32, Sendable {
    case none = 0, process = 1, persistent = 2, session = 3
}

/// `func CTFontManagerRegisterFontsForURL(_ fontURL: CFURL, _ scope: CTFontManagerScope, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool`
@discardableResult
public func CTFontManagerRegisterFontsForURL(_ fontURL: CFURL, _ scope: CTFontManagerScope, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    false
}

/// `func CTFontManagerCopyAvailableFontFamilyNames() -> CFArray`
public func CTFontManagerCopyAvailableFontFamilyNames() -> CFArray { [] }

public final class CTFont: @unchecked Sendable {}
public final class CTLine: @unchecked Sendable {}
public let kCTFontAttributeName: CFString = "NSFont"

/// `func CTFontCreateWithName(_ name: CFString, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?) -> CTFont`
public func CTFontCreateWithName(_ name: CFString, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?) -> CTFont { CTFont() }

/// `func CTLineCreateWithAttributedString(_ attrString: CFAttributedString) -> CTLine`
public func CTLineCreateWithAttributedString(_ attrString: NSAttributedString) -> CTLine { CTLine() }

/// `func CTLineGetGlyphCount(_ line: CTLine) -> CFIndex`
public func CTLineGetGlyphCount(_ line: CTLine) -> Int { 0 }
