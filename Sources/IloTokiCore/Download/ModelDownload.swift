/// A download in progress.
public final class ModelDownload: Sendable {
    /// Progress, then `.installed` or `.paused`; a failure ends the stream with a `DownloadError`.
    public let events: AsyncThrowingStream<DownloadEvent, Error>
    private let onPause: @Sendable () -> Void

    /// - Parameters:
    ///   - events: what the download reports.
    ///   - pause: stops the transfer, keeping what arrived.
    public init(events: AsyncThrowingStream<DownloadEvent, Error>, pause: @escaping @Sendable () -> Void) {
        self.events = events
        self.onPause = pause
    }

    /// Stops the transfer and keeps the `.part` file; the stream ends with `.paused`.
    public func pause() { onPause() }
}
