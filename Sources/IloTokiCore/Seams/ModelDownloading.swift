/// Starts model downloads.
public protocol ModelDownloading: Sendable {
    func start(_ request: DownloadRequest) -> ModelDownload
}
