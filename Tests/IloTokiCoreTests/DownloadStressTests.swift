import Foundation
import IloTokiCore
import IloTokiDownloadLive
import IloTokiTestSupport
import Testing

/// The downloader's transfers, many at once, against a server on 127.0.0.1 that cuts, stalls,
/// ignores ranges and answers at the wrong offset, with downloads paused in the middle and
/// resumed: every file ends right (sha256), and nothing crashes the process (the HTTP client
/// under the downloader drives its sockets with the platform's event loop, where a torn-down
/// source has crashed processes before). `ILOTOKI_STRESS_DOWNLOADS` sets how many transfers
/// (scripts/stress-swift-tests.sh runs 1,000; the suite's own run, 48).
@Suite struct DownloadStressTests {
    let directory = TemporaryDirectory("download-stress")

    /// Files of a few sizes, from under a chunk to several windows' worth of small windows.
    static let files: [Data] = [
        ModelDownloaderTests.payload(48 << 10, seed: 101), ModelDownloaderTests.payload(300 << 10, seed: 102),
        ModelDownloaderTests.payload(700 << 10, seed: 103), ModelDownloaderTests.payload(1 << 20, seed: 104),
    ]

    /// What goes wrong on the way for transfer `index` (one fault per response, in order).
    static func faults(_ index: Int, size: Int) -> [TestHTTPServer.Fault] {
        switch index % 6 {
        case 1: [.cutAfter(size / 3)]
        case 2: [.cutAfter(size / 4), .cutAfter(size / 8)]
        case 3: [.stallAfter(size / 2)]
        case 4: [.cutAfter(size / 5), .ignoreRange]
        case 5: [.cutAfter(size / 2), .wrongOffset(512)]
        default: []
        }
    }

    @Test func aThousandShortTransfersFromEightTasksWithCutsStallsAndPausesAllEndRight() async throws {
        let count = ProcessInfo.processInfo.environment["ILOTOKI_STRESS_DOWNLOADS"].flatMap(Int.init) ?? 48
        let server = try TestHTTPServer()
        defer { server.stop() }
        var configuration = ModelDownloader.Configuration()
        configuration.retryDelay = .milliseconds(2)
        configuration.maxRetryDelay = .milliseconds(20)
        // Small windows: each transfer takes several requests, as a model of 1.4 GB does.
        configuration.windowBytes = 256 << 10
        configuration.idleTimeout = 1.5 * Double(testTimeScale)
        let downloader = ModelDownloader(configuration: configuration)
        for index in 0..<count {
            let data = Self.files[index % Self.files.count]
            server.serve("/t\(index)", data: data)
            server.addFaults(Self.faults(index, size: data.count), for: "/t\(index)")
        }

        let next = ToolProcessStressTests.Counter()
        let wrong = ToolProcessStressTests.Counter()
        let paused = ToolProcessStressTests.Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { [directory] in
                    while true {
                        let index = next.take()
                        guard index < count else { return }
                        let data = Self.files[index % Self.files.count]
                        let request = DownloadRequest(
                            url: server.url("/t\(index)"), destination: directory.file("t\(index).gguf"), expectedBytes: Int64(data.count),
                            expectedSHA256: index % 2 == 0 ? SHA256.hex(of: data) : nil)
                        // Every fourth is paused after a moment (before it starts, in the middle
                        // or after it ended), then started again to its end.
                        if index % 4 == 1 {
                            let download = downloader.start(request)
                            let pause = Task {
                                try? await Task.sleep(for: .microseconds(index % 13 * 700))
                                download.pause()
                            }
                            var installed = false
                            do {
                                for try await event in download.events {
                                    if case .installed = event { installed = true }
                                    if case .paused = event { _ = paused.take() }
                                }
                            } catch is CancellationError {
                                _ = paused.take()
                            }
                            await pause.value
                            if installed {
                                if try SHA256.hash(fileAt: request.destination) != SHA256.hex(of: data) { _ = wrong.take() }
                                continue
                            }
                        }
                        let file = try await downloader.download(request)
                        let onDisk = try SHA256.hash(fileAt: request.destination)
                        if file.sha256 != SHA256.hex(of: data) || onDisk != SHA256.hex(of: data) {
                            Issue.record("transfer \(index) installed a wrong file")
                            _ = wrong.take()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(wrong.value == 0)
        // The pauses happened (some at least; a fast transfer may end before its pause).
        #expect(paused.value > 0)
    }
}
