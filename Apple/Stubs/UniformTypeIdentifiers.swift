// Stub of the part of Apple's UniformTypeIdentifiers the app uses, for type-checking the Apple
// app on Linux (scripts/check-apple.sh). Written from Apple's documented declarations
// (developer.apple.com/documentation/uniformtypeidentifiers/uttype-swift.struct). No behaviour.
import Foundation

public struct UTType: Hashable, Sendable {
    public let identifier: String

    public init?(_ identifier: String) { self.identifier = identifier }
    public init?(filenameExtension: String) { self.identifier = "dyn." + filenameExtension }
    public init?(filenameExtension: String, conformingTo supertype: UTType) { self.identifier = "dyn." + filenameExtension }

    public static let data = UTType(identifier: "public.data")
    public static let item = UTType(identifier: "public.item")

    private init(identifier: String) { self.identifier = identifier }
}
