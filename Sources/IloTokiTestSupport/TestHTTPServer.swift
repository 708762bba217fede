import Foundation
import IloTokiLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 for download tests: it honours `Range`, `If-Range` and
/// ETags, redirects like Hugging Face's `resolve/` URLs (a 302 carrying `X-Linked-Etag` and
/// `X-Linked-Size`), and can be told to misbehave.
///
/// Each connection is served on a thread of its own and closed after one response. A request
/// is recorded before any of its answer is sent, so whatever a client has seen of the server,
/// `requests` already lists. The server stops when `stop()` is called or when the test lets go
/// of it, its accepting thread included.
public final class TestHTTPServer: Sendable {
    /// A way to misbehave, applied to one response (queued with `addFaults`).
    public enum Fault: Sendable {
        /// Close the connection after sending this many body bytes.
        case cutAfter(Int)
        /// Answer a ranged request with 200 and the whole file.
        case ignoreRange
        /// Answer a ranged request with a 206 that starts this many bytes away from where it was asked to.
        case wrongOffset(Int)
        /// Send this many body bytes, then nothing more until the client gives up.
        case stallAfter(Int)
        /// Close the connection without answering.
        case refuse
        /// Answer with this status and no body.
        case status(Int)
        /// Cut after this many body bytes, and run `change` before the connection closes (before
        /// the client can ask again): what changes upstream between two requests (`serve` a new
        /// file, `redirect` elsewhere).
        case cutThen(after: Int, change: @Sendable () -> Void)
    }

    /// A request the server saw.
    public struct Request: Sendable {
        public let method: String
        public let path: String
        public let headers: [String: String]
        /// The status the server answered with (0 when it closed without answering).
        public let status: Int
    }

    private struct Resource {
        var body: Body
        var etag: String
        var contentType = "application/octet-stream"
    }

    private enum Body {
        case data(Data)
        case file(URL, size: Int)

        var size: Int {
            switch self {
            case .data(let data): data.count
            case .file(_, let size): size
            }
        }
    }

    private struct Redirect {
        var target: String
        var host: String
        var linkedEtag: String?
        var linkedSize: Int?
    }

    private struct State {
        var resources: [String: Resource] = [:]
        var redirects: [String: Redirect] = [:]
        var faults: [String: [Fault]] = [:]
        var persistentFaults: [String: Fault] = [:]
        var cutOffsets: [String: Set<Int>] = [:]
        var refuseAll = false
        var requests: [Request] = []
        var bodyBytesSent = 0
        var stopped = false
    }

    public let port: Int
    private let listener: Int32
    private let state = Locked(State())

    /// Starts listening on 127.0.0.1 on a free port.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw ServerError("bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        let boundPort = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        port = boundPort
        // The accepting thread holds the server only while it hands over a connection, so the
        // test's letting go of the server ends it (deinit stops it; then accept fails and the
        // thread closes the listening socket and ends).
        let server = WeakServer(self)
        let thread = Thread { Self.acceptLoop(fd, port: boundPort, server) }
        thread.name = "test-http-server"
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The URL of a path on this server.
    public func url(_ path: String) -> URL { baseURL.appendingPathComponent(path) }

    /// Serves `data` at `path`.
    public func serve(_ path: String, data: Data, etag: String? = nil, contentType: String = "application/octet-stream") {
        state.withLock {
            $0.resources[path] = Resource(body: .data(data), etag: etag ?? Self.etag(for: data.count), contentType: contentType)
        }
    }

    /// Serves a file at `path` (for large bodies that should not live in memory).
    public func serve(_ path: String, file: URL, etag: String? = nil) throws {
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        state.withLock { $0.resources[path] = Resource(body: .file(file, size: size), etag: etag ?? Self.etag(for: size)) }
    }

    /// Answers `path` with a 302 to `target`, carrying `X-Linked-Etag` (quoted) and
    /// `X-Linked-Size` as Hugging Face does for `resolve/` URLs. `host` names this server by
    /// another name in the `Location` (`localhost`: the other host a CDN is).
    public func redirect(_ path: String, to target: String, linkedEtag: String?, linkedSize: Int?, host: String = "127.0.0.1") {
        state.withLock { $0.redirects[path] = Redirect(target: target, host: host, linkedEtag: linkedEtag, linkedSize: linkedSize) }
    }

    /// Queues faults for the next responses to `path`, one per response.
    public func addFaults(_ faults: [Fault], for path: String) {
        state.withLock { $0.faults[path, default: []].append(contentsOf: faults) }
    }

    /// A fault applied to every response to `path` (after any queued ones), until cleared.
    public func setPersistentFault(_ fault: Fault?, for path: String) {
        state.withLock { $0.persistentFaults[path] = fault }
    }

    /// Cuts responses to `path` when they reach these byte offsets of the file, each once.
    public func cut(_ path: String, atOffsets offsets: [Int]) {
        state.withLock { $0.cutOffsets[path, default: []].formUnion(offsets) }
    }

    /// Closes every connection without answering (a server that refuses everything).
    public func refuseAll(_ refuse: Bool) {
        state.withLock { $0.refuseAll = refuse }
    }

    /// Every request so far.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// Body bytes sent so far, over all responses.
    public var bodyBytesSent: Int { state.withLock { $0.bodyBytesSent } }

    /// Stops listening; connections in progress end.
    public func stop() {
        let wasRunning = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard wasRunning else { return }
        // Wakes the accepting thread (accept fails), which closes the socket: closing it here
        // could hand its number to another socket while that thread is about to accept on it.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    // MARK: - Serving

    /// The server, not kept alive by the thread that accepts its connections.
    private final class WeakServer: @unchecked Sendable {
        weak var server: TestHTTPServer?
        init(_ server: TestHTTPServer) { self.server = server }
    }

    /// The ports whose accepting threads are running, in this process.
    private static let accepting = Locked(Set<Int>())

    /// Whether the accepting thread of the server that listened on `port` is still running.
    public static func isAccepting(port: Int) -> Bool { accepting.withLock { $0.contains(port) } }

    private static func acceptLoop(_ listener: Int32, port: Int, _ weakServer: WeakServer) {
        accepting.withLock { _ = $0.insert(port) }
        defer {
            close(listener)
            accepting.withLock { _ = $0.remove(port) }
        }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            guard let server = weakServer.server, !server.stopped else {
                close(client)
                return
            }
            let thread = Thread {
                server.handle(client)
                close(client)
            }
            thread.start()
        }
    }

    private func handle(_ client: Int32) {
        guard let (method, path, headers) = readRequest(client) else { return }
        let refuse = state.withLock { $0.refuseAll }
        if refuse {
            record(method, path, headers, status: 0)
            return
        }
        if let redirect = state.withLock({ $0.redirects[path] }) {
            var extra = "Location: http://\(redirect.host):\(port)\(redirect.target)\r\n"
            if let etag = redirect.linkedEtag { extra += "X-Linked-Etag: \"\(etag)\"\r\n" }
            if let size = redirect.linkedSize { extra += "X-Linked-Size: \(size)\r\n" }
            extra += "ETag: \"redirect-\(path.hashValue)\"\r\n"
            record(method, path, headers, status: 302)
            sendHead(client, status: 302, headers: extra + "Content-Length: 0\r\n")
            return
        }
        let (resource, fault): (Resource?, Fault?) = state.withLock { state in
            var fault: Fault?
            if var queue = state.faults[path], !queue.isEmpty {
                fault = queue.removeFirst()
                state.faults[path] = queue
            } else {
                fault = state.persistentFaults[path]
            }
            return (state.resources[path], fault)
        }
        guard let resource else {
            record(method, path, headers, status: 404)
            sendHead(client, status: 404, headers: "Content-Length: 0\r\n")
            return
        }
        switch fault {
        case .refuse?:
            record(method, path, headers, status: 0)
            return
        case .status(let status)?:
            record(method, path, headers, status: status)
            sendHead(client, status: status, headers: "Content-Length: 0\r\n")
            return
        default: break
        }

        let size = resource.body.size
        var start = 0
        var end = size - 1
        var status = 200
        if let range = headers["range"], let (requested, requestedEnd) = Self.range(range) {
            let ifRangeMatches = headers["if-range"].map { $0 == resource.etag } ?? true
            if ifRangeMatches {
                if requested >= size {
                    record(method, path, headers, status: 416)
                    sendHead(client, status: 416, headers: "Content-Range: bytes */\(size)\r\nContent-Length: 0\r\n")
                    return
                }
                switch fault {
                case .ignoreRange?: break
                case .wrongOffset(let shift)?:
                    start = min(max(requested + shift, 0), size - 1)
                    status = 206
                default:
                    start = requested
                    status = 206
                }
                if status == 206, let requestedEnd { end = min(max(requestedEnd, start), size - 1) }
            }
        }
        var head =
            "ETag: \(resource.etag)\r\nContent-Type: \(resource.contentType)\r\nAccept-Ranges: bytes\r\nContent-Length: \(end + 1 - start)\r\n"
        if status == 206 { head += "Content-Range: bytes \(start)-\(end)/\(size)\r\n" }
        record(method, path, headers, status: status)
        sendHead(client, status: status, headers: head)
        guard method != "HEAD" else { return }

        // Where this response stops early, if it does.
        var limit = end + 1 - start
        var stall = false
        switch fault {
        case .cutAfter(let bytes)?: limit = min(limit, bytes)
        case .stallAfter(let bytes)?:
            limit = min(limit, bytes)
            stall = true
        case .cutThen(let bytes, _)?: limit = min(limit, bytes)
        default: break
        }
        let cut: Int? = state.withLock { state in
            guard let offsets = state.cutOffsets[path],
                let offset = offsets.filter({ $0 > start && $0 < start + limit }).min()
            else { return nil }
            state.cutOffsets[path]?.remove(offset)
            return offset
        }
        if let cut { limit = cut - start }

        sendBody(client, resource.body, from: start, count: limit)
        if case .cutThen(_, let change)? = fault { change() }
        if stall {
            while !stopped {
                var pollfd = Glibc.pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                if poll(&pollfd, 1, 50) > 0 { break }  // the client closed or sent something
            }
        }
    }

    private func record(_ method: String, _ path: String, _ headers: [String: String], status: Int) {
        state.withLock { $0.requests.append(Request(method: method, path: path, headers: headers, status: status)) }
    }

    private func readRequest(_ client: Int32) -> (String, String, [String: String])? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffer.count < 65536 {
            let count = recv(client, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer += chunk[0..<count]
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                let text = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                var lines = text.components(separatedBy: "\r\n")
                let requestLine = lines.removeFirst().split(separator: " ")
                guard requestLine.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    let name = line[..<colon].lowercased()
                    headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let path = String(requestLine[1]).components(separatedBy: "?")[0]
                return (String(requestLine[0]), path, headers)
            }
        }
        return nil
    }

    private func sendHead(_ client: Int32, status: Int, headers: String) {
        let reason =
            [
                200: "OK", 206: "Partial Content", 302: "Found", 401: "Unauthorized", 403: "Forbidden",
                404: "Not Found", 416: "Range Not Satisfiable", 500: "Internal Server Error",
                503: "Service Unavailable",
            ][status] ?? "Status"
        let text = "HTTP/1.1 \(status) \(reason)\r\n\(headers)Connection: close\r\n\r\n"
        _ = sendAll(client, Array(text.utf8)[...])
    }

    private func sendBody(_ client: Int32, _ body: Body, from start: Int, count: Int) {
        var offset = start
        let end = start + count
        var fileHandle: Int32 = -1
        if case .file(let url, _) = body { fileHandle = open(url.path, O_RDONLY) }
        defer { if fileHandle >= 0 { close(fileHandle) } }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while offset < end, !stopped {
            let length = min(buffer.count, end - offset)
            switch body {
            case .data(let data):
                data.copyBytes(to: &buffer, from: offset..<offset + length)
            case .file:
                let got = buffer.withUnsafeMutableBytes { pread(fileHandle, $0.baseAddress, length, off_t(offset)) }
                guard got == length else { return }
            }
            let sent = sendAll(client, buffer[0..<length])
            state.withLock { $0.bodyBytesSent += sent }
            guard sent == length else { return }
            offset += length
        }
    }

    /// Sends bytes, never raising SIGPIPE when the client has gone; returns how many went.
    private func sendAll(_ client: Int32, _ bytes: ArraySlice<UInt8>) -> Int {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                send(client, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                return sent
            }
            sent += count
        }
        return sent
    }

    /// `bytes=START-` or `bytes=START-END`.
    private static func range(_ header: String) -> (Int, Int?)? {
        guard header.hasPrefix("bytes="), let dash = header.firstIndex(of: "-") else { return nil }
        guard let start = Int(header[header.index(header.startIndex, offsetBy: 6)..<dash]) else { return nil }
        return (start, Int(header[header.index(after: dash)...]))
    }

    private static func etag(for size: Int) -> String { "\"file-\(size)-\(UUID().uuidString.prefix(8))\"" }

    public struct ServerError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
