import Foundation
import IloTokiCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads which file a Hub repository holds for a quantization, and its size and sha256, the way
/// huggingface_hub does: the repository's listing (`/api/models/REPO/revision/REV`), then a
/// `HEAD` of the file's `resolve/` URL without following its redirect, whose `X-Linked-Size`
/// and `X-Linked-Etag` describe the file (the CDN's own headers describe something else).
struct HubResolver: Sendable {
    let access: HubAccess
    let timeout: TimeInterval

    /// The most of a listing read: a repository of a few hundred files is well under this.
    static let listingLimit = 8 << 20

    /// - Throws: `DownloadError` saying what the Hub answered.
    func resolve(repository: String, revision: String, quantization: String) async throws -> ResolvedFile {
        let listing = try await fetchListing(repository: repository, revision: revision)
        let path = try Self.choose(from: listing.files, quantization: quantization, repository: repository, host: access.host)
        let url = resolveURL(repository: repository, revision: revision, path: path)
        let head = try await request(url, method: "HEAD", repository: repository)
        guard head.status == 302 || head.status == 301 || head.status == 307 || head.status == 200 else {
            throw failure(head, url: url, repository: repository)
        }
        let linkedSize = header("X-Linked-Size", head.response).flatMap { Int64($0) }
        let contentLength = head.status == 200 ? header("Content-Length", head.response).flatMap { Int64($0) } : nil
        guard let bytes = linkedSize ?? contentLength, bytes > 0 else {
            throw DownloadError.hubListing(
                repository: repository, host: access.host, problem: "it gave no size for \(path) (no X-Linked-Size)")
        }
        let etag = (header("X-Linked-Etag", head.response) ?? (head.status == 200 ? header("ETag", head.response) : nil))
            .map(HTTPAttempt.unquoted)?.lowercased()
        let sha256 = etag.flatMap { DownloadJob.isSHA256($0) ? $0 : nil }
        return ResolvedFile(
            repository: repository, revision: revision, path: path, bytes: bytes, sha256: sha256,
            commit: header("X-Repo-Commit", head.response) ?? listing.commit)
    }

    /// The `resolve/` URL of a file, on the endpoint.
    func resolveURL(repository: String, revision: String, path: String) -> URL {
        var url = access.endpoint.appendingPathComponent(repository).appendingPathComponent("resolve")
            .appendingPathComponent(revision)
        for part in path.split(separator: "/") { url = url.appendingPathComponent(String(part)) }
        return url
    }

    // MARK: - The listing

    struct Listing {
        var files: [String]
        var commit: String?
    }

    private func fetchListing(repository: String, revision: String) async throws -> Listing {
        let url = access.endpoint.appendingPathComponent("api/models").appendingPathComponent(repository)
            .appendingPathComponent("revision").appendingPathComponent(revision)
        let answer = try await request(url, method: "GET", repository: repository)
        guard answer.status == 200 else { throw failure(answer, url: url, repository: repository) }
        struct Body: Decodable {
            struct Sibling: Decodable { let rfilename: String }
            let sha: String?
            let siblings: [Sibling]?
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: answer.data), let siblings = body.siblings else {
            let what =
                header("Content-Type", answer.response)?.contains("html") == true ? "a web page" : "something that is not a file listing"
            throw DownloadError.hubListing(repository: repository, host: access.host, problem: "it answered the listing with \(what)")
        }
        return Listing(files: siblings.map(\.rfilename), commit: body.sha)
    }

    /// The one GGUF file of `quantization` among `files`: its name holds the quantization as a
    /// word of its own (`…-Q8_0.gguf`, `….q8_0.gguf`; `Q4_K` does not match `Q4_K_M`), it is
    /// not one part of a split file, nor a vision projector. One at the top of the repository
    /// wins over those in folders.
    /// - Throws: `DownloadError.hubListing` naming what the repository has instead.
    static func choose(from files: [String], quantization: String, repository: String, host: String = "the Hub") throws -> String {
        let ggufs = files.filter { $0.lowercased().hasSuffix(".gguf") }
        let matching = ggufs.filter { path in
            let name = String(path.split(separator: "/").last ?? "").lowercased()
            return !name.hasPrefix("mmproj") && holdsWord(quantization.lowercased(), in: String(name.dropLast(5)))
        }
        let whole = matching.filter { !isSplitPart($0) }
        guard !whole.isEmpty else {
            let problem: String
            if !matching.isEmpty {
                problem =
                    "its \(quantization) GGUF is split into parts (\(matching.prefix(3).joined(separator: ", "))), which ilo toki cannot load"
            } else if ggufs.isEmpty {
                problem = "it holds no GGUF file at all"
            } else {
                problem =
                    "it has no \(quantization) GGUF file (it has \(ggufs.prefix(6).joined(separator: ", "))\(ggufs.count > 6 ? ", …" : ""))"
            }
            throw DownloadError.hubListing(repository: repository, host: host, problem: problem)
        }
        let top = whole.filter { !$0.contains("/") }
        let candidates = top.isEmpty ? whole : top
        guard candidates.count == 1 else {
            throw DownloadError.hubListing(
                repository: repository, host: host,
                problem:
                    "it has several \(quantization) GGUF files (\(candidates.sorted().joined(separator: ", "))) and none is marked as the one"
            )
        }
        return candidates[0]
    }

    /// Whether `word` occurs in `name` with no letter, digit or `_` right before or after it.
    static func holdsWord(_ word: String, in name: String) -> Bool {
        guard !word.isEmpty else { return false }
        var searchStart = name.startIndex
        while let found = name.range(of: word, range: searchStart..<name.endIndex) {
            let before = found.lowerBound == name.startIndex ? nil : name[name.index(before: found.lowerBound)]
            let after = found.upperBound == name.endIndex ? nil : name[found.upperBound]
            func separates(_ character: Character?) -> Bool {
                guard let character else { return true }
                return !(character.isLetter || character.isNumber || character == "_")
            }
            if separates(before), separates(after) { return true }
            searchStart = name.index(after: found.lowerBound)
        }
        return false
    }

    /// `…-00001-of-00003.gguf`.
    static func isSplitPart(_ path: String) -> Bool {
        path.range(of: #"-\d{5}-of-\d{5}\.gguf$"#, options: [.regularExpression, .caseInsensitive]) != nil
    }

    // MARK: - Requests

    struct Answer {
        var status: Int
        var data: Data
        var response: HTTPURLResponse
    }

    /// One request to the endpoint, with the token, never following a redirect.
    private func request(_ url: URL, method: String, repository: String) async throws -> Answer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        request.setValue("ilotoki", forHTTPHeaderField: "User-Agent")
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let authorization = access.authorization(for: url) { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        let session = NoRedirectSession(timeout: timeout)
        defer { session.invalidate() }
        let loaded: (Data, URLResponse)
        do {
            loaded = try await session.load(request, limit: Self.listingLimit)
        } catch NoRedirectSession.Failure.tooLong {
            throw DownloadError.hubListing(repository: repository, host: access.host, problem: "its answer to \(url.path) was far too long")
        } catch NoRedirectSession.Failure.network(let code, let reason) {
            switch code {
            case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: throw DownloadError.hostNotFound(host: url.host ?? access.host)
            default: throw DownloadError.connectionFailed(url: url.absoluteString, reason: reason, bytesKept: 0)
            }
        }
        guard let http = loaded.1 as? HTTPURLResponse else {
            throw DownloadError.hubListing(repository: repository, host: access.host, problem: "it did not answer over HTTP")
        }
        return Answer(status: http.statusCode, data: loaded.0, response: http)
    }

    private func failure(_ answer: Answer, url: URL, repository: String) -> DownloadError {
        let code = header("X-Error-Code", answer.response)
        switch answer.status {
        case 404 where code == "EntryNotFound" || code == "RevisionNotFound":
            return .hubListing(repository: repository, host: access.host, problem: "it has no such file or revision (\(url.path))")
        case 401, 404:
            // The Hub answers 401 for a repository that does not exist, as for a private one.
            return .repositoryNotFound(repository: repository, host: access.host, tokenSent: access.authorization(for: url) != nil)
        case 403:
            return .accessDenied(url: url.absoluteString, status: 403)
        default:
            return .httpStatus(url: url.absoluteString, status: answer.status)
        }
    }

    private func header(_ name: String, _ response: HTTPURLResponse) -> String? {
        HTTPAttempt.header(name, in: response)
    }
}

/// A session that hands a redirect back as the answer instead of following it, and reads at
/// most a given number of bytes.
private final class NoRedirectSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private var session: URLSession!
    private let queue = OperationQueue()
    // Touched only on `queue`.
    private var data = Data()
    private var limit = 0
    private var response: URLResponse?
    private var continuation: CheckedContinuation<(Data, URLResponse), Error>?
    private var tooLong = false

    init(timeout: TimeInterval) {
        queue.maxConcurrentOperationCount = 1
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 4
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    func invalidate() { session.invalidateAndCancel() }

    func load(_ request: URLRequest, limit: Int) async throws -> (Data, URLResponse) {
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.addOperation {
                    self.limit = limit
                    self.continuation = continuation
                    task.resume()
                }
            }
        } onCancel: {
            queue.addOperation { task.cancel() }
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        self.response = response
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard !tooLong else { return }
        if self.data.count + data.count > limit {
            tooLong = true
            dataTask.cancel()
            return
        }
        self.data.append(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let continuation else { return }
        self.continuation = nil
        if tooLong {
            continuation.resume(throwing: Failure.tooLong)
        } else if let error {
            let nsError = error as NSError
            continuation.resume(
                throwing: nsError.code == NSURLErrorCancelled
                    ? CancellationError() : Failure.network(code: nsError.code, reason: nsError.localizedDescription))
        } else if let response = response ?? task.response {
            continuation.resume(returning: (data, response))
        } else {
            continuation.resume(throwing: Failure.network(code: 0, reason: "no answer"))
        }
    }

    enum Failure: Error {
        case tooLong
        case network(code: Int, reason: String)
    }
}
