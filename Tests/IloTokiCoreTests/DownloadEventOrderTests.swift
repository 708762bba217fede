import Foundation
import IloTokiCore
import IloTokiDownloadLive
import IloTokiTestSupport
import Testing

/// Every download, live or scripted, reports its events in the one order `DownloadEvent`
/// documents: `started`, then progress and stalls, then `paused`, a failure, or `verifying`
/// followed by `installed` or a failure.
@Suite struct DownloadEventOrderTests {
    let server: TestHTTPServer
    let directory = TemporaryDirectory("download-order")

    init() throws {
        server = try TestHTTPServer()
    }

    var destination: URL { directory.file("model.gguf") }

    func downloader(freeSpace: Int64? = nil) -> ModelDownloader {
        var configuration = ModelDownloader.Configuration()
        configuration.retryDelay = .milliseconds(5)
        configuration.maxRetryDelay = .milliseconds(50)
        configuration.idleTimeout = 5
        if let freeSpace { configuration.freeSpace = { _ in freeSpace } }
        return ModelDownloader(configuration: configuration)
    }

    /// Reads a download to its end, checking every event against the order; returns what came.
    @discardableResult
    func checkOrder(_ download: ModelDownload, pauseWhen: ((DownloadEvent) -> Bool)? = nil) async -> (
        events: [DownloadEvent], error: Error?
    ) {
        var order = DownloadEventOrder()
        var failure: Error?
        do {
            for try await event in download.events {
                #expect(throws: Never.self) { try order.accept(event) }
                if pauseWhen?(event) == true { download.pause() }
            }
        } catch {
            failure = error
        }
        #expect(throws: Never.self) { try order.end(failure: failure) }
        return (order.events, failure)
    }

    // MARK: - The order itself

    @Test func theOrderRefusesWhatTheGrammarDoesNot() throws {
        let progress = DownloadProgress(bytes: 1, total: 2, bytesPerSecond: 0)
        let installed = InstalledFile(url: URL(fileURLWithPath: "/x"), bytes: 2, sha256: "")
        var good = DownloadEventOrder()
        for event in [
            DownloadEvent.started(offset: 0, total: 2), .progress(progress), .stalled(attempt: 1, reason: "x"),
            .progress(progress), .verifying(sha256Known: true), .installed(installed),
        ] {
            try good.accept(event)
        }
        try good.end(failure: nil)

        var lateProgress = DownloadEventOrder()
        try lateProgress.accept(.started(offset: 0, total: 2))
        try lateProgress.accept(.verifying(sha256Known: true))
        #expect(throws: DownloadEventOrder.Violation.self) { try lateProgress.accept(.progress(progress)) }

        var noStart = DownloadEventOrder()
        #expect(throws: DownloadEventOrder.Violation.self) { try noStart.accept(.progress(progress)) }

        var twoStarts = DownloadEventOrder()
        try twoStarts.accept(.started(offset: 0, total: 2))
        #expect(throws: DownloadEventOrder.Violation.self) { try twoStarts.accept(.started(offset: 1, total: 2)) }

        var afterPause = DownloadEventOrder()
        try afterPause.accept(.started(offset: 0, total: 2))
        try afterPause.accept(.paused(progress))
        #expect(throws: DownloadEventOrder.Violation.self) { try afterPause.accept(.progress(progress)) }

        var unfinished = DownloadEventOrder()
        try unfinished.accept(.started(offset: 0, total: 2))
        #expect(throws: DownloadEventOrder.Violation.self) { try unfinished.end(failure: nil) }

        var failedAtOnce = DownloadEventOrder()
        try failedAtOnce.end(failure: CancellationError())
    }

    // MARK: - The live downloader

    /// Twenty quick downloads: the progress ticker used to report once more after `verifying`.
    @Test func noProgressEverFollowsVerifying() async throws {
        let data = Data(repeating: 0x5A, count: 3 << 20)
        server.serve("/m.gguf", data: data)
        for round in 0..<20 {
            let target = directory.file("m\(round).gguf")
            let request = DownloadRequest(
                url: server.url("/m.gguf"), destination: target, expectedBytes: Int64(data.count), expectedSHA256: SHA256.hex(of: data))
            let (events, error) = await checkOrder(downloader().start(request))
            #expect(error == nil)
            if case .installed = events.last {} else { Issue.record("round \(round) ended with \(String(describing: events.last))") }
        }
    }

    @Test func aDownloadOfUnknownSizeKeepsTheOrder() async throws {
        let data = Data(repeating: 0x33, count: 5 << 20)
        server.serve("/unknown.gguf", data: data)
        let request = DownloadRequest(url: server.url("/unknown.gguf"), destination: destination)
        let (events, error) = await checkOrder(downloader().start(request))
        #expect(error == nil)
        #expect(events.first == .started(offset: 0, total: nil))
        #expect(events.contains(.verifying(sha256Known: false)))
    }

    @Test func stallsAndRetriesKeepTheOrder() async throws {
        let data = Data(repeating: 0x44, count: 4 << 20)
        server.serve("/cut.gguf", data: data)
        server.cut("/cut.gguf", atOffsets: [1 << 20, 3 << 20])
        let request = DownloadRequest(url: server.url("/cut.gguf"), destination: destination, expectedBytes: Int64(data.count))
        let (events, error) = await checkOrder(downloader().start(request))
        #expect(error == nil)
        #expect(events.contains { if case .stalled = $0 { true } else { false } })
    }

    @Test func aPauseKeepsTheOrder() async throws {
        let data = Data(repeating: 0x45, count: 8 << 20)
        server.serve("/slow.gguf", data: data)
        server.addFaults([.stallAfter(1 << 20)], for: "/slow.gguf")
        let request = DownloadRequest(url: server.url("/slow.gguf"), destination: destination, expectedBytes: Int64(data.count))
        let (events, error) = await checkOrder(downloader().start(request)) { event in
            if case .progress(let progress) = event { progress.bytes >= 1 << 20 } else { false }
        }
        #expect(error == nil)
        if case .paused = events.last {} else { Issue.record("ended with \(String(describing: events.last))") }
    }

    @Test func failuresKeepTheOrder() async throws {
        // Refused before it starts.
        let tooBig = DownloadRequest(url: server.url("/none.gguf"), destination: destination, expectedBytes: 1 << 30)
        let refused = await checkOrder(downloader(freeSpace: 1 << 20).start(tooBig))
        #expect(refused.error != nil && refused.events.isEmpty)
        // Fails while transferring.
        let missing = DownloadRequest(url: server.url("/none.gguf"), destination: destination, expectedBytes: 10)
        let notFound = await checkOrder(downloader().start(missing))
        #expect(notFound.error != nil)
        // Fails while verifying.
        let data = Data(repeating: 0x46, count: 1 << 20)
        server.serve("/wrong.gguf", data: data)
        let wrong = DownloadRequest(
            url: server.url("/wrong.gguf"), destination: destination, expectedBytes: Int64(data.count),
            expectedSHA256: String(repeating: "0", count: 64))
        let mismatch = await checkOrder(downloader().start(wrong))
        #expect(mismatch.error != nil)
        #expect(mismatch.events.last == .verifying(sha256Known: true))
    }

    // MARK: - The scripted downloader

    @Test func theScriptedDownloaderKeepsTheSameOrder() async throws {
        let scripted = ScriptedDownloader()
        let request = DownloadRequest(url: URL(string: "https://example.invalid/m.gguf")!, destination: destination, expectedBytes: 4)

        let installed = scripted.start(request)
        scripted.progress(bytes: 2)
        scripted.stall()
        scripted.progress(bytes: 4)
        try scripted.install()
        #expect(await checkOrder(installed).error == nil)

        let paused = scripted.start(request)
        scripted.progress(bytes: 1)
        paused.pause()
        #expect(await checkOrder(paused).events.last == .paused(DownloadProgress(bytes: 1, total: 4, bytesPerSecond: 0)))

        let failed = scripted.start(request)
        scripted.fail(DownloadError.notFound(url: "https://example.invalid/m.gguf"))
        #expect(await checkOrder(failed).error != nil)

        let unknownSize = scripted.start(DownloadRequest(url: URL(string: "https://example.invalid/u.gguf")!, destination: destination))
        scripted.progress(bytes: 3)
        try scripted.install(contents: Data("GGU".utf8))
        let unknown = await checkOrder(unknownSize)
        #expect(unknown.events.first == .started(offset: 0, total: nil))
    }
}
