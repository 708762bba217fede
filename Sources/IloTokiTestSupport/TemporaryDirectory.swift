import Foundation

/// A fresh directory under the system's temporary directory, removed when released.
/// Every test gets its own, so tests can run in parallel.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(_ label: String = "test") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ilotoki-\(label)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
