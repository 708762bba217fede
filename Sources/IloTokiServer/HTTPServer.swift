import CHTTPServer
import Foundation
import IloTokiLocking

/// A request whose headers and body have all arrived.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The URL's path, without its query.
    public var path: String
    /// Header names in lower case.
    public var headers: [String: String]
    /// The URL's query arguments, decoded.
    public var query: [String: String]
    public var body: Data
    /// The fields of a multipart/form-data body (a file upload), as libmicrohttpd read them;
    /// `nil` when the body is not multipart, or could not be read as such.
    public var parts: [FormPart]?

    public init(
        method: String, path: String, headers: [String: String] = [:], query: [String: String] = [:], body: Data = Data(),
        parts: [FormPart]? = nil
    ) {
        self.method = method
        self.path = path
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.query = query
        self.body = body
        self.parts = parts
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A field of a multipart form: a value, or a file with its name.
public struct FormPart: Sendable, Equatable {
    public var name: String
    public var filename: String?
    public var data: Data

    public init(name: String, filename: String? = nil, data: Data) {
        self.name = name
        self.filename = filename
        self.data = data
    }
}

/// An answer.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }

    public static func == (left: HTTPResponse, right: HTTPResponse) -> Bool {
        left.status == right.status && left.body == right.body
            && left.headers.map { "\($0.name): \($0.value)" } == right.headers.map { "\($0.name): \($0.value)" }
    }
}

/// Limits that keep a client from holding the server.
public struct HTTPLimits: Sendable, Equatable {
    /// Bodies larger than this are answered 413 without being read.
    public var bodyBytes: Int
    /// The request line and headers together.
    public var headerBytes: Int
    /// Connections open at once on each listening address (a connection beyond them is
    /// closed unanswered): far more than the clients the queue serves at once, since a
    /// client that opens a connection per request still holds its last one while it closes.
    public var connections: Int
    /// A connection idle this long is closed.
    public var idleSeconds: Int
    /// A request must arrive whole this long after it began (or after the last answer).
    public var requestSeconds: Int

    public init(
        bodyBytes: Int = 8 << 20, headerBytes: Int = 64 << 10, connections: Int = 1024, idleSeconds: Int = 15, requestSeconds: Int = 30
    ) {
        self.bodyBytes = bodyBytes
        self.headerBytes = headerBytes
        self.connections = connections
        self.idleSeconds = idleSeconds
        self.requestSeconds = requestSeconds
    }
}

/// Why the server could not listen or start.
public struct HTTPServerError: Error, LocalizedError, Equatable {
    public let message: String
    public var errorDescription: String? { message }
}

/// A listening socket: where it listens.
public struct ListeningSocket: Sendable, Equatable {
    public let descriptor: Int32
    public let address: String
    public let port: Int

    /// Listens on `address` (numeric IPv4 or IPv6) and `port` (0: a free one).
    public static func open(address: String, port: Int) throws -> ListeningSocket {
        var bound: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let descriptor = ilotoki_http_listen(address, Int32(port), &bound, &error, error.count)
        guard descriptor >= 0 else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let shown = address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
            if errno == EADDRINUSE {
                throw HTTPServerError(message: "cannot listen on \(shown): the port is in use (is another ilotoki serve running?).")
            }
            throw HTTPServerError(message: "cannot listen on \(shown): \(reason).")
        }
        return ListeningSocket(descriptor: descriptor, address: address, port: Int(bound))
    }

    /// Listening sockets handed over by systemd (socket activation), if any: `LISTEN_FDS`
    /// descriptors from 3 on, for this process (`LISTEN_PID`).
    public static func fromSystemd(environment: [String: String] = ProcessInfo.processInfo.environment) -> [ListeningSocket] {
        guard let count = environment["LISTEN_FDS"].flatMap(Int.init), count > 0,
            environment["LISTEN_PID"].flatMap(Int32.init) == getpid()
        else { return [] }
        return (0..<count).map { index in
            let descriptor = Int32(3 + index)
            var address = [CChar](repeating: 0, count: 64)
            var port: Int32 = 0
            guard ilotoki_http_socket_address(descriptor, &address, address.count, &port) == 0 else {
                return ListeningSocket(descriptor: descriptor, address: "systemd socket \(index + 1)", port: 0)
            }
            return ListeningSocket(
                descriptor: descriptor, address: String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                port: Int(port))
        }
    }
}

/// An HTTP server over libmicrohttpd (`CHTTPServer`): each connection on a thread of its own;
/// a request goes to `handler` once it has arrived whole, and a client that goes away while
/// its answer is made cancels the handler's task.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    private let handler: Handler
    private var server: OpaquePointer?  // guarded by `lock`
    private let lock = NSLock()
    private let tooLarge: HTTPResponse

    /// Starts serving on `sockets` (the server owns them from now on).
    public init(sockets: [ListeningSocket], limits: HTTPLimits, tooLarge: HTTPResponse, handler: @escaping Handler) throws {
        self.handler = handler
        self.tooLarge = tooLarge
        let descriptors = sockets.map(\.descriptor)
        var error = [CChar](repeating: 0, count: 256)
        let body = String(decoding: tooLarge.body, as: UTF8.self)
        let headers = Self.headerLines(tooLarge.headers)
        let started: OpaquePointer? = descriptors.withUnsafeBufferPointer { fds in
            body.withCString { bodyText in
                headers.withCString { headerText in
                    var config = ilotoki_http_config()
                    config.listen_fds = fds.baseAddress
                    config.listen_count = fds.count
                    config.max_body_bytes = limits.bodyBytes
                    config.max_header_bytes = limits.headerBytes
                    config.max_connections = UInt32(limits.connections)
                    config.idle_seconds = UInt32(limits.idleSeconds)
                    config.request_seconds = UInt32(limits.requestSeconds)
                    config.too_large_body = bodyText
                    config.too_large_headers = headerText
                    config.handler = { context, request, respond, respondContext in
                        guard let context, let request, let respond else { return }
                        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
                        server.answer(request, respond: respond, respondContext: respondContext)
                    }
                    config.context = Unmanaged.passUnretained(self).toOpaque()
                    return ilotoki_http_start(&config, &error, error.count)
                }
            }
        }
        guard let started else {
            for descriptor in descriptors { close(descriptor) }
            throw HTTPServerError(message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        server = started
    }

    deinit { stop() }

    /// Stops accepting; connections open go on until their requests are answered.
    public func stopAccepting() {
        lock.withLock { if let server { ilotoki_http_quiesce(server) } }
    }

    /// Closes every connection once its handler has returned, and frees the server.
    public func stop() {
        let running: OpaquePointer? = lock.withLock {
            defer { server = nil }
            return server
        }
        if let running { ilotoki_http_stop(running) }
    }

    static func headerLines(_ headers: [(name: String, value: String)]) -> String {
        headers.map { "\($0.name): \($0.value)\n" }.joined()
    }

    /// On the connection's thread: runs the handler as a task and waits for it, cancelling it
    /// when the client goes away.
    private func answer(
        _ request: UnsafePointer<ilotoki_http_request>,
        respond: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<ilotoki_http_response>?) -> Void,
        respondContext: UnsafeMutableRawPointer?
    ) {
        let copied = Self.copy(request)
        let done = NSCondition()
        let result = Locked<HTTPResponse?>(nil)
        let handler = self.handler
        let task = Task {
            let response = await handler(copied)
            result.withLock { $0 = response }
            Self.wake(done)
        }
        var cancelled = false
        done.lock()
        while result.withLock({ $0 }) == nil {
            // Whether the client went away is looked at four times a second: often enough to
            // give up its sentences within a decoding step or few, and seldom enough that
            // many waiting connections do not take the decoding threads' cores.
            _ = done.wait(until: Date().addingTimeInterval(0.25))
            if !cancelled, ilotoki_http_peer_closed(request) != 0 {
                cancelled = true
                task.cancel()
            }
        }
        done.unlock()
        let response = result.withLock { $0 } ?? HTTPResponse(status: 500)
        let headers = Self.headerLines(response.headers)
        response.body.withUnsafeBytes { bytes in
            headers.withCString { headerText in
                var answer = ilotoki_http_response()
                answer.status = Int32(response.status)
                answer.body = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                answer.body_length = bytes.count
                answer.headers = headerText
                respond(respondContext, &answer)
            }
        }
    }

    private static func wake(_ condition: NSCondition) {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    private static func copy(_ request: UnsafePointer<ilotoki_http_request>) -> HTTPRequest {
        let method = String(cString: request.pointee.method)
        let path = String(cString: request.pointee.path)
        let body = request.pointee.body.map { Data(bytes: $0, count: request.pointee.body_length) } ?? Data()
        final class Values { var values: [String: String] = [:] }
        func values(_ query: Int32) -> [String: String] {
            let box = Values()
            withExtendedLifetime(box) {
                ilotoki_http_each(
                    request, query,
                    { context, name, value in
                        guard let context, let name, let value else { return }
                        let box = Unmanaged<Values>.fromOpaque(context).takeUnretainedValue()
                        let key = String(cString: name)
                        if box.values[key] == nil { box.values[key] = String(cString: value) }
                    }, Unmanaged.passUnretained(box).toOpaque())
            }
            return box.values
        }
        let headers = values(0)
        var parts: [FormPart]?
        let type = headers.first { $0.key.lowercased() == "content-type" }?.value.lowercased() ?? ""
        if type.hasPrefix("multipart/form-data") {
            final class Parts { var parts: [FormPart] = [] }
            let box = Parts()
            let status = withExtendedLifetime(box) {
                ilotoki_http_form(
                    request,
                    { context, name, filename, data, length, offset in
                        guard let context, let name else { return }
                        let box = Unmanaged<Parts>.fromOpaque(context).takeUnretainedValue()
                        let piece = data.map { Data(bytes: $0, count: length) } ?? Data()
                        let key = String(cString: name)
                        let file = filename.map { String(cString: $0) }
                        // A field's pieces come in order; a new field starts at offset 0.
                        if offset > 0, let last = box.parts.indices.last, box.parts[last].name == key {
                            box.parts[last].data.append(piece)
                        } else {
                            box.parts.append(FormPart(name: key, filename: file, data: piece))
                        }
                    }, Unmanaged.passUnretained(box).toOpaque())
            }
            parts = status == 0 ? box.parts : nil
        }
        return HTTPRequest(method: method, path: path, headers: headers, query: values(1), body: body, parts: parts)
    }

    /// libmicrohttpd's version.
    public static var libraryVersion: String { String(cString: ilotoki_http_library_version()) }
}
