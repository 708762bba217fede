#if canImport(IloTokiServer)
    import Foundation
    import IloTokiCore
    import IloTokiServer
    import IloTokiTestSupport
    import Testing

    #if canImport(Glibc)
        import Glibc
    #endif

    /// `ilotoki serve`: the real server on 127.0.0.1 with the tiny model, spoken to over TCP as a
    /// client does (a request, the whole answer, the connection closed).
    @Suite(.exclusiveModelUse) struct ServeCommandTests {
        let home = TemporaryDirectory("serve")
        let ilotoki = ToolProcess.executable("ilotoki")
        var environment: [String: String] { ["ILOTOKI_HOME": home.path, "NO_COLOR": "1"] }

        /// A running server and its port.
        struct Server {
            let tool: ToolProcess
            let port: Int

            func send(_ raw: Data) throws -> Answer { try Answer.exchange(raw, port: port) }

            func request(_ method: String, _ path: String, body: String? = nil, type: String? = nil, headers: [String] = []) throws
                -> Answer
            {
                var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
                for header in headers { head += header + "\r\n" }
                if let type { head += "Content-Type: \(type)\r\n" }
                let bytes = Data((body ?? "").utf8)
                if body != nil { head += "Content-Length: \(bytes.count)\r\n" }
                return try send(Data((head + "\r\n").utf8) + bytes)
            }

            func json(_ path: String, _ object: [String: Any], headers: [String] = []) throws -> Answer {
                let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
                return try request("POST", path, body: body, type: "application/json", headers: headers)
            }
        }

        /// An answer: status, headers (names in lower case), body.
        struct Answer {
            let status: Int
            let headers: [String: String]
            let body: Data

            var object: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
            var error: String? { object["error"] as? String }

            static func exchange(_ raw: Data, port: Int) throws -> Answer {
                let socket = try #require(ServeCommandTests.connect(port: port), "connect: \(errno)")
                defer { close(socket) }
                var sent = 0
                raw.withUnsafeBytes { bytes in
                    while sent < bytes.count {
                        let count = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                        if count <= 0 { break }  // the server answered early and closed (413)
                        sent += count
                    }
                }
                return try parse(receiveAll(socket))
            }

            /// Everything the server sends on `socket` until it closes the connection.
            static func receiveAll(_ socket: Int32) -> Data {
                var received = Data()
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = recv(socket, &buffer, buffer.count, 0)
                    if count <= 0 { break }
                    received.append(contentsOf: buffer[0..<count])
                }
                return received
            }

            static func parse(_ data: Data) throws -> Answer {
                let separator = Data("\r\n\r\n".utf8)
                let end = try #require(data.range(of: separator), "an HTTP answer: \(String(decoding: data.prefix(200), as: UTF8.self))")
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let status = try #require(Int(head[0].split(separator: " ")[1]))
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                return Answer(status: status, headers: headers, body: Data(data[end.upperBound...]))
            }
        }

        /// Sends a whole request, and closes the connection a moment later without reading the answer.
        static func sendAndLeave(_ raw: Data, port: Int) {
            guard let socket = connect(port: port) else { return }
            defer { close(socket) }
            raw.withUnsafeBytes { _ = Glibc.send(socket, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            usleep(300_000)
        }

        /// Whether something accepts connections on 127.0.0.1:`port` (the connection is closed at once).
        static func accepts(port: Int) -> Bool {
            guard let socket = connect(port: port) else { return false }
            close(socket)
            return true
        }

        /// A TCP connection to 127.0.0.1:`port`, or `nil` when nothing accepts it.
        static func connect(port: Int) -> Int32? {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { return nil }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(socket)
                return nil
            }
            return socket
        }

        func start(_ arguments: [String] = []) async throws -> Server {
            let tiny = try TestModels.require(TestModels.tiny)
            let tool = try ToolProcess(
                ilotoki, ["serve", "--port", "0", "--model", tiny, "--threads", "1"] + arguments, environment: environment)
            try await tool.waitForStderr { $0.contains(" answers on ") }
            let line = try #require(tool.stderrSoFar.split(separator: "\n").first { $0.contains("listening on http://127.0.0.1:") })
            let port = try #require(Int(line.split(separator: "127.0.0.1:")[1].prefix { $0.isNumber }))
            return Server(tool: tool, port: port)
        }

        func stop(_ server: Server) async -> ToolProcess.Result {
            server.tool.signal(SIGTERM)
            return await server.tool.wait()
        }

        // MARK: - The API

        @Test func theRoutesAnswerAsLibreTranslatesDo() async throws {
            let tiny = try TestModels.require(TestModels.tiny)
            let server = try await start()
            let languages = try server.request("GET", "/languages")
            #expect(languages.status == 200)
            let list = try #require(try JSONSerialization.jsonObject(with: languages.body) as? [[String: Any]])
            #expect(list.map { $0["code"] as? String } == ["tok", "en", "ru", "vi"])
            #expect(list.first?["targets"] as? [String] == ["en", "ru", "vi"])
            #expect(list.last?["targets"] as? [String] == ["tok"])

            let settings = try server.request("GET", "/frontend/settings").object
            #expect(settings["charLimit"] as? Int == 100_000)
            #expect(settings["keyRequired"] as? Bool == false)
            #expect(settings["suggestions"] as? Bool == false)

            // A form, as libretranslatepy sends it: the same translation the command line makes.
            let expected = try await ExpectedTranslation.of("I love you.", .englishToTokiPona, model: tiny)
            let form = try server.request(
                "POST", "/translate", body: "q=I+love+you.&source=en&target=tok", type: "application/x-www-form-urlencoded")
            #expect(form.status == 200)
            #expect(form.headers["content-type"] == "application/json")
            #expect(form.object["translatedText"] as? String == expected)
            #expect(form.headers["access-control-allow-origin"] == nil, "no CORS header unless --cors names an origin")

            // JSON with an array and source auto: one answer and one detection per text, in order.
            let batch = try server.json(
                "/translate", ["q": ["I love you.", "mi moku", "", "Я люблю тебя."], "source": "auto", "target": "tok", "alternatives": 3])
            #expect(batch.status == 200)
            let texts = try #require(batch.object["translatedText"] as? [String])
            try #require(texts.count == 4)
            #expect(texts[0] == expected)
            #expect(texts[1] == "mi moku", "already Toki Pona")
            #expect(texts[2] == "")
            let detected = try #require(batch.object["detectedLanguage"] as? [[String: Any]])
            #expect(detected.map { $0["language"] as? String } == ["en", "tok", "en", "ru"])
            #expect((batch.object["alternatives"] as? [[String]])?.count == 4)

            let detect = try server.request("POST", "/detect", body: "q=toki+a!+mi+jan+pona")
            let detections = try #require(try JSONSerialization.jsonObject(with: detect.body) as? [[String: Any]])
            #expect(detections.first?["language"] as? String == "tok")
            #expect((detections.first?["confidence"] as? Double ?? 0) > 50)

            // HTML: the text nodes are translated, the markup kept.
            let html = try server.json(
                "/translate",
                [
                    "q": "<p class=\"x\">I love <b>you</b>.</p><script>var a = 1;</script>", "source": "en", "target": "tok",
                    "format": "html",
                ])
            let translated = try #require(html.object["translatedText"] as? String)
            #expect(
                translated.hasPrefix("<p class=\"x\">") && translated.contains("<b>")
                    && translated.hasSuffix("</p><script>var a = 1;</script>"), "\(translated)")

            let suggest = try server.request("POST", "/suggest", body: "q=a&s=b&source=en&target=tok")
            #expect(suggest.status == 403)
            #expect(suggest.error == "Suggestions are disabled on this server.")

            let result = await stop(server)
            #expect(result.status == 0)
            #expect(result.stderr.contains("stopped"))
            #expect(!result.stderr.contains("I love you"), "served text never goes to the terminal")
            // History is off for served text unless asked for.
            #expect(
                !FileManager.default.fileExists(atPath: AppDirectories(home: home.url).historyFile.path)
                    || HistoryStore(url: AppDirectories(home: home.url).historyFile).load().history.entries.isEmpty)
        }

        @Test func eachMistakeHasItsStatusAndTheServerAnswersTheNextRequest() async throws {
            let server = try await start(["--char-limit", "50"])
            func expectError(_ answer: Answer, _ status: Int, _ words: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
                #expect(answer.status == status, "\(String(decoding: answer.body, as: UTF8.self))", sourceLocation: sourceLocation)
                #expect(
                    answer.error?.contains(words) == true, "\(answer.error ?? String(decoding: answer.body, as: UTF8.self))",
                    sourceLocation: sourceLocation)
                #expect(try server.request("GET", "/languages").status == 200, "still answering", sourceLocation: sourceLocation)
            }
            try expectError(try server.request("POST", "/translate", body: "source=en&target=tok"), 400, "missing q parameter")
            try expectError(try server.request("POST", "/translate", body: "q=hello&target=tok"), 400, "missing source parameter")
            try expectError(try server.request("POST", "/translate", body: "q=hello&source=en&target=xx"), 400, "xx is not supported")
            try expectError(
                try server.request("POST", "/translate", body: "q=hello&source=en&target=ru"), 400,
                "Russian (ru) is not available as a target language from English (en)")
            try expectError(
                try server.request("POST", "/translate", body: "q=\(String(repeating: "a", count: 51))&source=en&target=tok"), 400,
                "exceeds text limit (50)")
            try expectError(
                try server.request("POST", "/translate", body: "q=hello&source=en&target=tok&format=pdf"), 400,
                "pdf format is not supported")
            var invalid = Data(
                "POST /translate HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\nContent-Length: 27\r\n\r\nq=".utf8)
            invalid += Data([0xFF]) + Data("&source=en&target=tok".utf8) + Data([0x20, 0x20, 0x20])
            try expectError(try server.send(invalid), 400, "not valid UTF-8")
            try expectError(
                try server.request("POST", "/translate", body: "{\"q\": ", type: "application/json"), 400, "Invalid JSON format")
            try expectError(
                try server.json("/translate", ["q": [1, 2], "source": "en", "target": "tok"]), 400,
                "q must be a string or an array of strings")
            try expectError(
                try server.json("/translate", ["q": (1...10_000).map { _ in "a" }, "source": "en", "target": "tok"]), 400,
                "exceeds text limit")
            try expectError(try server.request("GET", "/nowhere"), 404, "Not Found")
            try expectError(try server.request("GET", "/download_file/0000.notes.txt"), 404, "no translated file")
            try expectError(try server.request("POST", "/translate_file", body: "source=en&target=tok"), 400, "multipart")
            try expectError(try server.request("GET", "/translate"), 405, "not allowed")
            // A body larger than the server takes is refused before it is read.
            let big = try server.request("POST", "/translate", body: String(repeating: "a", count: 3 << 20))
            try expectError(big, 413, "larger than this server takes")
            // Headers of 1 MB.
            let headers = try server.request("GET", "/languages", headers: ["X-Big: " + String(repeating: "b", count: 1 << 20)])
            #expect(headers.status == 413 || headers.status == 431)
            #expect(try server.request("GET", "/languages").status == 200)
            #expect(await stop(server).status == 0)
        }

        // MARK: - Who may use it

        @Test func aKeyFileMakesTheKeyNeededAndAForeignHostOrPageIsRefused() async throws {
            let keyFile = home.url.appendingPathComponent("key")
            try "s3cret-key\n".write(to: keyFile, atomically: true, encoding: .utf8)
            let server = try await start(["--api-key-file", keyFile.path])
            #expect(try server.request("POST", "/translate", body: "q=hello&source=en&target=tok").status == 403)
            #expect(try server.request("POST", "/translate", body: "q=hello&source=en&target=tok&api_key=wrong").error == "Invalid API key")
            #expect(try server.request("POST", "/translate", body: "q=hello&source=en&target=tok&api_key=s3cret-key").status == 200)
            #expect(try server.json("/detect", ["q": "hello", "api_key": "s3cret-key"]).status == 200)
            #expect(try server.request("GET", "/languages").status == 200, "the languages need no key, as LibreTranslate's")
            #expect(try server.request("GET", "/frontend/settings").object["keyRequired"] as? Bool == true)

            // DNS rebinding: a page's own name in Host.
            let foreign = try server.send(
                Data("GET /languages HTTP/1.1\r\nHost: attacker.example:\(server.port)\r\nConnection: close\r\n\r\n".utf8))
            #expect(foreign.status == 403)
            let local = try server.send(Data("GET /languages HTTP/1.1\r\nHost: localhost:\(server.port)\r\nConnection: close\r\n\r\n".utf8))
            #expect(local.status == 200)
            // A web page's request carries its origin: refused, and no CORS header is sent.
            let page = try server.request(
                "POST", "/translate", body: "q=hello&source=en&target=tok&api_key=s3cret-key", headers: ["Origin: https://example.org"])
            #expect(page.status == 403)
            #expect(page.headers["access-control-allow-origin"] == nil)
            #expect(await stop(server).status == 0)

            let allowed = try await start(["--cors", "https://app.example"])
            let preflight = try allowed.request(
                "OPTIONS", "/translate", headers: ["Origin: https://app.example", "Access-Control-Request-Method: POST"])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == "https://app.example")
            let fromApp = try allowed.request(
                "POST", "/translate", body: "q=hello&source=en&target=tok", headers: ["Origin: https://app.example"])
            #expect(fromApp.status == 200)
            #expect(fromApp.headers["access-control-allow-origin"] == "https://app.example")
            #expect(
                try allowed.request("POST", "/translate", body: "q=hello&source=en&target=tok", headers: ["Origin: https://other.example"])
                    .status == 403)
            #expect(await stop(allowed).status == 0)
        }

        @Test func anotherAddressNeedsAKey() async throws {
            let result = try await ToolProcess.run(ilotoki, ["serve", "--host", "0.0.0.0", "--port", "0"], environment: environment)
            #expect(result.status == 2)
            #expect(result.stderr.contains("--api-key-file"))
        }

        // MARK: - Clients that misbehave, and the end

        @Test func aSlowClientIsCutOffAndOneThatLeavesGivesUpOnlyItsOwnText() async throws {
            let server = try await start(["--request-timeout", "2"])
            // One byte a second: the connection is closed when the request has not come whole in 2 s.
            let started = ContinuousClock.now
            let slow = Task.detached { () -> Bool in
                guard let socket = Self.connect(port: server.port) else { return false }
                defer { close(socket) }
                for byte in Array("POST /translate HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8) {
                    if Glibc.send(socket, [byte], 1, Int32(MSG_NOSIGNAL)) <= 0 { return true }
                    try? await Task.sleep(for: .seconds(1))
                }
                return false
            }
            #expect(await slow.value, "the slow client was cut off")
            #expect(ContinuousClock.now - started < .seconds(30))

            // A client that goes away mid-translation: the next request is answered.
            let long = String(repeating: "I love the cat that sleeps on the warm mat. ", count: 20)
            let body = "q=\(long.replacingOccurrences(of: " ", with: "+"))&source=en&target=tok"
            let leaving = Task.detached {
                Self.sendAndLeave(
                    Data("POST /translate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8),
                    port: server.port)
            }
            await leaving.value
            #expect(try server.request("POST", "/translate", body: "q=The+next+one.&source=en&target=tok").status == 200)
            #expect(await stop(server).status == 0)
        }

        /// Clients that open a connection per request, many at once, as a busy page of
        /// translations does: 96 connections held open together on 127.0.0.1 (more than the
        /// limit split between 127.0.0.1 and ::1 once let one address take) each get their answer.
        @Test func manyConnectionsOpenAtOnceAreEachAnswered() async throws {
            let server = try await start()
            let count = 96
            var sockets: [Int32] = []
            defer { sockets.forEach { close($0) } }
            for _ in 0..<count { sockets.append(try #require(Self.connect(port: server.port), "connect: \(errno)")) }
            let body = "q=Good+morning.&source=en&target=tok"
            let raw = Data(
                "POST /translate HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    .utf8)
            for socket in sockets {
                raw.withUnsafeBytes { _ = Glibc.send(socket, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            var statuses: [Int] = []
            for socket in sockets { statuses.append((try? Answer.parse(Answer.receiveAll(socket)))?.status ?? -1) }
            #expect(
                statuses.filter { $0 == 200 }.count == count, "answered: \(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
            #expect(await stop(server).status == 0)
        }

        @Test func twoServersOnOnePortAndAMissingOrDamagedModelAreClearErrors() async throws {
            let server = try await start()
            let second = try await ToolProcess.run(
                ilotoki, ["serve", "--port", String(server.port), "--model", try TestModels.require(TestModels.tiny)],
                environment: environment)
            #expect(second.status == 1)
            #expect(second.stderr.contains("the port is in use"))
            #expect(await stop(server).status == 0)

            let missing = try await ToolProcess.run(
                ilotoki, ["serve", "--port", "0", "--model", "/nowhere/model.gguf"], environment: environment)
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("/nowhere/model.gguf"))
            let damaged = home.url.appendingPathComponent("damaged.gguf")
            try Data("GGUF this is not a model".utf8).write(to: damaged)
            let broken = try await ToolProcess.run(ilotoki, ["serve", "--port", "0", "--model", damaged.path], environment: environment)
            #expect(broken.status == 1)
            #expect(broken.stderr.split(separator: "\n").count <= 3, "our words, not llama.cpp's: \(broken.stderr)")
        }

        /// Privacy, proven for the server too: every socket the process and its threads open is
        /// traced; it binds only loopback addresses, accepts its clients, and connects nowhere.
        @Test func theServerOpensNoSocketButItsOwnAndItsClients() async throws {
            let tiny = try TestModels.require(TestModels.tiny)
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
                Issue.record("/usr/bin/strace is missing: scripts/setup.sh --with-test-tools installs it")
                return
            }
            let trace = home.file("serve-strace.log")
            let tool = try ToolProcess(
                URL(fileURLWithPath: "/usr/bin/strace"),
                [
                    "-f", "-e", "trace=socket,connect,bind,listen,accept,accept4", "-o", trace.path, ilotoki.path, "serve", "--port", "0",
                    "--model", tiny, "--threads", "1",
                ],
                environment: environment)
            try await tool.waitForStderr { $0.contains(" answers on ") }
            let line = try #require(tool.stderrSoFar.split(separator: "\n").first { $0.contains("listening on http://127.0.0.1:") })
            let port = try #require(Int(line.split(separator: "127.0.0.1:")[1].prefix { $0.isNumber }))
            let server = Server(tool: tool, port: port)
            #expect(try server.request("POST", "/translate", body: "q=I+love+you.&source=en&target=tok").status == 200)
            // The traced process is strace's child: the first line of the trace names it.
            let log = try String(contentsOf: trace, encoding: .utf8)
            let pid = try #require(log.split(separator: " ").first.flatMap { Int32($0) })
            kill(pid, SIGTERM)
            _ = await tool.wait()
            let calls = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
            let binds = calls.filter { $0.contains("bind(") }
            #expect(binds.count == 2, "127.0.0.1 and ::1: \(binds)")
            #expect(binds.allSatisfy { $0.contains("inet_addr(\"127.0.0.1\")") || $0.contains("\"::1\"") }, "\(binds)")
            #expect(calls.contains { $0.contains("accept") && !$0.contains("EAGAIN") }, "the trace saw the client accepted")
            let connects = calls.filter { $0.contains("connect(") && ($0.contains("AF_INET") || $0.contains("AF_INET6")) }
            #expect(connects.isEmpty, "\(connects)")
        }

        // MARK: - Started the way the platform does

        /// The user units install-gtk.sh installs pass systemd's own check, and a server started as
        /// the socket unit starts it (the sockets handed over as LISTEN_FDS) answers on them.
        @Test func theSystemdUnitsAreValidAndSocketActivationServes() async throws {
            let tiny = try TestModels.require(TestModels.tiny)
            let data = TestModels.repositoryRoot.appendingPathComponent("data")
            let units = home.url.appendingPathComponent("units")
            try FileManager.default.createDirectory(at: units, withIntermediateDirectories: true)
            let service = try String(contentsOf: data.appendingPathComponent("ilotoki-serve.service"), encoding: .utf8)
            try service.replacingOccurrences(of: "@BINDIR@", with: ilotoki.deletingLastPathComponent().path)
                .write(to: units.appendingPathComponent("ilotoki-serve.service"), atomically: true, encoding: .utf8)
            try FileManager.default.copyItem(
                at: data.appendingPathComponent("ilotoki-serve.socket"), to: units.appendingPathComponent("ilotoki-serve.socket"))
            let socketUnit = try String(contentsOf: data.appendingPathComponent("ilotoki-serve.socket"), encoding: .utf8)
            #expect(socketUnit.contains("ListenStream=127.0.0.1:5000") && socketUnit.contains("ListenStream=[::1]:5000"), "loopback only")
            for tool in ["/usr/bin/systemd-analyze", "/usr/bin/systemd-socket-activate"]
            where !FileManager.default.isExecutableFile(atPath: tool) {
                Issue.record("\(tool) is missing (Debian's systemd package)")
                return
            }
            let verify = try await ToolProcess.run(
                URL(fileURLWithPath: "/usr/bin/systemd-analyze"),
                [
                    "verify", units.appendingPathComponent("ilotoki-serve.socket").path,
                    units.appendingPathComponent("ilotoki-serve.service").path,
                ],
                environment: ProcessInfo.processInfo.environment)
            #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stdout) \(verify.stderr)")

            // A free port, for systemd-socket-activate to listen on.
            let probe = try ListeningSocket.open(address: "127.0.0.1", port: 0)
            close(probe.descriptor)
            let tool = try ToolProcess(
                URL(fileURLWithPath: "/usr/bin/systemd-socket-activate"),
                [
                    "-l", "127.0.0.1:\(probe.port)", "-E", "ILOTOKI_HOME=\(home.path)", "-E", "NO_COLOR=1", ilotoki.path, "serve",
                    "--model", tiny, "--threads", "1",
                ],
                environment: environment)
            // systemd-socket-activate listens first; the server starts on the first connection and
            // answers 503 until its model is loaded.
            let listening = ContinuousClock.now + .seconds(60)
            while !Self.accepts(port: probe.port), ContinuousClock.now < listening { try await Task.sleep(for: .milliseconds(20)) }
            var health = try Answer.exchange(
                Data("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(probe.port)\r\nConnection: close\r\n\r\n".utf8), port: probe.port)
            let deadline = ContinuousClock.now + .seconds(60)
            while health.status == 503, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                health = try Answer.exchange(
                    Data("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(probe.port)\r\nConnection: close\r\n\r\n".utf8), port: probe.port)
            }
            #expect(health.status == 200)
            #expect(tool.stderrSoFar.contains("listening on http://127.0.0.1:\(probe.port)"), "\(tool.stderrSoFar)")
            tool.signal(SIGTERM)
            #expect(await tool.wait().status == 0)
        }

        @Test func sigtermAnswersTheRequestInFlightAndStops() async throws {
            let server = try await start()
            let long = String(repeating: "I love the cat that sleeps on the warm mat. ", count: 10)
            let body = "q=\(long.replacingOccurrences(of: " ", with: "+"))&source=en&target=tok"
            let inFlight = Task.detached { try server.request("POST", "/translate", body: body) }
            try await Task.sleep(for: .milliseconds(300))
            server.tool.signal(SIGTERM)
            let answer = try await inFlight.value
            #expect(answer.status == 200 || (answer.status == 503 && answer.error?.contains("stopping") == true), "\(answer.status)")
            let result = await server.tool.wait()
            #expect(result.status == 0)
            #expect(result.stderr.contains("stopped"))
        }
    }

#endif
