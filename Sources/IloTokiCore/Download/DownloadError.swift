import Foundation

/// Why a download stopped. Every message says what happened, to which file or URL, and what
/// to do; the `.part` file is kept unless the message says otherwise.
public enum DownloadError: Error, LocalizedError, Equatable, Sendable {
    /// Another download (in this or another process) is writing the same file.
    case alreadyDownloading(file: String)
    /// The disk cannot hold the rest of the file.
    case notEnoughSpace(needed: Int64, available: Int64, directory: String)
    /// 401 or 403: the model is gated or has moved behind a login.
    case accessDenied(url: String, status: Int)
    /// 404: the model was moved or renamed.
    case notFound(url: String)
    /// Another HTTP status that retrying will not fix.
    case httpStatus(url: String, status: Int)
    /// The server's name could not be resolved.
    case hostNotFound(host: String)
    /// The secure connection could not be set up (TLS).
    case secureConnectionFailed(host: String, reason: String)
    /// An attempt failed without moving a single byte; the `.part` file is kept.
    case connectionFailed(url: String, reason: String, bytesKept: Int64)
    /// The server kept answering in a way that cannot be used.
    case serverMisbehaving(url: String, reason: String)
    /// The server's file is not the size the catalog says: the model changed upstream.
    case unexpectedSize(url: String, expected: Int64, actual: Int64)
    /// The finished file has the wrong size; it was deleted.
    case sizeMismatch(file: String, expected: Int64, actual: Int64)
    /// The finished file has the wrong sha256; it was deleted.
    case checksumMismatch(file: String, expected: String, actual: String)
    /// Writing the file failed (a full disk, permissions).
    case cannotWrite(String, reason: String)
    /// Reading a file failed.
    case cannotRead(String, reason: String)
    /// The Hugging Face mirror in `HF_ENDPOINT` did not give the model.
    case mirrorFailed(mirror: String, url: String, reason: String)
    /// The Hub has no repository of that name (or it is private and the token may not read it).
    case repositoryNotFound(repository: String, host: String, tokenSent: Bool)
    /// The repository's listing gives no file to download (none of the quantization, several, split).
    case hubListing(repository: String, host: String, problem: String)
    /// The repository's file changed between two attempts of one download; the `.part` was deleted.
    case listingChanged(repository: String, was: String, now: String)
    /// The finished file had the right size and sha256 but is not a model ilo toki can open
    /// (a web page, another file under the model's name); it was deleted, nothing installed.
    /// `beginning`: its first bytes when they are text.
    case notAModel(file: String, url: String, mirror: String?, bytes: Int64, beginning: String?, reason: String)

    public var errorDescription: String? {
        switch self {
        case .alreadyDownloading(let file):
            "\(file) is already being downloaded by another ilo toki process or window; wait for it to finish."
        case .notEnoughSpace(let needed, let available, let directory):
            "Not enough free space in \(directory): the download needs \(ByteSize.text(needed)) more and only \(ByteSize.text(available)) is free. Free some space and try again."
        case .accessDenied(let url, let status):
            "The server refused the download (HTTP \(status)): the model at \(url) is gated or has moved behind a login. Update ilo toki, or download the file yourself and add it with `ilotoki models add`."
        case .notFound(let url):
            "The model is no longer at \(url) (HTTP 404): it was moved or renamed. Update ilo toki to get the current address."
        case .httpStatus(let url, let status):
            "The server answered HTTP \(status) for \(url). Try again later."
        case .hostNotFound(let host):
            "Cannot find the server \(host): check the internet connection (or the mirror in HF_ENDPOINT)."
        case .secureConnectionFailed(let host, let reason):
            "Cannot open a secure connection to \(host) (\(reason)). Check the device's date and time, or the network."
        case .connectionFailed(let url, let reason, let bytesKept):
            "The download from \(url) failed (\(Self.clause(reason))). \(bytesKept > 0 ? "The \(ByteSize.text(bytesKept)) already downloaded are kept; run the download again to continue." : "Check the connection and try again.")"
        case .serverMisbehaving(let url, let reason):
            "The server at \(url) is misbehaving (\(reason)). Try again later."
        case .unexpectedSize(let url, let expected, let actual):
            "The file at \(url) has \(actual) bytes, but this version of ilo toki expects \(expected): the model was changed upstream. Update ilo toki."
        case .sizeMismatch(let file, let expected, let actual):
            "The download of \(file) has \(actual) bytes instead of \(expected); it was deleted. Download it again."
        case .checksumMismatch(let file, let expected, let actual):
            "The download of \(file) is corrupt (sha256 \(actual), expected \(expected)); it was deleted. Download it again."
        case .cannotWrite(let path, let reason):
            "Cannot write \(path): \(Self.clause(reason))."
        case .cannotRead(let path, let reason):
            "Cannot read \(path): \(Self.clause(reason))."
        case .mirrorFailed(let mirror, let url, let reason):
            "The mirror HF_ENDPOINT=\(mirror) did not give the model (\(Self.clause(reason)) for \(url)). Check that the mirror has this model, or unset HF_ENDPOINT to download from Hugging Face."
        case .repositoryNotFound(let repository, let host, let tokenSent):
            "The model repository \(repository) was not found on \(host). "
                + (tokenSent
                    ? "The token in HF_TOKEN may not read it either: check that it is right, or update ilo toki."
                    : "If it is private or gated, set HF_TOKEN to a token that may read it; otherwise update ilo toki.")
        case .hubListing(let repository, let host, let problem):
            "The model repository \(repository) on \(host) cannot be downloaded from: \(Self.clause(problem)). Nothing was downloaded. Update ilo toki, or download a GGUF file yourself and add it with `ilotoki models add`."
        case .notAModel(let file, let url, let mirror, let bytes, let beginning, let reason):
            "The server at \(url) sent \(ByteSize.text(bytes)) for \(file) that ilo toki cannot open as a model: \(Self.clause(reason))"
                + (beginning.map { "; it begins \"\($0)\"" } ?? "") + ". It was deleted and nothing was installed. "
                + (mirror.map {
                    "The mirror HF_ENDPOINT=\($0) may be serving something else under the model's name: unset HF_ENDPOINT or use another mirror."
                }
                    ?? "Downloading again will not help while the server sends this; try later, or update ilo toki.")
        case .listingChanged(let repository, let was, let now):
            "The model in \(repository) changed since this download began (it was \(was), it is now \(now)), so the part downloaded so far was deleted. Start the download again to get the new file."
        }
    }

    /// A reason as part of a sentence: without the full stop a system message may end with.
    static func clause(_ reason: String) -> String {
        var text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
