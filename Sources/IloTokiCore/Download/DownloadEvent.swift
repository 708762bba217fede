import Foundation

/// How far a download has come.
public struct DownloadProgress: Equatable, Sendable {
    /// Bytes in the `.part` file.
    public var bytes: Int64
    /// The file's size, when known.
    public var total: Int64?
    /// Recent transfer rate.
    public var bytesPerSecond: Double

    public init(bytes: Int64, total: Int64?, bytesPerSecond: Double) {
        self.bytes = bytes
        self.total = total
        self.bytesPerSecond = bytesPerSecond
    }

    /// 0…1, when the size is known.
    public var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return min(1, Double(bytes) / Double(total))
    }
}

/// A model that was downloaded, verified and moved into place.
public struct InstalledFile: Equatable, Sendable {
    public let url: URL
    public let bytes: Int64
    public let sha256: String

    public init(url: URL, bytes: Int64, sha256: String) {
        self.url = url
        self.bytes = bytes
        self.sha256 = sha256
    }
}

/// What a download reports as it goes.
public enum DownloadEvent: Equatable, Sendable {
    /// A transfer attempt began at this offset.
    case started(offset: Int64, total: Int64?)
    /// Bytes arrived.
    case progress(DownloadProgress)
    /// The connection dropped after moving bytes; the download goes on after a pause.
    case retrying(attempt: Int, reason: String)
    /// All bytes are here; checking size and sha256.
    case verifying
    /// Paused: the `.part` file is kept and a later download resumes from it.
    case paused(DownloadProgress)
    /// Verified and in place. The last event.
    case installed(InstalledFile)
}
