import Foundation
import IloTokiCore
import IloTokiDownloadLive
import IloTokiEngineLive
import IloTokiTestSupport
import Testing

/// The app model with the live seams: the real downloader against a server on 127.0.0.1
/// that serves the Gemma 3 270M file the way Hugging Face serves a model (the repository's
/// listing, a `resolve/` redirect to a CDN on another host name), and llama.cpp.
@MainActor
@Suite(.serialized, .exclusiveModelUse) struct EndToEndTests {
    @Test func downloadLoadAndTranslateWithTheRealEngine() async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: gemma)[.size] as? Int)
        let server = try TestHTTPServer()
        let name = "gemma-3-270m-q4_k_m.gguf"
        try server.serve("/cdn/\(name)", file: URL(fileURLWithPath: gemma))
        let sha256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
        let listing = #"{"id": "test/gemma", "sha": "abc", "siblings": [{"rfilename": "README.md"}, {"rfilename": "\#(name)"}]}"#
        server.serve("/api/models/test/gemma/revision/main", data: Data(listing.utf8), contentType: "application/json")
        server.redirect("/test/gemma/resolve/main/\(name)", to: "/cdn/\(name)", linkedEtag: sha256, linkedSize: size, host: "localhost")
        // A cut part way, to go through a resume as well.
        server.cut("/cdn/\(name)", atOffsets: [size / 3])

        // A catalog entry that names the repository: the file, its size and sha256 come from it.
        let entry = CatalogEntry(
            id: "gemma-test", displayName: "Gemma 3 270M", quantization: "Q4_K_M",
            source: .hub(repository: "test/gemma", revision: "main", approximateBytes: 250_000_000),
            format: .sourceTarget, deprecated: false, sha256: nil)
        let home = TemporaryDirectory("end-to-end")
        let store = ModelStore(directories: AppDirectories(home: home.url), catalog: ModelCatalog(entries: [entry]))
        var configuration = ModelDownloader.Configuration()
        configuration.retryDelay = .milliseconds(10)
        let model = TranslatorModel(
            store: store, engineLoader: LiveEngineLoader(), downloader: ModelDownloader(configuration: configuration),
            access: HubAccess(mirror: server.baseURL.absoluteString, token: "hf_test"))

        await model.launch()
        #expect(model.modelState == .notDownloaded)
        #expect(model.slabAction == .download(entry))
        model.perform(.acceptLicence)
        #expect(model.perform(.pressSlab) == .done)
        #expect(
            await eventually(timeout: .seconds(60)) {
                if case .failed = model.modelState { return true }
                return model.modelState == .ready
            })
        #expect(model.modelState == .ready)
        #expect(store.recordedSHA256(for: entry) == sha256)
        #expect(server.requests.contains { $0.path.hasPrefix("/test/gemma/resolve/main/") })
        #expect(store.resolvedFile(for: entry)?.path == name)
        #expect(server.requests.filter { $0.path.hasPrefix("/cdn/") }.allSatisfy { $0.headers["authorization"] == nil })

        // On these prompts Gemma 270M echoes the source line into Toki Pona.
        model.perform(.setDirection(direction: .englishToTokiPona))
        model.perform(.setSourceText(text: "I love you"))
        model.perform(.translate)
        #expect(await eventually(timeout: .seconds(30)) { model.translationState != .translating })
        #expect(model.translationState == .done)
        #expect(model.targetText == "I love you")
        #expect(model.history.entries.first?.result == "I love you")
        #expect(model.history.entries.first?.modelID == "gemma-test")
        #expect((model.lastStats?.generatedTokens ?? 0) > 0)
    }
}
