import Foundation
import IloTokiCore
import IloTokiLocking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP request of a download: streams the body into the `.part` file as it arrives.
///
/// Foundation on Linux has no `bytes(for:)` and `data(for:)` buffers the whole body, so this
/// is a data-task delegate that writes each chunk at its offset. What the response means
/// (append, start over, drop) is decided by the caller when its headers arrive.
final class HTTPAttempt: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// What to do with a response, decided from its status and headers.
    enum Decision: Equatable {
        /// Write the body into the file starting at this offset (0 truncates the file first).
        case write(at: Int64)
        /// Do not use this response.
        case drop(Outcome)
    }

    /// How the attempt ended.
    enum Outcome: Equatable {
        /// The body arrived completely.
        case finished
        /// The connection ended early, or the request failed; `written` bytes were kept.
        case interrupted(reason: String, code: Int)
        /// 200 to a ranged request whose file did not change: the server ignored `Range`.
        case rangeIgnored
        /// 206 at another offset than asked for.
        case wrongOffset(Int64)
        /// 416: nothing left to send from that offset.
        case rangeNotSatisfiable
        /// An error status.
        case status(Int)
        /// The server's file has another size than the one expected.
        case unexpectedSize(Int64)
        /// The server answered with a web page (a login, an error page of a proxy or mirror).
        case webPage
        /// Writing the file failed.
        case writeFailed(String)
        /// Paused.
        case cancelled
    }

    /// What the response said about the file.
    struct ResponseInfo {
        var status: Int
        var etag: String?
        var contentRangeStart: Int64?
        var total: Int64?
        /// `X-Linked-Etag` (the sha256 on Hugging Face) and `X-Linked-Size`, from the redirect
        /// or the response itself.
        var linkedEtag: String?
        var linkedSize: Int64?
        /// `Content-Type`, lowercased, without parameters.
        var contentType: String?
    }

    struct Result {
        var outcome: Outcome
        var written: Int64
        var response: ResponseInfo?
    }

    private let descriptor: Int32
    private let decide: (ResponseInfo) -> Decision
    private let onWrite: (Int64) -> Void
    private let redirectDropsRange: (ResponseInfo) -> Bool
    private let authorization: (URL?) -> String?

    // Touched only on the session's delegate queue (serial), and by `result` once it completed.
    private var offset: Int64 = 0
    private var writing = false
    private var written: Int64 = 0
    private var response: ResponseInfo?
    private var linkedEtag: String?
    private var linkedSize: Int64?
    private var outcome: Outcome?
    private var continuation: CheckedContinuation<Result, Never>?
    private let cancelled = Locked(false)

    /// - Parameters:
    ///   - descriptor: the `.part` file, open for writing.
    ///   - decide: what to do with the response.
    ///   - authorization: the `Authorization` a request to a URL may carry (the token goes to
    ///     the endpoint's host only, never to the host a redirect leads to).
    ///   - redirectDropsRange: whether a redirect's `X-Linked-Etag` shows the file changed (then
    ///     the redirected request goes without `Range`).
    ///   - onWrite: called with the file's new size after every chunk.
    init(
        descriptor: Int32, decide: @escaping (ResponseInfo) -> Decision, authorization: @escaping (URL?) -> String? = { _ in nil },
        redirectDropsRange: @escaping (ResponseInfo) -> Bool, onWrite: @escaping (Int64) -> Void
    ) {
        self.descriptor = descriptor
        self.decide = decide
        self.authorization = authorization
        self.redirectDropsRange = redirectDropsRange
        self.onWrite = onWrite
    }

    /// Runs the request to its end on `transfer`'s session. Cancelling the calling task
    /// cancels the request.
    func run(_ request: URLRequest, on transfer: TransferSession) async -> Result {
        let task = transfer.session.dataTask(with: request)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.queue.addOperation {
                    self.continuation = continuation
                    transfer.current = self
                    if self.cancelled.value {
                        self.finish(.cancelled)
                        return
                    }
                    task.resume()
                }
            }
        } onCancel: {
            cancelled.store(true)
            // On the delegate queue, never between a redirect's callback and its answer:
            // Foundation on Linux dies ("Received callback for HTTP redirection, but we're not
            // waiting for it") when a task is cancelled while it waits for that answer and the
            // answer comes anyway (found by scripts/stress-exits.sh, a download paused by Ctrl-C).
            transfer.queue.addOperation { task.cancel() }
        }
    }

    // MARK: - URLSessionDataDelegate (on the delegate queue)

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // Cancelled before this callback ran: the task is cancelled right after it (on this
        // queue), and an answer now would reach a task that no longer waits for one.
        if cancelled.value { return }
        // Hugging Face puts the file's sha256 and size on the redirect to its CDN; the CDN's own
        // ETag is a different value.
        let info = remember(response)
        var next = request
        next.setValue(authorization(next.url), forHTTPHeaderField: "Authorization")
        if redirectDropsRange(info) {
            next.setValue(nil, forHTTPHeaderField: "Range")
            next.setValue(nil, forHTTPHeaderField: "If-Range")
        }
        completionHandler(next)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            outcome = .interrupted(reason: "not an HTTP response", code: 0)
            completionHandler(.cancel)
            dataTask.cancel()
            return
        }
        let info = remember(http)
        self.response = info
        switch decide(info) {
        case .write(let start):
            if start == 0, ftruncate(descriptor, 0) != 0 {
                outcome = .writeFailed(String(cString: strerror(errno)))
                completionHandler(.cancel)
                dataTask.cancel()
                return
            }
            offset = start
            writing = true
            completionHandler(.allow)
        case .drop(let reason):
            // Returning .cancel is ignored by Foundation on Linux: cancel the task as well and
            // ignore whatever still arrives.
            outcome = reason
            completionHandler(.cancel)
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard writing, outcome == nil else { return }
        if let failure = AtomicFile.writeAll(descriptor, data, at: offset) {
            outcome = .writeFailed(failure)
            writing = false
            dataTask.cancel()
            return
        }
        offset += Int64(data.count)
        written += Int64(data.count)
        onWrite(offset)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if cancelled.value {
            finish(.cancelled)
        } else if let outcome {
            finish(outcome)
        } else if let error {
            let nsError = error as NSError
            finish(.interrupted(reason: nsError.localizedDescription, code: nsError.code))
        } else if let status = response?.status, !(200..<300).contains(status) {
            finish(.status(status))
        } else {
            finish(.finished)
        }
    }

    private func finish(_ outcome: Outcome) {
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume(returning: Result(outcome: outcome, written: written, response: response))
    }

    // MARK: - Headers

    /// What `http` says, with the `X-Linked-*` values kept for the responses after it (the
    /// redirect carries them, the CDN's answer does not).
    private func remember(_ http: HTTPURLResponse) -> ResponseInfo {
        let info = Self.responseInfo(of: http, linkedEtag: linkedEtag, linkedSize: linkedSize)
        linkedEtag = info.linkedEtag
        linkedSize = info.linkedSize
        return info
    }

    /// What a response's status and headers say, for `decide`. `X-Linked-Etag` and
    /// `X-Linked-Size` seen on a redirect before it are kept unless this response has its own.
    static func responseInfo(of http: HTTPURLResponse, linkedEtag: String?, linkedSize: Int64?) -> ResponseInfo {
        var info = ResponseInfo(status: http.statusCode)
        info.etag = header("ETag", in: http)
        info.contentType = header("Content-Type", in: http).map {
            $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        }
        info.linkedEtag = header("X-Linked-Etag", in: http).map(unquoted) ?? linkedEtag
        info.linkedSize = header("X-Linked-Size", in: http).flatMap { Int64($0) } ?? linkedSize
        if let range = header("Content-Range", in: http) {
            let parsed = parseContentRange(range)
            info.contentRangeStart = parsed.start
            info.total = parsed.total
        } else if http.statusCode == 200, http.expectedContentLength >= 0 {
            info.total = http.expectedContentLength
        }
        return info
    }

    static func header(_ name: String, in response: HTTPURLResponse) -> String? {
        let lowered = name.lowercased()
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, key.lowercased() == lowered { return value as? String }
        }
        return nil
    }

    static func unquoted(_ value: String) -> String {
        var text = value.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("W/") { text.removeFirst(2) }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// `bytes START-END/TOTAL` (TOTAL may be `*`); `bytes */TOTAL` for a 416.
    static func parseContentRange(_ value: String) -> (start: Int64?, total: Int64?) {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes") else { return (nil, nil) }
        let spec = text.dropFirst(5).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "/", maxSplits: 1)
        let total = parts.count == 2 ? Int64(parts[1]) : nil
        let start = parts.first?.split(separator: "-").first.flatMap { Int64($0) }
        return (start, total)
    }
}

/// One URLSession for a whole download: its connections are reused from request to request
/// (no new TLS handshake per window), and its delegate hands each callback to the request
/// that is running.
final class TransferSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let queue: OperationQueue
    private(set) var session: URLSession!
    /// The running request; set and read on `queue` only.
    var current: HTTPAttempt?

    init(configuration: URLSessionConfiguration) {
        queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        super.init()
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    /// Ends the session; the delegate is released once its tasks are gone.
    func invalidate() { session.invalidateAndCancel() }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let current else { return completionHandler(nil) }
        current.urlSession(
            session, task: task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: completionHandler)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let current else { return completionHandler(.cancel) }
        current.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        current?.urlSession(session, dataTask: dataTask, didReceive: data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        current?.urlSession(session, task: task, didCompleteWithError: error)
        current = nil
    }
}

extension AtomicFile {
    /// Writes every byte of `data` to `fd` at `offset`; returns the error text on failure
    /// (ENOSPC: the disk is full).
    static func writeAll(_ fd: Int32, _ data: Data, at offset: Int64) -> String? {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> String? in
            guard let base = buffer.baseAddress else { return nil }
            var done = 0
            while done < buffer.count {
                let count = pwrite(fd, base + done, buffer.count - done, off_t(offset) + off_t(done))
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno == ENOSPC ? "the disk is full" : String(cString: strerror(errno))
                }
                done += count
            }
            return nil
        }
    }
}
