import Foundation
import IloTokiLLM
import IloTokiTestSupport
import Testing

/// Loading bad files gives a clear error naming the file, and never crashes.
@Suite struct ModelLoadingTests {
    func loadError(_ path: String) -> EngineError? {
        do {
            _ = try Engine(path: path)
            return nil
        } catch let error as EngineError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    @Test func missingFile() {
        let path = "/nonexistent/dir/model.gguf"
        let error = loadError(path)
        #expect(error?.kind == .fileNotFound)
        #expect(error?.message.contains(path) == true)
    }

    @Test func directory() {
        let directory = TemporaryDirectory()
        let error = loadError(directory.path)
        #expect(error?.kind == .notAFile)
        #expect(error?.message.contains(directory.path) == true)
        #expect(error?.message.contains("directory") == true)
    }

    @Test func emptyFile() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("empty.gguf")
        try Data().write(to: file)
        let error = loadError(file.path)
        #expect(error?.kind == .notGGUF)
        #expect(error?.message.contains(file.path) == true)
        #expect(error?.message.contains("empty") == true)
    }

    @Test func fileThatIsNotGGUF() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("page.gguf")
        try Data("<html><body>404 Not Found</body></html>".utf8).write(to: file)
        let error = loadError(file.path)
        #expect(error?.kind == .notGGUF)
        #expect(error?.message.contains(file.path) == true)
        #expect(error?.isBadModelFile == true)
    }

    @Test(arguments: [64, 4096, 2_000_000, 120_000_000])
    func truncatedCopyOfARealModel(keptBytes: Int) throws {
        let source = try TestModels.require(TestModels.gemma)
        let directory = TemporaryDirectory()
        let file = directory.file("truncated.gguf")
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: source))
        let head = try handle.read(upToCount: keptBytes) ?? Data()
        try handle.close()
        try head.write(to: file)
        let error = loadError(file.path)
        #expect(error?.kind == .corruptModel)
        #expect(error?.message.contains(file.path) == true)
        #expect(error?.isBadModelFile == true)
    }

    @Test func unknownArchitecture() throws {
        let path = try TestModels.require(TestModels.unknownArchitecture)
        let error = loadError(path)
        #expect(error?.kind == .unsupportedModel)
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("ilotoki-unknown-architecture") == true)
    }

    @Test func tinyModelLoads() throws {
        let engine = try Engine(path: try TestModels.require(TestModels.tiny))
        #expect(engine.info.architecture == "llama")
        #expect(engine.info.contextLength == 2048)
        #expect(engine.info.vocabularySize == 32000)
        #expect(engine.info.threads == PerformanceCores.count)
    }

    @Test func asyncLoadReportsErrorsToo() async {
        await #expect(throws: EngineError.self) {
            _ = try await Engine.load(path: "/nonexistent/model.gguf")
        }
    }
}
