import Foundation

/// A file to download.
public struct DownloadRequest: Equatable, Sendable {
    /// A file to find in a Hub repository when the download starts.
    public struct HubFile: Equatable, Sendable {
        public var repository: String
        public var revision: String
        public var quantization: String

        public init(repository: String, revision: String = "main", quantization: String) {
            self.repository = repository
            self.revision = revision
            self.quantization = quantization
        }
    }

    /// Where to fetch it from; resolved afresh on every attempt (CDN links expire). For a Hub
    /// file, the repository's page until the listing names the file.
    public var url: URL
    /// Where the finished file goes; it is written to `<destination>.part` until verified.
    public var destination: URL
    /// The file's exact size, when known (the catalog's).
    public var expectedBytes: Int64?
    /// The file's sha256 when pinned; otherwise the server's `X-Linked-Etag` is used.
    public var expectedSHA256: String?
    /// The Hugging Face mirror (`HF_ENDPOINT`) the URL points at, if any: errors then name it.
    public var mirror: String?
    /// The file to find in a Hub repository first, if the catalog names a repository.
    public var hub: HubFile?
    /// The mirror and the token: the token goes to the endpoint's host only.
    public var access: HubAccess

    public init(
        url: URL, destination: URL, expectedBytes: Int64? = nil, expectedSHA256: String? = nil, mirror: String? = nil,
        hub: HubFile? = nil, access: HubAccess = HubAccess()
    ) {
        self.url = url
        self.destination = destination
        self.expectedBytes = expectedBytes
        self.expectedSHA256 = expectedSHA256?.lowercased()
        self.mirror = mirror
        self.hub = hub
        self.access = access
    }

    /// The download of a catalog model into a store.
    public init(entry: CatalogEntry, store: ModelStore, access: HubAccess = HubAccess()) {
        switch entry.source {
        case .file(let original, let bytes):
            let url = HubAccess.mirrored(original, endpoint: access.mirror)
            self.init(
                url: url, destination: store.fileURL(for: entry), expectedBytes: bytes, expectedSHA256: entry.sha256,
                mirror: url == original ? nil : access.mirror, access: access)
        case .hub(let repository, let revision, _):
            self.init(
                url: access.endpoint.appendingPathComponent(repository), destination: store.fileURL(for: entry),
                expectedSHA256: entry.sha256, mirror: access.mirror,
                hub: HubFile(repository: repository, revision: revision, quantization: entry.quantization), access: access)
        }
    }

    package var part: URL { destination.deletingLastPathComponent().appendingPathComponent(destination.lastPathComponent + ".part") }
}
