#if canImport(IloTokiServer)
    import Foundation
    import IloTokiCore
    import IloTokiEngineLive
    import IloTokiLocking
    import IloTokiServer

    /// `ilotoki serve`: LibreTranslate's HTTP API on this device, for the translator apps and
    /// tools that speak it (Dialect, libretranslatepy, browser add-ons).
    struct ServeCommand {
        static let spec = CommandSpec(
            path: ["serve"],
            summary: "Serve translations to apps that speak LibreTranslate's API, on this device only.",
            operands: "",
            operandCount: 0...0,
            options: [
                OptionSpec(
                    "--host", .required("ADDRESS"),
                    help: "Listen on this address (default: 127.0.0.1 and ::1, this device only). Another address needs --api-key-file."),
                OptionSpec(
                    "--port", short: "p", .required("PORT"), help: "The port (default 5000; 0: any free one, said on standard error)."),
                OptionSpec("--model", short: "m", .required("ID|PATH"), help: "A model id (see `ilotoki models`) or a GGUF file."),
                OptionSpec("--format", .required("FORMAT"), help: PromptFormat.optionHelp),
                OptionSpec("--api-key-file", .required("FILE"), help: "Every request must carry the key this file holds (api_key)."),
                OptionSpec("--char-limit", .required("N"), help: "Characters one request may carry (default 100000; -1: no limit)."),
                OptionSpec("--cors", .required("ORIGIN"), help: "Let web pages of this one origin call the server (default: none may)."),
                OptionSpec(
                    "--keep-history", help: "Keep served translations in the history (default: served text is never written to disk)."),
                OptionSpec("--queue", .required("N"), help: "Texts that may wait to be translated; more are answered 429 (default 1024)."),
                OptionSpec(
                    "--request-timeout", .required("SECONDS"),
                    help: "A request must arrive whole within this time, or its connection is closed (default 30)."),
                OptionSpec("--threads", .required("N"), help: "Decoding threads (default: the performance cores)."),
                OptionSpec("--batch", .required("N"), help: "Texts decoded together (default: what fits in memory)."),
            ],
            details: """
                Listens on 127.0.0.1 and ::1 (localhost) only, unless --host names another address, which
                needs an API key file. Requests whose Host header is not this server's own address, and
                requests from web pages (an Origin header) other than the one --cors names, are refused.
                The routes: POST /translate, /detect, /suggest; GET /languages, /frontend/settings.
                Toki Pona is on one side of every translation: en, ru and vi go into tok and tok into each.
                Served text is not written to the history unless --keep-history, and never to a log.
                SIGTERM or Ctrl-C stops the server: requests in flight are answered first (at most 10 s).
                With systemd's socket activation (LISTEN_FDS) the sockets it hands over are served.
                """
        )

        let context: CommandContext
        let arguments: ParsedArguments

        var console: Console { context.console }

        /// How long requests in flight have to finish once a stop is asked for.
        static let drainTime = Duration.seconds(10)

        @MainActor
        func run() async throws -> Int32 {
            let port =
                try arguments.value("--port").map { value -> Int in
                    guard let port = Int(value), (0...65535).contains(port) else {
                        throw UsageError(message: "--port needs a port number (0 to 65535), not '\(value)'.", command: "serve")
                    }
                    return port
                } ?? 5000
            let charLimit =
                try arguments.value("--char-limit").map { value -> Int in
                    guard let limit = Int(value), limit >= -1, limit != 0 else {
                        throw UsageError(message: "--char-limit needs a positive number or -1, not '\(value)'.", command: "serve")
                    }
                    return limit
                } ?? 100_000
            let queue = try positive("--queue") ?? 1024
            let requestSeconds = try positive("--request-timeout") ?? 30
            let threads = try positive("--threads")
            let batch = try positive("--batch")
            let format = try TranslateCommand.format(arguments.value("--format"), command: "serve")
            let host = arguments.value("--host")
            let loopback = host.map(Self.isLoopback) ?? true
            let apiKey = try arguments.value("--api-key-file").map(Self.readKey)
            if !loopback, apiKey == nil {
                throw UsageError(
                    message:
                        "--host \(host ?? "") lets other devices reach the server: give it --api-key-file too, so only those with the key can use it.",
                    command: "serve")
            }

            // The sockets first: a port in use is said at once, before the model loads.
            var sockets = ListeningSocket.fromSystemd(environment: context.environment)
            if sockets.isEmpty {
                do {
                    if let host {
                        sockets = [try ListeningSocket.open(address: host, port: port)]
                    } else {
                        let first = try ListeningSocket.open(address: "127.0.0.1", port: port)
                        sockets = [first]
                        // ::1 on the same port, where this device has IPv6 at all.
                        if let second = try? ListeningSocket.open(address: "::1", port: first.port) { sockets.append(second) }
                    }
                } catch {
                    for socket in sockets { close(socket.descriptor) }
                    throw CLIError(error.localizedDescription)
                }
            }
            let boundPort = sockets.first?.port ?? port
            let settings = ServeSettings(
                charLimit: charLimit, apiKey: apiKey, corsOrigin: arguments.value("--cors"),
                allowedHosts: sockets.contains { $0.port == 0 }
                    ? [] : ServeSettings.hosts(addresses: sockets.map(\.address), port: boundPort))

            let model = try context.prepareModel(
                keeping: [], engine: LiveEngineOptions(threads: threads, batch: batch.map { .fixed($0) } ?? .fitting),
                needsHome: arguments.value("--model").flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil } == nil,
                watchesMemoryPressure: true)
            let served = ServedTranslations(model: model, queueLimit: queue, keepsHistory: arguments.has("--keep-history"))
            let api = LibreTranslateAPI(settings: settings, translator: served)
            let inFlight = Locked(0)
            let limits = HTTPLimits(
                bodyBytes: max(1 << 20, charLimit < 0 ? 64 << 20 : min(64 << 20, charLimit * 8 + (64 << 10))),
                idleSeconds: min(15, requestSeconds), requestSeconds: requestSeconds)
            let server: HTTPServer
            do {
                server = try HTTPServer(
                    sockets: sockets, limits: limits,
                    tooLarge: LibreTranslateAPI.error(
                        APIError(413, "Invalid request: the body is larger than this server takes (\(limits.bodyBytes) bytes)"))
                ) { request in
                    inFlight.withLock { $0 += 1 }
                    defer { inFlight.withLock { $0 -= 1 } }
                    return await api.respond(to: request)
                }
            } catch {
                throw CLIError(error.localizedDescription)
            }
            let addresses = sockets.map {
                $0.port == 0 ? $0.address : "http://\($0.address.contains(":") ? "[\($0.address)]" : $0.address):\($0.port)"
            }
            console.err("ilotoki serve: listening on \(addresses.joined(separator: " and ")); loading the model…\n")

            let stop = StopSignal()
            return await Interrupts.shared.whileRunning(onInterrupt: { _ in stop.fire() }) {
                do {
                    try await TranslateCommand.load(model, named: arguments.value("--model"), format: format)
                } catch {
                    server.stop()
                    console.error(CLI.message(for: error))
                    return CLI.Status.failure
                }
                if !stop.fired {
                    console.err(
                        "ilotoki serve: \(model.loadedModel?.displayName ?? "the model") answers on \(addresses.joined(separator: " and ")) (Ctrl-C or SIGTERM stops it)\n"
                    )
                }
                await stop.wait()
                // Stop: no new connections; requests in flight have a moment to be answered, then
                // those still waiting are told the server is stopping.
                server.stopAccepting()
                let waiting = inFlight.withLock { $0 }
                if waiting > 0 {
                    console.err("ilotoki serve: stopping; answering \(waiting) request\(waiting == 1 ? "" : "s") in flight…\n")
                }
                let deadline = ContinuousClock.now + Self.drainTime
                while inFlight.withLock({ $0 }) > 0, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
                served.stopAll()
                await Task.detached { server.stop() }.value
                await model.close()
                console.err("ilotoki serve: stopped.\n")
                return CLI.Status.ok
            }
        }

        private func positive(_ option: String) throws -> Int? {
            try arguments.value(option).map { value -> Int in
                guard let count = Int(value), count > 0 else {
                    throw UsageError(message: "\(option) needs a positive number, not '\(value)'.", command: "serve")
                }
                return count
            }
        }

        static func isLoopback(_ address: String) -> Bool {
            address == "::1" || address.hasPrefix("127.") || address == "localhost"
        }

        /// The key in `path`: its first line, without surrounding white space.
        static func readKey(_ path: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read the API key file \(path).") }
            guard let text = String(validating: data, as: UTF8.self),
                let key = text.split(whereSeparator: \.isNewline).first?.trimmingCharacters(in: .whitespaces), !key.isEmpty
            else { throw CLIError("the API key file \(path) holds no key (one line of text).") }
            return key
        }
    }

    /// A stop asked for once (a signal), awaited by the server's run.
    final class StopSignal: @unchecked Sendable {
        private let state = Locked<(fired: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

        var fired: Bool { state.withLock { $0.fired } }

        func fire() {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.fired = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.fired { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

#endif
