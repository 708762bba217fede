import Foundation

/// The file a Hub catalog entry stands for, as the Hub described it when a download started.
/// Kept beside the model (`<file>.source`): a resumed download must find the same file.
public struct ResolvedFile: Codable, Equatable, Sendable {
    /// The repository, e.g. `NetherQuartz/ilo-toki-1.3-MiLMMT-46-1b-merged`.
    public var repository: String
    /// The revision asked for (a branch, e.g. `main`).
    public var revision: String
    /// The file's path in the repository.
    public var path: String
    /// Its size (`X-Linked-Size`).
    public var bytes: Int64
    /// Its sha256 (`X-Linked-Etag`), when the Hub gave one.
    public var sha256: String?
    /// The commit the revision pointed at (`X-Repo-Commit`), when given.
    public var commit: String?

    public init(repository: String, revision: String, path: String, bytes: Int64, sha256: String?, commit: String?) {
        self.repository = repository
        self.revision = revision
        self.path = path
        self.bytes = bytes
        self.sha256 = sha256
        self.commit = commit
    }

    /// Whether `other` is the same file: same path, size and sha256 (the commit may move
    /// without the file changing).
    package func isSameFile(as other: ResolvedFile) -> Bool {
        path == other.path && bytes == other.bytes && sha256 == other.sha256
    }

    /// The file as a sentence's part: "`path` (1.39 GB, sha256 abcd1234…)".
    package var summary: String {
        "\(path) (\(ByteSize.text(bytes))\(sha256.map { ", sha256 \($0.prefix(12))…" } ?? ""))"
    }
}
