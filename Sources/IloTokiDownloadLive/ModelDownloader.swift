import Foundation
import IloTokiCore
import IloTokiLocking

/// Downloads models: resumable, verified, and patient with bad networks.
///
/// - Each chunk goes to `<file>.part` as it arrives, so memory stays flat for any size.
/// - Resumes with `Range` and `If-Range`; appends only on a `206` at exactly the right offset.
/// - Retries dropped connections with backoff while attempts keep moving bytes; gives up
///   when an attempt fails without moving a single byte (and keeps the `.part`).
/// - Verifies size and sha256 (pinned, or the server's `X-Linked-Etag`), flushes, and
///   renames into place; records the sha256 beside the model.
/// - Refuses to start without the space it needs, and refuses a second writer of one file.
public final class ModelDownloader: Sendable {
    public struct Configuration: Sendable {
        /// The pause before the first retry; it doubles on every retry in a row, up to `maxRetryDelay`.
        public var retryDelay: Duration = .milliseconds(500)
        public var maxRetryDelay: Duration = .seconds(30)
        /// Bytes asked for per request: the most that can pile up in memory when the network is
        /// faster than the disk.
        public var windowBytes: Int64 = 8 << 20
        /// How long a connection may stay silent before the attempt counts as dropped.
        public var idleTimeout: TimeInterval = 60
        /// Free bytes on the file system holding a directory (injectable for tests).
        public var freeSpace: @Sendable (URL) -> Int64? = { FileSystem.freeBytes(at: $0) }
        /// Opens a finished file as a model (GGUF header, architecture, vocabulary), after its
        /// size and sha256 and before it is moved into place; a file it refuses is deleted and
        /// the download fails with `DownloadError.notAModel`. `nil`: only size and sha256.
        public var checkModel: (@Sendable (URL) async throws -> Void)?

        public init() {}
    }

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// A downloader that checks every finished file with `loader` (as adding a file from the
    /// device does) before installing it: a server that sends a web page or another file under
    /// the right name, size and sha256 installs nothing.
    public init(checkingWith loader: any EngineLoading, configuration: Configuration = Configuration()) {
        var configuration = configuration
        configuration.checkModel = { try await loader.check(path: $0.path) }
        self.configuration = configuration
    }

    /// Files being downloaded by this process; `flock` covers other processes.
    private static let active = Locked(Set<String>())

    /// Starts (or resumes) a download.
    public func start(_ request: DownloadRequest) -> ModelDownload {
        let (stream, continuation) = AsyncThrowingStream<DownloadEvent, Error>.makeStream()
        let task = Task.detached { [configuration] in
            do {
                let job = try DownloadJob(request: request, configuration: configuration, continuation: continuation)
                try await job.run()
                continuation.finish()
            } catch let error as DownloadError {
                continuation.finish(throwing: error)
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return ModelDownload(events: stream, pause: { task.cancel() })
    }

    /// Runs a download to its end and returns the installed file (throws when paused).
    public func download(_ request: DownloadRequest) async throws -> InstalledFile {
        var installed: InstalledFile?
        for try await event in start(request).events {
            if case .installed(let file) = event { installed = file }
        }
        guard let installed else { throw CancellationError() }
        return installed
    }

    static func claim(_ part: URL) -> Bool {
        active.withLock { $0.insert(part.path).inserted }
    }

    static func release(_ part: URL) {
        _ = active.withLock { $0.remove(part.path) }
    }
}

extension ModelDownloader: ModelDownloading {}
