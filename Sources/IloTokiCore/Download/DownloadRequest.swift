import Foundation

/// A file to download.
public struct DownloadRequest: Equatable, Sendable {
    /// Where to fetch it from; resolved afresh on every attempt (CDN links expire).
    public var url: URL
    /// Where the finished file goes; it is written to `<destination>.part` until verified.
    public var destination: URL
    /// The file's exact size, when known (the catalog's).
    public var expectedBytes: Int64?
    /// The file's sha256 when pinned; otherwise the server's `X-Linked-Etag` is used.
    public var expectedSHA256: String?
    /// The Hugging Face mirror (`HF_ENDPOINT`) the URL points at, if any: errors then name it.
    public var mirror: String?

    public init(url: URL, destination: URL, expectedBytes: Int64? = nil, expectedSHA256: String? = nil, mirror: String? = nil) {
        self.url = url
        self.destination = destination
        self.expectedBytes = expectedBytes
        self.expectedSHA256 = expectedSHA256?.lowercased()
        self.mirror = mirror
    }

    /// The download of a catalog model into a store.
    public init(entry: CatalogEntry, store: ModelStore, endpoint: String? = nil) {
        let url = entry.url(endpoint: endpoint)
        self.init(
            url: url, destination: store.fileURL(for: entry), expectedBytes: entry.bytes,
            expectedSHA256: entry.sha256, mirror: url == entry.url ? nil : endpoint)
    }

    var part: URL { destination.deletingLastPathComponent().appendingPathComponent(destination.lastPathComponent + ".part") }
}
