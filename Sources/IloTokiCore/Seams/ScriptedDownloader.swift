import Foundation
import IloTokiLocking

/// A downloader driven by hand: for tests and previews. Each `start` opens a download whose
/// events the caller sends.
public final class ScriptedDownloader: ModelDownloading {
    private struct Download {
        let request: DownloadRequest
        let continuation: AsyncThrowingStream<DownloadEvent, Error>.Continuation
        var bytes: Int64 = 0
        var finished = false
    }

    private let state = Locked<[Download]>([])

    public init() {}

    /// Every download started so far.
    public var requests: [DownloadRequest] { state.withLock { $0.map(\.request) } }

    /// Whether the latest download is still going.
    public var isRunning: Bool { state.withLock { $0.last.map { !$0.finished } ?? false } }

    public func start(_ request: DownloadRequest) -> ModelDownload {
        let (stream, continuation) = AsyncThrowingStream<DownloadEvent, Error>.makeStream()
        let index = state.withLock { downloads in
            downloads.append(Download(request: request, continuation: continuation))
            return downloads.count - 1
        }
        continuation.yield(.started(offset: 0, total: request.expectedBytes))
        return ModelDownload(events: stream) { [self] in
            let paused: (AsyncThrowingStream<DownloadEvent, Error>.Continuation, Int64, Int64?)? = state.withLock { downloads in
                guard !downloads[index].finished else { return nil }
                downloads[index].finished = true
                return (downloads[index].continuation, downloads[index].bytes, downloads[index].request.expectedBytes)
            }
            guard let (continuation, bytes, total) = paused else { return }
            continuation.yield(.paused(DownloadProgress(bytes: bytes, total: total, bytesPerSecond: 0)))
            continuation.finish()
        }
    }

    /// Reports that the latest download's connection dropped; it goes on by itself.
    public func stall(reason: String = "connection dropped") {
        let target = state.withLock { downloads -> AsyncThrowingStream<DownloadEvent, Error>.Continuation? in
            guard let last = downloads.indices.last, !downloads[last].finished else { return nil }
            return downloads[last].continuation
        }
        target?.yield(.stalled(attempt: 1, reason: reason))
    }

    /// Reports progress on the latest download, with that many bytes in its `.part` file (as
    /// a real download leaves them: a paused download is then "partial" on disk). `total`
    /// stands for what the Hub's listing tells a real download of a file the catalog does not size.
    public func progress(bytes: Int64, total: Int64? = nil) {
        let target: (AsyncThrowingStream<DownloadEvent, Error>.Continuation, Int64?, URL)? = state.withLock { downloads in
            guard let last = downloads.indices.last, !downloads[last].finished else { return nil }
            downloads[last].bytes = bytes
            return (downloads[last].continuation, downloads[last].request.expectedBytes, downloads[last].request.part)
        }
        if let part = target?.2 {
            FileManager.default.createFile(atPath: part.path, contents: nil)
            if let handle = try? FileHandle(forWritingTo: part) {
                try? handle.truncate(atOffset: UInt64(max(0, bytes)))
                try? handle.close()
            }
        }
        target?.0.yield(.progress(DownloadProgress(bytes: bytes, total: total ?? target?.1, bytesPerSecond: 1_000_000)))
    }

    /// Completes the latest download: writes `contents` to its destination and reports it installed.
    public func install(contents: Data = Data("GGUF".utf8)) throws {
        guard
            let download = state.withLock({ downloads -> Download? in
                guard let last = downloads.indices.last, !downloads[last].finished else { return nil }
                downloads[last].finished = true
                return downloads[last]
            })
        else { return }
        download.continuation.yield(.verifying(sha256Known: download.request.expectedSHA256 != nil))
        do {
            try contents.write(to: download.request.destination)
            try? FileManager.default.removeItem(at: download.request.part)
        } catch {
            download.continuation.finish(
                throwing: DownloadError.cannotWrite(download.request.destination.path, reason: error.localizedDescription))
            throw error
        }
        download.continuation.yield(
            .installed(InstalledFile(url: download.request.destination, bytes: Int64(contents.count), sha256: SHA256.hex(of: contents))))
        download.continuation.finish()
    }

    /// Ends the latest download with an error.
    public func fail(_ error: Error) {
        let continuation = state.withLock { downloads -> AsyncThrowingStream<DownloadEvent, Error>.Continuation? in
            guard let last = downloads.indices.last, !downloads[last].finished else { return nil }
            downloads[last].finished = true
            return downloads[last].continuation
        }
        continuation?.finish(throwing: error)
    }
}
