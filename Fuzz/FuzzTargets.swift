// libFuzzer targets over Core's readers of outside input, compiled into the IloTokiCore module
// itself (so they reach its internal parsers) by scripts/fuzz.sh with `-sanitize=fuzzer,address`.
// ILOTOKI_FUZZ_TARGET names the target; each must return normally for any bytes: a crash, a
// leak or an abort is a finding.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The targets, by name (scripts/fuzz.sh --list prints them with the C++ ones).
enum FuzzTargets {
    static let all: [String: (Data) -> Void] = [
        "history": history,
        "settings": settings,
        "added-models": addedModels,
        "catalog": catalog,
        "download-response": downloadResponse,
        "segmenter": segmenter,
        "direction": direction,
        "request": request,
    ]

    /// A directory of this process's own for the files the readers read.
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ilotoki-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Writes `data` as the file `name` in a clean directory, and returns the directory.
    static func fresh(_ name: String, _ data: Data) -> URL {
        let home = directory.appendingPathComponent("home")
        try? FileManager.default.removeItem(at: home)
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        guard (try? data.write(to: home.appendingPathComponent(name))) != nil else { abort() }
        return home
    }

    /// The history file as another process or an old version may have left it: the reader
    /// keeps what it can, and a file it cannot read is set aside, never lost.
    static func history(_ data: Data) {
        let home = fresh("history.json", data)
        let (history, problem) = HistoryStore(url: home.appendingPathComponent("history.json")).load()
        if problem != nil, !FileManager.default.fileExists(atPath: home.path) { abort() }
        _ = history.entries.count
    }

    static func settings(_ data: Data) {
        let home = fresh("settings.json", data)
        let (settings, _) = SettingsStore(url: home.appendingPathComponent("settings.json")).load()
        _ = settings.theme
    }

    /// The list of model files added from elsewhere, read as the store reads it.
    static func addedModels(_ data: Data) {
        let directories = AppDirectories(home: fresh("sideloaded.json", data))
        let store = ModelStore(directories: directories, catalog: .standard)
        for model in store.sideloadedModels() { _ = model.url.path }
    }

    /// An `ILOTOKI_CATALOG` file: a catalog, or an error that names the file.
    static func catalog(_ data: Data) {
        let home = fresh("catalog.json", data)
        do {
            let catalog = try ModelCatalog.load(from: home.appendingPathComponent("catalog.json"))
            _ = catalog.defaultEntry
        } catch {
            if error.localizedDescription.isEmpty { abort() }
        }
    }

    /// A response as the server sent it: a status line, then header lines. The status line
    /// itself is parsed by Foundation (libcurl); the status code, the headers and what the
    /// downloader decides from them are ours.
    static func downloadResponse(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .init(charactersIn: "\r"))
        }
        guard !lines.isEmpty else { return }
        let statusLine = lines.removeFirst().split(separator: " ")
        let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 200 : 200
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard (100...999).contains(status),
            let url = URL(string: "http://127.0.0.1/model.gguf"),
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else { return }
        let info = HTTPAttempt.responseInfo(of: response, linkedEtag: "abc", linkedSize: 100)
        for (offset, sentRange) in [(Int64(0), false), (50, true), (100, true)] {
            let stored = PartMetadata(etag: "\"e\"", linkedEtag: "abc", total: 100)
            switch ResumeDecision.decide(info, offset: offset, sentRange: sentRange, stored: stored, expectedTotal: 100) {
            case .write(let start):
                // Bytes are only ever added where the file ends, or written from the start.
                if start != 0, start != offset { abort() }
            case .drop:
                break
            }
        }
    }

    /// Any text, any length: the plan splits lines, sentences and words, but never drops or
    /// reorders anything that is not white space.
    static func segmenter(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        let limit = Int(data.first ?? 0) + 1
        let plan = TranslationPlan(text) { $0.utf8.count <= limit * 8 }
        func visible(_ text: String) -> [Unicode.Scalar] {
            text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }
        }
        if visible(plan.chunks.joined()) != visible(text) { abort() }
        _ = plan.assemble(plan.chunks)
        _ = TranslationPrompt.prepare(text)
    }

    /// The direction detector over any text, from each direction used last.
    static func direction(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        for last in TranslationDirection.all {
            _ = try? LanguageDetector.direction(for: text, last: last)
        }
        _ = LanguageDetector.verdict(for: text)
    }
}

extension FuzzTargets {
    /// A request body of `ilotoki serve` (its first byte picks the declared type: JSON, a form,
    /// none, multipart, another), and the same bytes as HTML to translate: decoding answers or
    /// throws `APIError` and never traps, and HTML split into markup and text joins back to
    /// exactly what it was.
    static func request(_ data: Data) {
        let types = ["application/json", "application/x-www-form-urlencoded", nil, "multipart/form-data; boundary=x", "text/html"]
        let type = types[Int(data.first ?? 0) % types.count]
        let body = data.dropFirst()
        do {
            _ = try RequestFields.decode(body: Data(body), contentType: type, query: ["api_key": "k"])
        } catch is APIError {
        } catch {
            abort()
        }
        let html = String(decoding: body, as: UTF8.self)
        let pieces = HTMLText.pieces(of: html)
        if pieces.map(\.raw).joined() != html { abort() }
        for piece in pieces where piece.isText { _ = piece.replacingText(with: piece.text) }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let name = ProcessInfo.processInfo.environment["ILOTOKI_FUZZ_TARGET"], let target = FuzzTargets.all[name] else {
        fputs("ILOTOKI_FUZZ_TARGET must name one of: \(FuzzTargets.all.keys.sorted().joined(separator: ", "))\n", stderr)
        exit(2)
    }
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    target(data)
    return 0
}
