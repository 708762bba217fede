import Foundation
import IloTokiTestSupport
import Testing

@testable import IloTokiCore
@testable import IloTokiDownloadLive

/// A catalog entry that names a Hub repository, downloaded from a real server on 127.0.0.1
/// that answers like the Hub: the repository's listing under `/api/models/`, a `HEAD` of the
/// file's `resolve/` URL that redirects with `X-Linked-Size` and `X-Linked-Etag`, and the file
/// on a "CDN" reached by another host name (`localhost`).
@Suite struct HubDownloadTests {
    static let repository = "NetherQuartz/ilo-toki-1.3-MiLMMT-46-1b-merged"
    static let entry = CatalogEntry(
        id: "hub-model", displayName: "ilo-toki-1.3-MiLMMT-46-1b", quantization: "Q8_0",
        source: .hub(repository: repository, revision: "main", approximateBytes: 1_390_169_824), format: .sourceTarget,
        deprecated: false, sha256: nil)

    let server: TestHTTPServer
    let home = TemporaryDirectory("hub")
    let store: ModelStore

    init() throws {
        server = try TestHTTPServer()
        store = ModelStore(directories: AppDirectories(home: home.url), catalog: ModelCatalog(entries: [Self.entry]))
    }

    var access: HubAccess { HubAccess(mirror: server.baseURL.absoluteString, token: "hf_secret") }

    func downloader() -> ModelDownloader {
        var configuration = ModelDownloader.Configuration()
        configuration.retryDelay = .milliseconds(5)
        configuration.maxRetryDelay = .milliseconds(50)
        configuration.idleTimeout = 5
        return ModelDownloader(configuration: configuration)
    }

    /// Publishes `files` (name → bytes) in the repository: the listing, each file's `resolve/`
    /// redirect carrying its size and sha256, and the file itself on the CDN.
    func publish(_ files: [String: Data], commit: String = "c0ffee") {
        let siblings = (files.keys.sorted() + [".gitattributes", "README.md", "model.safetensors"]).map { ["rfilename": $0] }
        let listing = try! JSONSerialization.data(withJSONObject: ["id": Self.repository, "sha": commit, "siblings": siblings])
        server.serve("/api/models/\(Self.repository)/revision/main", data: listing, contentType: "application/json")
        for (name, data) in files {
            server.serve("/cdn/\(commit)/\(name)", data: data, etag: "\"cdn-\(data.count)\"")
            server.redirect(
                "/\(Self.repository)/resolve/main/\(name)", to: "/cdn/\(commit)/\(name)", linkedEtag: SHA256.hex(of: data),
                linkedSize: data.count, host: "localhost")
        }
    }

    func run(_ download: ModelDownload) async -> (events: [DownloadEvent], error: Error?) { await ModelDownloaderTests.run(download) }

    /// Starts the download of the published `m-Q8_0.gguf`, which stalls after 1 MiB, and pauses it there.
    func downloadAndPauseAfterOneMiB() async throws -> [DownloadEvent] {
        server.addFaults([.stallAfter(1 << 20)], for: "/cdn/c0ffee/m-Q8_0.gguf")
        let download = downloader().start(DownloadRequest(entry: Self.entry, store: store, access: access))
        let part = store.partURL(for: Self.entry)
        for _ in 0..<2000 where ((try? FileManager.default.attributesOfItem(atPath: part.path)[.size] as? Int) ?? 0) < 1 << 20 {
            try await Task.sleep(for: .milliseconds(10))
        }
        download.pause()
        return await run(download).events
    }

    /// What is left in the models directory.
    var modelFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store.directories.models.path)) ?? []).sorted()
    }

    @Test func theFileOfTheQuantizationIsFoundSizedAndVerified() async throws {
        let model = ModelDownloaderTests.payload(3 << 20, seed: 3)
        publish(["ilo-toki-1.3-MiLMMT-46-1b-Q8_0.gguf": model, "ilo-toki-1.3-MiLMMT-46-1b-Q4_K_M.gguf": Data(count: 1000)])
        #expect(store.expectedBytes(for: Self.entry) == nil)

        let installed = try await downloader().download(DownloadRequest(entry: Self.entry, store: store, access: access))
        #expect(installed.sha256 == SHA256.hex(of: model))
        #expect(installed.url == store.fileURL(for: Self.entry))
        #expect(store.state(of: Self.entry) == .installed)
        #expect(store.expectedBytes(for: Self.entry) == Int64(model.count))
        let resolved = try #require(store.resolvedFile(for: Self.entry))
        #expect(resolved.path == "ilo-toki-1.3-MiLMMT-46-1b-Q8_0.gguf" && resolved.sha256 == SHA256.hex(of: model))
        #expect(resolved.commit == "c0ffee")
        #expect(
            modelFiles == [
                "ilo-toki-1.3-MiLMMT-46-1b-Q8_0.gguf", "ilo-toki-1.3-MiLMMT-46-1b-Q8_0.gguf.sha256",
                "ilo-toki-1.3-MiLMMT-46-1b-Q8_0.gguf.source",
            ])

        // The listing and the file's HEAD first, then the file through the redirect.
        let paths = server.requests.map { "\($0.method) \($0.path)" }
        #expect(paths.first == "GET /api/models/\(Self.repository)/revision/main")
        #expect(paths.dropFirst().first == "HEAD /\(Self.repository)/resolve/main/ilo-toki-1.3-MiLMMT-46-1b-Q8_0.gguf")
        #expect(paths.contains("GET /cdn/c0ffee/ilo-toki-1.3-MiLMMT-46-1b-Q8_0.gguf"))
        #expect(!paths.contains { $0.contains("Q4_K_M") })
    }

    @Test func theTokenGoesToTheEndpointAndNeverToTheCDN() async throws {
        let model = ModelDownloaderTests.payload(1 << 20, seed: 4)
        publish(["m-Q8_0.gguf": model])
        _ = try await downloader().download(DownloadRequest(entry: Self.entry, store: store, access: access))
        let endpoint = server.requests.filter { !$0.path.hasPrefix("/cdn/") }
        let cdn = server.requests.filter { $0.path.hasPrefix("/cdn/") }
        #expect(endpoint.count >= 3 && !cdn.isEmpty)
        #expect(endpoint.allSatisfy { $0.headers["authorization"] == "Bearer hf_secret" })
        #expect(cdn.allSatisfy { $0.headers["authorization"] == nil }, "\(cdn.map(\.headers))")
        #expect(cdn.allSatisfy { $0.headers["host"]?.hasPrefix("localhost") == true })
    }

    @Test func aFileEntryCarriesTheTokenToItsOwnHostOnly() async throws {
        let data = ModelDownloaderTests.payload(1 << 20, seed: 5)
        server.serve("/cdn/file.gguf", data: data)
        server.redirect(
            "/o/r/resolve/main/file.gguf", to: "/cdn/file.gguf", linkedEtag: SHA256.hex(of: data), linkedSize: data.count, host: "localhost"
        )
        let entry = CatalogEntry(
            id: "file", displayName: "file", quantization: "Q8_0", url: URL(string: "https://huggingface.co/o/r/resolve/main/file.gguf")!,
            bytes: Int64(data.count), format: .sourceTarget, deprecated: false, sha256: nil)
        _ = try await downloader().download(DownloadRequest(entry: entry, store: store, access: access))
        #expect(
            server.requests.filter { $0.path == "/o/r/resolve/main/file.gguf" }.allSatisfy {
                $0.headers["authorization"] == "Bearer hf_secret"
            })
        #expect(server.requests.filter { $0.path == "/cdn/file.gguf" }.allSatisfy { $0.headers["authorization"] == nil })
    }

    @Test func withoutATokenNothingIsSent() async throws {
        publish(["m-Q8_0.gguf": ModelDownloaderTests.payload(1 << 16)])
        _ = try await downloader().download(
            DownloadRequest(entry: Self.entry, store: store, access: HubAccess(mirror: server.baseURL.absoluteString)))
        #expect(server.requests.allSatisfy { $0.headers["authorization"] == nil })
    }

    @Test func aRepositoryThatDoesNotExistSaysSoAndLeavesNothing() async throws {
        let (_, error) = await run(downloader().start(DownloadRequest(entry: Self.entry, store: store, access: access)))
        #expect(error as? DownloadError == .repositoryNotFound(repository: Self.repository, host: "127.0.0.1", tokenSent: true))
        let message = (error as? DownloadError)?.errorDescription ?? ""
        #expect(message.contains(Self.repository) && message.contains("HF_TOKEN"))
        #expect(modelFiles.isEmpty)
        #expect(store.state(of: Self.entry) == .notInstalled)
    }

    @Test func aListingWithoutTheQuantizationNamesWhatItHas() async throws {
        publish(["m-Q4_K_M.gguf": Data(count: 100), "m-F16.gguf": Data(count: 100)])
        let (_, error) = await run(downloader().start(DownloadRequest(entry: Self.entry, store: store, access: access)))
        guard case .hubListing(let repository, _, let problem)? = error as? DownloadError else {
            Issue.record("expected a listing error, got \(String(describing: error))")
            return
        }
        #expect(repository == Self.repository)
        #expect(problem.contains("no Q8_0 GGUF") && problem.contains("m-Q4_K_M.gguf") && problem.contains("m-F16.gguf"))
        #expect(modelFiles.isEmpty)
    }

    @Test func aListingThatIsAWebPageIsRefused() async throws {
        server.serve("/api/models/\(Self.repository)/revision/main", data: Data("<html>login</html>".utf8), contentType: "text/html")
        let (_, error) = await run(downloader().start(DownloadRequest(entry: Self.entry, store: store, access: access)))
        guard case .hubListing(_, _, let problem)? = error as? DownloadError else {
            Issue.record("expected a listing error, got \(String(describing: error))")
            return
        }
        #expect(problem.contains("web page"))
        #expect(modelFiles.isEmpty)
    }

    @Test func aListingThatChangesBetweenAttemptsDeletesThePartAndSaysWhy() async throws {
        let first = ModelDownloaderTests.payload(4 << 20, seed: 8)
        publish(["m-Q8_0.gguf": first])
        let events = try await downloadAndPauseAfterOneMiB()
        guard case .paused? = events.last else {
            Issue.record("expected a pause, got \(String(describing: events.last))")
            return
        }
        #expect(store.state(of: Self.entry) == .partial(bytes: 1 << 20))
        #expect(store.expectedBytes(for: Self.entry) == Int64(first.count), "the page knows the size from the first attempt")

        // Upstream publishes another file under the same name before the download resumes.
        publish(["m-Q8_0.gguf": ModelDownloaderTests.payload(5 << 20, seed: 9)], commit: "beef")
        let (_, error) = await run(downloader().start(DownloadRequest(entry: Self.entry, store: store, access: access)))
        guard case .listingChanged(let repository, let was, let now)? = error as? DownloadError else {
            Issue.record("expected listingChanged, got \(String(describing: error))")
            return
        }
        #expect(repository == Self.repository && was.contains("m-Q8_0.gguf (4.2 MB, sha256 ") && now.contains("(5.2 MB, sha256 "))
        #expect(modelFiles.isEmpty, "\(modelFiles)")

        // Started again, it gets the new file.
        let installed = try await downloader().download(DownloadRequest(entry: Self.entry, store: store, access: access))
        #expect(installed.bytes == 5 << 20)
    }

    @Test func aPausedDownloadOfTheSameFileResumes() async throws {
        let model = ModelDownloaderTests.payload(4 << 20, seed: 10)
        publish(["m-Q8_0.gguf": model])
        _ = try await downloadAndPauseAfterOneMiB()
        // The commit moved, the file did not: the bytes so far still count.
        publish(["m-Q8_0.gguf": model], commit: "d00d")
        let installed = try await downloader().download(DownloadRequest(entry: Self.entry, store: store, access: access))
        #expect(installed.sha256 == SHA256.hex(of: model))
        let resumed = server.requests.last { $0.path.hasPrefix("/cdn/d00d/") }
        #expect(resumed?.headers["range"]?.hasPrefix("bytes=\(1 << 20)-") == true)
    }

    @Test func aPinnedSHA256ThatTheHubContradictsStopsBeforeDownloading() async throws {
        publish(["m-Q8_0.gguf": ModelDownloaderTests.payload(1 << 16)])
        let pinned = CatalogEntry(
            id: "hub-model", displayName: Self.entry.displayName, quantization: "Q8_0", source: Self.entry.source, format: .sourceTarget,
            deprecated: false, sha256: String(repeating: "a", count: 64))
        let (_, error) = await run(downloader().start(DownloadRequest(entry: pinned, store: store, access: access)))
        guard case .hubListing(_, _, let problem)? = error as? DownloadError else {
            Issue.record("expected a listing error, got \(String(describing: error))")
            return
        }
        #expect(problem.contains("not the aaaa"))
        #expect(!server.requests.contains { $0.path.hasPrefix("/cdn/") })
        #expect(modelFiles.isEmpty)
    }

    @Test func deletingTheModelRemovesWhatTheHubSaidOfIt() async throws {
        publish(["m-Q8_0.gguf": ModelDownloaderTests.payload(1 << 16)])
        _ = try await downloader().download(DownloadRequest(entry: Self.entry, store: store, access: access))
        try store.delete(Self.entry)
        #expect(modelFiles.isEmpty)
        #expect(store.expectedBytes(for: Self.entry) == nil)
    }

    // MARK: - Choosing the file

    @Test(arguments: [
        (["a-Q8_0.gguf", "a-Q4_K_M.gguf"], "Q8_0", "a-Q8_0.gguf"),
        (["x.q8_0.gguf"], "Q8_0", "x.q8_0.gguf"),
        (["m-Q4_K_M.gguf", "m-Q4_K.gguf"], "Q4_K", "m-Q4_K.gguf"),
        (["gguf/m-Q8_0.gguf", "m-Q8_0.gguf"], "Q8_0", "m-Q8_0.gguf"),
        (["gguf/m-Q8_0.gguf"], "Q8_0", "gguf/m-Q8_0.gguf"),
        (["mmproj-m-Q8_0.gguf", "m-Q8_0.GGUF"], "Q8_0", "m-Q8_0.GGUF"),
    ])
    func theFileOfTheQuantizationIsChosen(files: [String], quantization: String, expected: String) throws {
        #expect(try HubResolver.choose(from: files, quantization: quantization, repository: "o/r") == expected)
    }

    @Test(arguments: [
        (["m-Q4_K_M.gguf"], "Q4_K", "no Q4_K GGUF"),
        (["m-Q8_0-00001-of-00002.gguf", "m-Q8_0-00002-of-00002.gguf"], "Q8_0", "split into parts"),
        (["model.safetensors"], "Q8_0", "no GGUF file at all"),
        (["a-Q8_0.gguf", "b-Q8_0.gguf"], "Q8_0", "several Q8_0 GGUF files (a-Q8_0.gguf, b-Q8_0.gguf)"),
        (["m-XQ8_0.gguf", "m-Q8_00.gguf"], "Q8_0", "no Q8_0 GGUF"),
    ])
    func aListingWithNoSingleFileSaysWhatItHas(files: [String], quantization: String, phrase: String) {
        #expect {
            try HubResolver.choose(from: files, quantization: quantization, repository: "o/r")
        } throws: { error in
            guard case .hubListing(_, _, let problem)? = error as? DownloadError else { return false }
            return problem.contains(phrase)
        }
    }

    // MARK: - The token and the mirror

    @Test func theTokenComesFromTheEnvironmentOrHuggingFaceHubsFile() throws {
        let directory = TemporaryDirectory("hf-home")
        try Data("hf_from_file\n".utf8).write(to: directory.file("token"))
        #expect(HubAccess.from(environment: ["HF_TOKEN": "hf_env", "HF_HOME": directory.url.path]).token == "hf_env")
        #expect(HubAccess.from(environment: ["HF_HOME": directory.url.path]).token == "hf_from_file")
        #expect(HubAccess.from(environment: ["HF_TOKEN_PATH": directory.file("token").path]).token == "hf_from_file")
        #expect(HubAccess.from(environment: ["HOME": directory.url.path]).token == nil)
        #expect(HubAccess.from(environment: ["HF_TOKEN": "  "]).token == nil)
        #expect(HubAccess.from(environment: ["HF_ENDPOINT": " http://mirror.example/ "]).endpoint.absoluteString == "http://mirror.example")
    }

    @Test func theTokenIsForTheEndpointsOwnOriginOnly() {
        let hub = HubAccess(token: "t")
        #expect(hub.authorization(for: URL(string: "https://huggingface.co/api/models/o/r")) == "Bearer t")
        #expect(hub.authorization(for: URL(string: "https://HuggingFace.co:443/o/r/resolve/main/f.gguf")) == "Bearer t")
        #expect(hub.authorization(for: URL(string: "https://cdn-lfs.huggingface.co/x")) == nil)
        #expect(hub.authorization(for: URL(string: "http://huggingface.co/x")) == nil)
        #expect(hub.authorization(for: URL(string: "https://huggingface.co:8443/x")) == nil)
        let mirror = HubAccess(mirror: "http://127.0.0.1:8080", token: "t")
        #expect(mirror.authorization(for: URL(string: "http://127.0.0.1:8080/o/r")) == "Bearer t")
        #expect(mirror.authorization(for: URL(string: "https://huggingface.co/o/r")) == nil)
        #expect(HubAccess().authorization(for: URL(string: "https://huggingface.co/o/r")) == nil)
    }

    @Test(arguments: ["owner/name", "NetherQuartz/ilo-toki-1.3-MiLMMT-46-1b-merged", "a_b/c.d"])
    func repositoryNames(name: String) {
        #expect(HubAccess.isRepositoryName(name))
    }

    @Test(arguments: ["owner", "a/b/c", "/name", "owner/", "../x", "o/.hidden", "o/a..b", "o/sp ace", "o/ü"])
    func notRepositoryNames(name: String) {
        #expect(!HubAccess.isRepositoryName(name))
    }
}
