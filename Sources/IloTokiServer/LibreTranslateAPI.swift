import Foundation
import IloTokiCore

/// How the server answers: its limits and who may use it.
public struct ServeSettings: Sendable, Equatable {
    /// Characters of text one request may carry (-1: no limit).
    public var charLimit: Int
    /// Texts one request's `q` may hold.
    public var batchLimit: Int
    /// The key every request but `/languages` and `/frontend/settings` must carry, if any.
    public var apiKey: String?
    /// The one web origin allowed to call the server from a page, if any.
    public var corsOrigin: String?
    /// `Host` header values accepted (lower case, with the port): the listening addresses,
    /// `localhost:PORT` and the loopback names. A web page reached through a name of its own
    /// (DNS rebinding) carries that name, and is refused.
    public var allowedHosts: Set<String>

    public init(
        charLimit: Int = 100_000, batchLimit: Int = 1_000, apiKey: String? = nil, corsOrigin: String? = nil, allowedHosts: Set<String> = []
    ) {
        self.charLimit = charLimit
        self.batchLimit = batchLimit
        self.apiKey = apiKey
        self.corsOrigin = corsOrigin
        self.allowedHosts = allowedHosts
    }

    /// The `Host` values a server on `addresses` and `port` answers to.
    public static func hosts(addresses: [String], port: Int) -> Set<String> {
        var names = Set(["localhost", "127.0.0.1", "[::1]", "localhost.localdomain", "ip6-localhost"])
        for address in addresses { names.insert(address.contains(":") ? "[\(address.lowercased())]" : address.lowercased()) }
        var hosts = Set(names.map { "\($0):\(port)" })
        if port == 80 { hosts.formUnion(names) }
        return hosts
    }
}

/// LibreTranslate's HTTP API over Core's translator: what Dialect, libretranslatepy,
/// browser add-ons and the rest call (docs/serve.md lists each route and answer).
public struct LibreTranslateAPI: Sendable {
    public let settings: ServeSettings
    public let translator: any ServedTranslating
    public let files: TranslatedFiles

    public init(settings: ServeSettings, translator: any ServedTranslating, files: TranslatedFiles = TranslatedFiles()) {
        self.settings = settings
        self.translator = translator
        self.files = files
    }

    /// The answer to one request. Never throws: every failure is an `{"error": …}` answer.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        var response: HTTPResponse
        do {
            try checkHost(request)
            try checkOrigin(request)
            response = try await route(request)
        } catch let error as APIError {
            response = Self.error(error)
        } catch is CancellationError {
            response = Self.error(APIError(503, "The server is stopping; try again", retryAfter: 5))
        } catch {
            response = Self.error(APIError(500, "Cannot translate text: \(error.localizedDescription)"))
        }
        if let origin = settings.corsOrigin, request.header("Origin") == origin {
            response.headers += [
                ("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
                ("Access-Control-Allow-Headers", "Authorization, Content-Type"), ("Access-Control-Allow-Methods", "GET, POST"),
            ]
        }
        return response
    }

    private func route(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = request.path.count > 1 && request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
        let method = request.method.uppercased()
        if method == "OPTIONS" {
            // A preflight: answered only for the origin --cors names (respond adds its headers).
            guard settings.corsOrigin != nil else { throw APIError(403, "Requests from web pages are not allowed by this server") }
            return HTTPResponse(status: 204)
        }
        switch (method, path) {
        case ("GET", "/languages"), ("POST", "/languages"): return Self.json(Self.languages)
        case ("GET", "/frontend/settings"): return Self.json(frontendSettings)
        case ("POST", "/translate"):
            let fields = try fields(of: request)
            try checkKey(fields)
            return try await translate(fields)
        case ("POST", "/detect"):
            let fields = try fields(of: request)
            try checkKey(fields)
            guard let q = fields.text("q"), !q.isEmpty else { throw APIError(400, "Invalid request: missing q parameter") }
            try checkLength(q.count)
            return Self.json([Self.detection(of: q)])
        case ("POST", "/suggest"):
            let fields = try fields(of: request)
            try checkKey(fields)
            throw APIError(403, "Suggestions are disabled on this server.")
        case ("GET", "/health"):
            guard await translator.isReady else { throw APIError(503, "The translation model is not ready yet", retryAfter: 5) }
            return Self.json(["status": "ok"])
        case ("POST", "/translate_file"):
            return try await translateFile(request)
        case ("GET", _) where path.hasPrefix("/download_file/"):
            let link = String(path.dropFirst("/download_file/".count))
            guard let file = files.file(named: link) else {
                throw APIError(404, "Not Found: no translated file \(link) (files are kept an hour)")
            }
            let type = file.name.lowercased().hasSuffix(".srt") ? "application/x-subrip; charset=utf-8" : "text/plain; charset=utf-8"
            let quoted = file.name.replacingOccurrences(of: "\"", with: "")
            return HTTPResponse(
                status: 200, headers: [("Content-Type", type), ("Content-Disposition", "attachment; filename=\"\(quoted)\"")],
                body: file.data)
        case (_, "/languages"), (_, "/frontend/settings"), (_, "/translate"), (_, "/detect"), (_, "/suggest"), (_, "/translate_file"):
            return Self.error(
                APIError(405, "The method \(method) is not allowed for \(path)"),
                headers: [("Allow", path == "/languages" ? "GET, POST" : path == "/frontend/settings" ? "GET" : "POST")])
        default:
            throw APIError(404, "Not Found: \(path)")
        }
    }

    // MARK: - Checks

    private func checkHost(_ request: HTTPRequest) throws {
        guard !settings.allowedHosts.isEmpty, let host = request.header("Host") else { return }
        guard settings.allowedHosts.contains(host.lowercased()) else {
            throw APIError(403, "This server answers only to its own address, not to \(host)")
        }
    }

    /// A request from a web page carries its origin: refused unless --cors names it, so a page
    /// the person visits cannot use their translator (even where it could not read the answer).
    private func checkOrigin(_ request: HTTPRequest) throws {
        guard let origin = request.header("Origin"), origin != settings.corsOrigin else { return }
        throw APIError(403, "Requests from web pages are not allowed by this server (origin \(origin))")
    }

    private func checkKey(_ fields: RequestFields) throws {
        guard let key = settings.apiKey else { return }
        guard let given = fields.text("api_key"), !given.isEmpty else {
            throw APIError(403, "Invalid API key: this server needs one (api_key)")
        }
        guard Self.sameInConstantTime(given, key) else { throw APIError(403, "Invalid API key") }
    }

    static func sameInConstantTime(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }

    private func checkLength(_ characters: Int) throws {
        guard settings.charLimit >= 0, characters > settings.charLimit else { return }
        throw APIError(400, "Invalid request: request (\(characters)) exceeds text limit (\(settings.charLimit))")
    }

    private func fields(of request: HTTPRequest) throws -> RequestFields {
        try RequestFields.decode(body: request.body, contentType: request.header("Content-Type"), query: request.query)
    }

    // MARK: - Files

    /// The files `/translate_file` takes: text line by line, subtitles cue by cue.
    static let fileFormats = [".txt", ".srt"]

    private func translateFile(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let parts = request.parts else { throw APIError(400, "Invalid request: a file is sent as multipart/form-data") }
        var fields = RequestFields()
        for part in parts where part.filename == nil {
            guard let text = String(validating: part.data, as: UTF8.self) else {
                throw APIError(400, "Invalid request: the body is not valid UTF-8 text")
            }
            if fields.values[part.name] == nil { fields.values[part.name] = .text(text) }
        }
        for (name, value) in request.query where fields.values[name] == nil { fields.values[name] = .text(value) }
        try checkKey(fields)
        guard let file = parts.first(where: { $0.name == "file" && $0.filename != nil }) else {
            throw APIError(400, "Invalid request: missing file parameter")
        }
        guard let sourceCode = fields.text("source"), !sourceCode.isEmpty else {
            throw APIError(400, "Invalid request: missing source parameter")
        }
        guard let targetCode = fields.text("target"), !targetCode.isEmpty else {
            throw APIError(400, "Invalid request: missing target parameter")
        }
        // Only the file's own name, never a path.
        let name = (file.filename ?? "").split(separator: "/").last.map(String.init)?.split(separator: "\\").last.map(String.init) ?? ""
        guard !name.isEmpty, !name.hasPrefix(".") else { throw APIError(400, "Invalid request: empty file") }
        let suffix = name.lowercased().split(separator: ".").last.map { ".\($0)" } ?? ""
        guard name.contains("."), Self.fileFormats.contains(suffix) else {
            throw APIError(400, "Invalid request: file format not supported")
        }
        guard let text = String(validating: file.data, as: UTF8.self) else {
            throw APIError(400, "Invalid request: the file is not UTF-8 text")
        }
        try checkLength(text.count)
        let translated: String
        if suffix == ".srt" {
            var subtitles: SubRip
            do { subtitles = try SubRip(parsing: text) } catch { throw APIError(400, "Invalid request: \(error.localizedDescription)") }
            let cues = subtitles.cues.map(\.text)
            // A cue is too short to tell its language: the file as a whole tells it.
            let source =
                sourceCode.lowercased() == "auto"
                ? Self.detection(of: cues.joined(separator: " "))["language"] as? String ?? "" : sourceCode
            guard !source.isEmpty else {
                throw APIError(400, "Cannot detect the language of the file: it is in a script none of tok, en, ru and vi is written in")
            }
            let answers = try await translateTexts(cues, source: source, target: targetCode, format: "text")
            for index in subtitles.cues.indices where !cues[index].isEmpty {
                subtitles.cues[index].lines = SubRip.lines(answers.texts[index], count: subtitles.cues[index].lines.count)
            }
            translated = subtitles.rendered()
        } else {
            // Line by line, blank lines kept; the file ends as it ended (with its last newline).
            let ending = String(text.reversed().prefix { $0.isNewline }.reversed())
            let lines = try await translateTexts([text], source: sourceCode, target: targetCode, format: "text").texts[0]
            translated = String(lines.reversed().drop { $0.isNewline }.reversed()) + ending
        }
        let link = files.store(Data(translated.utf8), name: name)
        let host = request.header("Host") ?? "localhost"
        return Self.json(["translatedFileUrl": "http://\(host)/download_file/\(link)"])
    }

    // MARK: - Translate

    private func translate(_ fields: RequestFields) async throws -> HTTPResponse {
        let texts: [String]
        let batch: Bool
        switch fields["q"] {
        case .text(let q) where !q.isEmpty:
            texts = [q]
            batch = false
        case .list(let q) where !q.isEmpty:
            texts = q
            batch = true
        case .other: throw APIError(400, "Invalid request: q must be a string or an array of strings")
        default: throw APIError(400, "Invalid request: missing q parameter")
        }
        guard let sourceCode = fields.text("source"), !sourceCode.isEmpty else {
            throw APIError(400, "Invalid request: missing source parameter")
        }
        guard let targetCode = fields.text("target"), !targetCode.isEmpty else {
            throw APIError(400, "Invalid request: missing target parameter")
        }
        if batch, texts.count > settings.batchLimit {
            throw APIError(400, "Invalid request: request (\(texts.count)) exceeds text limit (\(settings.batchLimit))")
        }
        try checkLength(texts.reduce(0) { $0 + $1.count })
        let format = fields.text("format").flatMap { $0.isEmpty ? nil : $0 } ?? "text"
        let (results, detections) = try await translateTexts(texts, source: sourceCode, target: targetCode, format: format)
        let auto = sourceCode.lowercased() == "auto"
        var body: [String: Any] = ["translatedText": batch ? results : results[0]]
        if auto {
            let detected = detections.map { ["language": $0.language.code, "confidence": $0.confidence] as [String: Any] }
            body["detectedLanguage"] = batch ? detected : detected[0]
        }
        if let count = fields.text("alternatives").flatMap(Int.init), count > 0 {
            // One answer per text: greedy decoding has no second best to offer.
            body["alternatives"] = batch ? texts.map { _ in [String]() } : [String]()
        }
        return Self.json(body)
    }

    /// Where a translated piece goes: a text of `q`, and in HTML one of its text nodes.
    private struct Place: Hashable {
        var text: Int
        var node = -1
    }

    /// Translates `texts` from `sourceCode` (or each detected, for "auto") into `targetCode`:
    /// the translations in order, and each text's language with the confidence.
    private func translateTexts(
        _ texts: [String], source sourceCode: String, target targetCode: String, format: String
    ) async throws -> (texts: [String], detections: [(language: Language, confidence: Double)]) {
        guard format == "text" || format == "html" else { throw APIError(400, "\(format) format is not supported") }
        guard let target = Language(code: targetCode.lowercased()) else { throw APIError(400, "\(targetCode) is not supported") }
        let auto = sourceCode.lowercased() == "auto"
        var detections: [(language: Language, confidence: Double)] = []
        if auto {
            detections = try texts.map { text in
                let found = Self.detection(of: text)
                guard let language = Language(code: found["language"] as? String ?? "") else {
                    throw APIError(
                        400,
                        "Cannot detect the language of \"\(text.prefix(40))\": it is in a script none of tok, en, ru and vi is written in")
                }
                return (language, found["confidence"] as? Double ?? 0)
            }
        } else {
            guard let source = Language(code: sourceCode.lowercased()) else { throw APIError(400, "\(sourceCode) is not supported") }
            detections = texts.map { _ in (source, 100) }
        }
        // Each text's direction; a text already in the target language is its own translation.
        var requests: [(place: Place, text: TextToTranslate)] = []
        var results = [String](repeating: "", count: texts.count)
        for (place, text) in texts.enumerated() {
            let source = detections[place].language
            if source == target || TranslationPrompt.prepare(text).isEmpty {
                results[place] = text
                continue
            }
            guard let direction = TranslationDirection(from: source, to: target) else {
                throw APIError(
                    400,
                    "\(target.promptName) (\(target.code)) is not available as a target language from \(source.promptName) (\(source.code))"
                )
            }
            if format == "html" {
                for (node, piece) in HTMLText.pieces(of: text).enumerated() where piece.isText {
                    requests.append((Place(text: place, node: node), TextToTranslate(piece.text, direction: direction)))
                }
            } else {
                requests.append((Place(text: place), TextToTranslate(text, direction: direction)))
            }
        }
        if !requests.isEmpty {
            let answers = try await translator.translate(requests.map(\.text))
            var translated: [Place: String] = [:]
            for (index, answer) in answers.enumerated() {
                switch answer {
                case .success(let text): translated[requests[index].place] = text
                case .failure(let error as APIError): throw error
                case .failure(let error as TranslationError): throw APIError(400, error.localizedDescription)
                case .failure(is CancellationError): throw CancellationError()
                case .failure(let error): throw APIError(500, "Cannot translate text: \(error.localizedDescription)")
                }
            }
            for place in texts.indices where translated.keys.contains(where: { $0.text == place }) {
                if format == "html" {
                    results[place] = HTMLText.pieces(of: texts[place]).enumerated().map { node, piece in
                        guard piece.isText, let text = translated[Place(text: place, node: node)] else { return piece.raw }
                        return piece.replacingText(with: text)
                    }.joined()
                } else {
                    results[place] = translated[Place(text: place)] ?? ""
                }
            }
        }
        return (results, detections)
    }

    // MARK: - Answers

    /// The language `text` is in, as LibreTranslate's `/detect` gives it (confidence 0–100).
    static func detection(of text: String) -> [String: Any] {
        switch LanguageDetector.verdict(for: TranslationPrompt.prepare(text)) {
        case .unsupportedScript: return ["language": "", "confidence": 0.0]
        case .undecided: return ["language": Language.english.code, "confidence": 10.0]
        case .language(let language):
            let tokiPona = LanguageDetector.tokiPonaConfidence(of: text)
            let confidence = language == .tokiPona ? tokiPona : (language == .english ? 1 - tokiPona : 1)
            return ["language": language.code, "confidence": (max(0, min(1, confidence)) * 1000).rounded() / 10]
        }
    }

    static var languages: [[String: Any]] {
        [Language.tokiPona, .english, .russian, .vietnamese].map { language in
            let targets = language == .tokiPona ? Language.others.map(\.code) : [Language.tokiPona.code]
            return ["code": language.code, "name": language.promptName, "targets": targets]
        }
    }

    private var frontendSettings: [String: Any] {
        [
            "charLimit": settings.charLimit, "frontendTimeout": 500, "apiKeys": settings.apiKey != nil,
            "keyRequired": settings.apiKey != nil, "suggestions": false, "filesTranslation": true, "supportedFilesFormat": Self.fileFormats,
            "language": [
                "source": ["code": "auto", "name": "Auto Detect"],
                "target": ["code": Language.tokiPona.code, "name": Language.tokiPona.promptName],
            ],
        ]
    }

    static func json(_ value: Any, status: Int = 200) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
    }

    public static func error(_ error: APIError, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        var response = json(["error": error.message], status: error.status)
        if let seconds = error.retryAfter { response.headers.append(("Retry-After", String(seconds))) }
        response.headers += headers
        return response
    }
}
