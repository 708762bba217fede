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
///
/// Every download, live or scripted, reports in one order (`DownloadEventOrder` checks it):
///
///     download := failed
///               | started (progress | stalled)* ending
///     ending   := paused | failed | verifying (installed | failed)
///
/// where `failed` is the event stream ending with an error (a `DownloadError`). So a front
/// end can trust that nothing follows `installed`, `paused` or a failure, and that no
/// progress arrives once `verifying` was said.
public enum DownloadEvent: Equatable, Sendable {
    /// The download began, with this many bytes already in the `.part` file; the size when known.
    case started(offset: Int64, total: Int64?)
    /// Bytes arrived.
    case progress(DownloadProgress)
    /// The connection dropped or went quiet after moving bytes; the download goes on by
    /// itself after a pause (this is attempt number `attempt`).
    case stalled(attempt: Int, reason: String)
    /// All bytes are here; checking size and sha256 (`sha256Known` is false when there is no
    /// sha256 to compare with, and only the size is checked).
    case verifying(sha256Known: Bool)
    /// Paused: the `.part` file is kept and a later download resumes from it.
    case paused(DownloadProgress)
    /// Verified and in place. The last event.
    case installed(InstalledFile)
}

/// Checks that download events come in the order `DownloadEvent` documents. Tests run it
/// over the live downloader and the scripted one alike.
public struct DownloadEventOrder: Sendable {
    /// An event where the order does not allow it.
    public struct Violation: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    private enum Place: Sendable {
        case beforeStart, transferring, verifying, ended
    }

    private var place = Place.beforeStart
    /// The events seen so far.
    public private(set) var events: [DownloadEvent] = []

    public init() {}

    /// Takes the next event.
    public mutating func accept(_ event: DownloadEvent) throws {
        events.append(event)
        switch (place, event) {
        case (.beforeStart, .started): place = .transferring
        case (.transferring, .progress), (.transferring, .stalled): break
        case (.transferring, .paused): place = .ended
        case (.transferring, .verifying): place = .verifying
        case (.verifying, .installed): place = .ended
        default: throw Violation(description: "\(event) cannot come after \(events.dropLast().last.map { "\($0)" } ?? "nothing")")
        }
    }

    /// Takes the end of the stream: `failure` is the error it ended with, if any.
    public mutating func end(failure: Error?) throws {
        if failure != nil {
            guard place != .ended else { throw Violation(description: "a failure after \(events.last.map { "\($0)" } ?? "nothing")") }
            place = .ended
            return
        }
        guard place == .ended else {
            throw Violation(
                description: "the events ended after \(events.last.map { "\($0)" } ?? "nothing"), without installed, paused or a failure")
        }
    }
}
