import Foundation
import IloTokiTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The tests' HTTP server cleans up after itself: a test that lets go of it leaves no thread
/// accepting and no port listening behind (73 accepting threads of finished tests were once
/// still there when the test process crashed).
@Suite struct TestHTTPServerTests {
    /// Whether something accepts connections on 127.0.0.1 at `port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    @Test func aServerTheTestLetsGoOfStopsAcceptingAndItsThreadEnds() async throws {
        var port = 0
        do {
            let server = try TestHTTPServer()
            port = server.port
            server.serve("/a", data: Data("a".utf8))
            let (data, _) = try await Self.get(server.url("/a"))
            #expect(data == Data("a".utf8))
            #expect(TestHTTPServer.isAccepting(port: port))
        }
        let released = port
        let ended = await eventually { !TestHTTPServer.isAccepting(port: released) }
        #expect(ended, "the accepting thread ended")
        #expect(!Self.accepts(released), "nothing listens on the port any more")
    }

    @Test func stopEndsTheAcceptingThread() async throws {
        let server = try TestHTTPServer()
        let port = server.port
        // The thread starts on its own time: it accepts once it is running.
        let started = await eventually { TestHTTPServer.isAccepting(port: port) }
        #expect(started)
        server.stop()
        let ended = await eventually { !TestHTTPServer.isAccepting(port: port) }
        #expect(ended, "the accepting thread ended")
        #expect(!Self.accepts(server.port))
    }

    /// One GET over a plain socket (the test is about the server, not a client library).
    static func get(_ url: URL) async throws -> (Data, Int) {
        let port = url.port ?? 80
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        try #require(connected)
        let request = Array("GET \(url.path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        #expect(request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == request.count)
        var answer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { break }
            answer += chunk[0..<count]
        }
        let end = try #require(answer.firstRange(of: Array("\r\n\r\n".utf8)))
        let head = String(decoding: answer[..<end.lowerBound], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (Data(answer[end.upperBound...]), status)
    }
}
