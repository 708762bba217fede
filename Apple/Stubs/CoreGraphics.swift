// Stub of the part of Apple's CoreGraphics the app uses (and of Apple's Foundation beyond
// Linux's, below), for type-checking the Apple app on Linux (scripts/check-apple.sh). Written from Apple's documented declarations
// (developer.apple.com/documentation/coregraphics/cgaffinetransform); CGFloat, CGPoint, CGSize
// and CGRect come from Foundation on Linux as on Apple's platforms. No behaviour: the bodies
// only satisfy the compiler.
@_exported import Foundation

public struct CGAffineTransform: Equatable, Sendable {
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }
    public init(rotationAngle angle: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    public func rotated(by angle: CGFloat) -> CGAffineTransform { self }
    public func translatedBy(x tx: CGFloat, y ty: CGFloat) -> CGAffineTransform { self }
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform { self }
}

// Apple's Foundation has API that swift-corelibs-foundation (Linux) lacks; what the app uses
// of it is declared here, where every stub module sees it (developer.apple.com/documentation/
// foundation/url/startaccessingsecurityscopedresource()).
extension URL {
    public func startAccessingSecurityScopedResource() -> Bool { false }
    public func stopAccessingSecurityScopedResource() {}
}
