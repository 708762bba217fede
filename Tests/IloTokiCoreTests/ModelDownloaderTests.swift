import CSHA256
import Foundation
import IloTokiDownloadLive
import IloTokiTestSupport
import Testing

@testable import IloTokiCore

#if canImport(Glibc)
    import Glibc
#endif

/// The downloader against a real server on 127.0.0.1 that misbehaves on request.
@Suite struct ModelDownloaderTests {
    let server: TestHTTPServer
    let directory = TemporaryDirectory("download")

    init() throws {
        server = try TestHTTPServer()
    }

    /// Deterministic pseudo-random bytes, so every failure is reproducible.
    static func payload(_ count: Int, seed: UInt64 = 42) -> Data {
        var state = seed
        var data = Data(count: count)
        data.withUnsafeMutableBytes { buffer in
            let words = buffer.bindMemory(to: UInt64.self)
            for index in words.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                words[index] = state
            }
        }
        return data
    }

    /// The start of a `Range: bytes=START-END` header.
    static func rangeStart(_ header: String?) -> Int? {
        guard let header, header.hasPrefix("bytes="), let dash = header.firstIndex(of: "-") else { return nil }
        return Int(header[header.index(header.startIndex, offsetBy: 6)..<dash])
    }

    var destination: URL { directory.file("model.gguf") }
    var part: URL { directory.file("model.gguf.part") }

    func downloader(idleTimeout: TimeInterval = 5, freeSpace: Int64? = nil) -> ModelDownloader {
        var configuration = ModelDownloader.Configuration()
        configuration.retryDelay = .milliseconds(5)
        configuration.maxRetryDelay = .milliseconds(50)
        configuration.idleTimeout = idleTimeout
        if let freeSpace { configuration.freeSpace = { _ in freeSpace } }
        return ModelDownloader(configuration: configuration)
    }

    func request(_ path: String, size: Int?, sha256: String? = nil) -> DownloadRequest {
        DownloadRequest(url: server.url(path), destination: destination, expectedBytes: size.map(Int64.init), expectedSHA256: sha256)
    }

    func fileSHA256(_ url: URL) throws -> String { try SHA256.hash(fileAt: url) }

    static func size(of url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? -1
    }

    func run(_ download: ModelDownload) async -> (events: [DownloadEvent], error: Error?) { await Self.run(download) }

    /// Collects every event of a download; returns them and the error it ended with, if any.
    static func run(_ download: ModelDownload) async -> (events: [DownloadEvent], error: Error?) {
        var events: [DownloadEvent] = []
        do {
            for try await event in download.events { events.append(event) }
            return (events, nil)
        } catch {
            return (events, error)
        }
    }

    /// Waits until the `.part` file has at least `bytes` (`eventually`'s limit, scaled).
    func waitForPart(_ bytes: Int) async throws {
        let part = part
        if await !eventually({ Self.size(of: part) >= bytes }) { Issue.record("the .part file never reached \(bytes) bytes") }
    }

    // MARK: - Resuming

    @Test func twentyCutsAtRandomOffsetsResumeEveryTime() async throws {
        let data = Self.payload(50 << 20)
        let sha256 = SHA256.hex(of: data)
        server.serve("/cdn/model.gguf", data: data)
        var generator = SystemRandomNumberGenerator()
        let cuts = (0..<20).map { _ in Int.random(in: 1..<data.count, using: &generator) }
        server.cut("/cdn/model.gguf", atOffsets: cuts)

        let installed = try await downloader().download(request("/cdn/model.gguf", size: data.count))
        #expect(installed.sha256 == sha256)
        #expect(try fileSHA256(destination) == sha256)
        let responses = server.requests.filter { $0.path == "/cdn/model.gguf" }
        // Every request, the retries after the cuts included, was answered with a 206 …
        #expect(responses.allSatisfy { $0.status == 206 })
        // … and every cut was followed by a request that resumed exactly where it stopped.
        let starts = Set(responses.compactMap { Self.rangeStart($0.headers["range"]) })
        for cut in cuts { #expect(starts.contains(cut), "no request resumed at \(cut)") }
        // Resuming never quietly turned into starting over.
        #expect(Double(server.bodyBytesSent) <= 1.1 * Double(data.count))
        #expect(!FileManager.default.fileExists(atPath: part.path))
        #expect(try String(contentsOf: ModelStore.sha256RecordURL(for: destination), encoding: .utf8) == sha256 + "\n")
    }

    @Test func followsTheRedirectAndVerifiesWithTheLinkedEtag() async throws {
        let data = Self.payload(3 << 20, seed: 7)
        let sha256 = SHA256.hex(of: data)
        server.serve("/cdn/model.gguf", data: data, etag: "\"cdn-etag\"")
        server.redirect("/resolve/main/model.gguf", to: "/cdn/model.gguf", linkedEtag: sha256, linkedSize: data.count)
        server.addFaults([.cutAfter(1 << 20)], for: "/cdn/model.gguf")

        let installed = try await downloader().download(request("/resolve/main/model.gguf", size: data.count))
        #expect(installed.sha256 == sha256)
        let cdn = server.requests.filter { $0.path == "/cdn/model.gguf" }
        try #require(cdn.count == 2)
        // Every attempt goes through the redirect again (CDN links expire).
        #expect(server.requests.filter { $0.path == "/resolve/main/model.gguf" }.count == 2)
        #expect(cdn.allSatisfy { $0.headers["accept-encoding"] == "identity" })
        #expect(Self.rangeStart(cdn[1].headers["range"]) == 1 << 20)
        #expect(cdn[1].headers["if-range"] == "\"cdn-etag\"")
    }

    @Test func aServerThatIgnoresRangeStillGivesTheRightFile() async throws {
        let data = Self.payload(4 << 20, seed: 3)
        server.serve("/m.gguf", data: data)
        server.addFaults([.cutAfter(1 << 20)], for: "/m.gguf")
        server.setPersistentFault(.ignoreRange, for: "/m.gguf")

        let installed = try await downloader().download(request("/m.gguf", size: data.count))
        #expect(installed.sha256 == SHA256.hex(of: data))
        let requests = server.requests
        // Two ranged requests answered with 200 were dropped; then a plain request from zero.
        try #require(requests.count == 4)
        #expect(requests[1].headers["range"] != nil && requests[1].status == 200)
        #expect(requests[2].headers["range"] != nil && requests[2].status == 200)
        #expect(requests[3].headers["range"] == nil)
    }

    @Test func aPartialResponseAtTheWrongOffsetIsNeverAppended() async throws {
        let data = Self.payload(4 << 20, seed: 4)
        server.serve("/m.gguf", data: data)
        server.addFaults([.cutAfter(1 << 20), .wrongOffset(4096)], for: "/m.gguf")

        let installed = try await downloader().download(request("/m.gguf", size: data.count))
        #expect(installed.sha256 == SHA256.hex(of: data))
        let requests = server.requests
        try #require(requests.count == 3)
        // The bad 206 was dropped and the same range asked for again.
        #expect(Self.rangeStart(requests[1].headers["range"]) == 1 << 20)
        #expect(Self.rangeStart(requests[2].headers["range"]) == 1 << 20)
    }

    @Test func aFileThatChangesBetweenAttemptsStartsOverFromZero() async throws {
        let old = Self.payload(4 << 20, seed: 5)
        let new = Self.payload(4 << 20, seed: 6)
        server.serve("/m.gguf", data: old, etag: "\"v1\"")
        server.addFaults([.cutThen(after: 3 << 20) { [server] in server.serve("/m.gguf", data: new, etag: "\"v2\"") }], for: "/m.gguf")

        let installed = try await downloader().download(request("/m.gguf", size: new.count))
        // Never a mix of old and new bytes.
        #expect(installed.sha256 == SHA256.hex(of: new))
        #expect(try fileSHA256(destination) == SHA256.hex(of: new))
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[1].headers["if-range"] == "\"v1\"")
        #expect(requests[1].status == 200)
    }

    @Test func aChangedLinkedEtagOnTheRedirectRestartsWithoutRange() async throws {
        let old = Self.payload(2 << 20, seed: 8)
        let new = Self.payload(2 << 20, seed: 9)
        server.serve("/cdn/m.gguf", data: old, etag: "\"same\"")
        server.redirect("/resolve/m.gguf", to: "/cdn/m.gguf", linkedEtag: SHA256.hex(of: old), linkedSize: old.count)
        // At the cut, the model is replaced upstream (the CDN even keeps its ETag).
        server.addFaults(
            [
                .cutThen(after: 1 << 20) { [server] in
                    server.serve("/cdn/m.gguf", data: new, etag: "\"same\"")
                    server.redirect("/resolve/m.gguf", to: "/cdn/m.gguf", linkedEtag: SHA256.hex(of: new), linkedSize: new.count)
                }
            ], for: "/cdn/m.gguf")
        let (events, error) = await run(downloader().start(request("/resolve/m.gguf", size: old.count)))
        #expect(error == nil)
        #expect(events.last == .installed(InstalledFile(url: destination, bytes: Int64(new.count), sha256: SHA256.hex(of: new))))
    }

    // MARK: - Verification

    @Test func aWrongSHA256InstallsNothing() async throws {
        let data = Self.payload(1 << 20, seed: 10)
        server.serve("/cdn/m.gguf", data: data)
        server.redirect("/resolve/m.gguf", to: "/cdn/m.gguf", linkedEtag: String(repeating: "ab", count: 32), linkedSize: data.count)
        let (_, error) = await run(downloader().start(request("/resolve/m.gguf", size: data.count)))
        guard case .checksumMismatch(_, let expected, let actual)? = error as? DownloadError else {
            Issue.record("expected a checksum mismatch, got \(String(describing: error))")
            return
        }
        #expect(expected == String(repeating: "ab", count: 32))
        #expect(actual == SHA256.hex(of: data))
        #expect((error as? LocalizedError)?.errorDescription?.contains("corrupt") == true)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(!FileManager.default.fileExists(atPath: part.path))
    }

    @Test func aPinnedSHA256WinsOverTheServer() async throws {
        let data = Self.payload(1 << 20, seed: 11)
        server.serve("/m.gguf", data: data)
        let (_, error) = await run(downloader().start(request("/m.gguf", size: data.count, sha256: String(repeating: "0", count: 64))))
        #expect(error is DownloadError)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func aServerFileOfAnotherSizeThanExpectedIsRefused() async throws {
        let data = Self.payload(1 << 20, seed: 12)
        server.serve("/m.gguf", data: data)
        let (_, error) = await run(downloader().start(request("/m.gguf", size: data.count + 10)))
        #expect(
            error as? DownloadError
                == .unexpectedSize(url: server.url("/m.gguf").absoluteString, expected: Int64(data.count + 10), actual: Int64(data.count)))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(server.requests.count == 1)
    }

    @Test func aConnectionCutEvery64KiBStillDeliversTheFile() async throws {
        // Never give up while attempts keep moving bytes.
        let data = Self.payload(1 << 20, seed: 21)
        server.serve("/m.gguf", data: data)
        server.setPersistentFault(.cutAfter(64 << 10), for: "/m.gguf")
        let installed = try await downloader().download(request("/m.gguf", size: data.count))
        #expect(installed.sha256 == SHA256.hex(of: data))
        #expect(server.requests.count == 16)
        #expect(server.bodyBytesSent == data.count)
    }

    // MARK: - Pausing, processes, locks

    @Test func pauseThenResumeFromANewDownloader() async throws {
        let data = Self.payload(8 << 20, seed: 13)
        server.serve("/m.gguf", data: data)
        server.addFaults([.stallAfter(2 << 20)], for: "/m.gguf")
        let first = downloader().start(request("/m.gguf", size: data.count))
        try await waitForPart(2 << 20)
        first.pause()
        let (events, error) = await run(first)
        #expect(error == nil)
        guard case .paused(let progress)? = events.last else {
            Issue.record("expected .paused, got \(String(describing: events.last))")
            return
        }
        #expect(progress.bytes == 2 << 20)
        #expect(Self.size(of: part) == 2 << 20)

        let installed = try await downloader().download(request("/m.gguf", size: data.count))
        #expect(installed.sha256 == SHA256.hex(of: data))
        #expect(Self.rangeStart(server.requests.last?.headers["range"]) == 2 << 20)
    }

    @Test func aKilledDownloaderProcessResumesFromItsPartFile() async throws {
        let data = Self.payload(8 << 20, seed: 14)
        server.serve("/m.gguf", data: data)
        server.addFaults([.stallAfter(3 << 20)], for: "/m.gguf")
        let fetch = ToolProcess.executable("ilotoki-fetch")
        let arguments = [server.url("/m.gguf").absoluteString, destination.path, "--size", "\(data.count)"]

        let first = Process()
        first.executableURL = fetch
        first.arguments = arguments
        first.standardOutput = FileHandle.nullDevice
        try first.run()
        try await waitForPart(3 << 20)
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(first.terminationReason == .uncaughtSignal)
        #expect(Self.size(of: part) == 3 << 20)

        let second = Process()
        second.executableURL = fetch
        second.arguments = arguments
        second.standardOutput = FileHandle.nullDevice
        try second.run()
        second.waitUntilExit()
        #expect(second.terminationStatus == 0)
        #expect(try fileSHA256(destination) == SHA256.hex(of: data))
        #expect(Self.rangeStart(server.requests.last?.headers["range"]) == 3 << 20)
        #expect(server.requests.last?.status == 206)
    }

    @Test func aSecondDownloaderOfTheSameFileIsRefused() async throws {
        let data = Self.payload(4 << 20, seed: 15)
        server.serve("/m.gguf", data: data)
        server.addFaults([.stallAfter(1 << 20)], for: "/m.gguf")
        let first = downloader().start(request("/m.gguf", size: data.count))
        try await waitForPart(1 << 20)
        let (_, error) = await run(downloader().start(request("/m.gguf", size: data.count)))
        #expect(error as? DownloadError == .alreadyDownloading(file: destination.path))
        #expect((error as? LocalizedError)?.errorDescription?.contains("already being downloaded") == true)
        first.pause()
        _ = await run(first)
    }

    @Test func aPartLockedByAnotherProcessIsRefused() async throws {
        // flock conflicts between two open descriptions as it does between two processes.
        try Data().write(to: part)
        let held = try #require(try FileLock.acquire(part, create: false))
        server.serve("/m.gguf", data: Self.payload(1024))
        let (_, error) = await run(downloader().start(request("/m.gguf", size: 1024)))
        #expect(error as? DownloadError == .alreadyDownloading(file: destination.path))
        #expect(server.requests.isEmpty)
        held.release()
    }

    // MARK: - Refusals and failures

    @Test func notEnoughFreeSpaceIsRefusedBeforeAByteIsWritten() async throws {
        server.serve("/m.gguf", data: Self.payload(1 << 20))
        let (_, error) = await run(downloader(freeSpace: 1000).start(request("/m.gguf", size: 1 << 20)))
        guard case .notEnoughSpace(let needed, let available, _)? = error as? DownloadError else {
            Issue.record("expected notEnoughSpace, got \(String(describing: error))")
            return
        }
        #expect(needed == 1 << 20 && available == 1000)
        #expect(server.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: part.path))
    }

    @Test func freeSpaceCountsTheBytesAlreadyThere() async throws {
        let data = Self.payload(1 << 20, seed: 16)
        server.serve("/m.gguf", data: data)
        try data.prefix(1 << 19).write(to: part)
        // Half the file is here; the other half fits.
        let installed = try await downloader(freeSpace: (1 << 19) + 10).download(request("/m.gguf", size: data.count))
        #expect(installed.sha256 == SHA256.hex(of: data))
    }

    @Test func aServerThatRefusesEveryConnectionGivesUpAfterOneEmptyAttempt() async throws {
        let data = Self.payload(2 << 20, seed: 17)
        server.serve("/m.gguf", data: data)
        server.addFaults([.cutAfter(1 << 20), .refuse, .refuse, .refuse], for: "/m.gguf")
        let (events, error) = await run(downloader().start(request("/m.gguf", size: data.count)))
        guard case .connectionFailed(_, _, let kept)? = error as? DownloadError else {
            Issue.record("expected connectionFailed, got \(String(describing: error))")
            return
        }
        #expect(kept == 1 << 20)
        #expect(server.requests.count == 2)
        #expect(events.contains { if case .stalled = $0 { true } else { false } })
        #expect(Self.size(of: part) == 1 << 20)
        #expect((error as? LocalizedError)?.errorDescription?.contains("kept") == true)
    }

    @Test func aServerThatIsNotThereGivesUpAtOnce() async throws {
        server.stop()
        let (_, error) = await run(downloader().start(request("/m.gguf", size: 100)))
        guard case .connectionFailed(let url, _, let kept)? = error as? DownloadError else {
            Issue.record("expected connectionFailed, got \(String(describing: error))")
            return
        }
        #expect(url.contains("127.0.0.1"))
        #expect(kept == 0)
    }

    @Test func aStalledConnectionIsRetried() async throws {
        let data = Self.payload(2 << 20, seed: 18)
        server.serve("/m.gguf", data: data)
        server.addFaults([.stallAfter(1 << 20)], for: "/m.gguf")
        let installed = try await downloader(idleTimeout: 1).download(request("/m.gguf", size: data.count))
        #expect(installed.sha256 == SHA256.hex(of: data))
        #expect(server.requests.count == 2)
    }

    @Test(arguments: [(401, "gated"), (403, "gated"), (404, "moved or renamed"), (500, "HTTP 500")])
    func httpErrorsSayWhatToDo(status: Int, phrase: String) async throws {
        server.serve("/m.gguf", data: Self.payload(1024))
        server.setPersistentFault(.status(status), for: "/m.gguf")
        let (_, error) = await run(downloader().start(request("/m.gguf", size: 1024)))
        let message = (error as? LocalizedError)?.errorDescription ?? ""
        #expect(message.contains(phrase), "\(message)")
        #expect(message.contains(server.url("/m.gguf").absoluteString))
        #expect(server.requests.count == 1)
    }

    @Test func anUnknownHostIsReportedAsSuch() async throws {
        let request = DownloadRequest(
            url: URL(string: "http://ilotoki-no-such-host.invalid/m.gguf")!, destination: destination, expectedBytes: 10)
        let (_, error) = await run(downloader().start(request))
        let message = (error as? LocalizedError)?.errorDescription ?? ""
        #expect(message.contains("ilotoki-no-such-host.invalid"), "\(message)")
    }

    @Test func eachRequestAsksForOneWindowOfTheFile() async throws {
        // Foundation hands chunks over without backpressure; a window bounds what can pile up.
        let data = Self.payload(20 << 20, seed: 22)
        server.serve("/m.gguf", data: data)
        let installed = try await downloader().download(request("/m.gguf", size: data.count))
        #expect(installed.sha256 == SHA256.hex(of: data))
        // The first window is the base size; later ones may grow on a slow network. They are
        // contiguous and cover the file exactly.
        let ranges = server.requests.compactMap { $0.headers["range"] }
        #expect(ranges.first == "bytes=0-\(8 << 20 - 1)")
        // Every window but the last is the base size times 1, 2, 4, 8 or 16; the last ends the file.
        let sizes = [1, 2, 4, 8, 16].map { $0 * (8 << 20) }
        var next = 0
        for (index, range) in ranges.enumerated() {
            let bounds = range.dropFirst(6).split(separator: "-").compactMap { Int($0) }
            try #require(bounds.count == 2, "\(ranges)")
            #expect(bounds[0] == next, "\(ranges)")
            let length = (bounds.last ?? 0) - (bounds.first ?? 0) + 1
            #expect(index == ranges.count - 1 ? next + length == data.count : sizes.contains(length), "\(ranges)")
            next = (bounds.last ?? 0) + 1
        }
        #expect(next == data.count)
    }

    @Test func windowsGrowWhileTheNetworkIsSlow() {
        let base: Int64 = 8 << 20
        #expect(DownloadWindow.next(after: base, moved: base, in: .seconds(2), base: base) == 2 * base)
        #expect(DownloadWindow.next(after: 16 * base, moved: base, in: .seconds(2), base: base) == 16 * base)
        #expect(DownloadWindow.next(after: 4 * base, moved: base, in: .milliseconds(20), base: base) == base)
        #expect(DownloadWindow.next(after: 2 * base, moved: 0, in: .seconds(1), base: base) == 2 * base)
    }

    @Test func progressReportsBytesTotalAndRate() async throws {
        let data = Self.payload(16 << 20, seed: 19)
        server.serve("/m.gguf", data: data)
        let (events, error) = await run(downloader().start(request("/m.gguf", size: data.count)))
        #expect(error == nil)
        let progress = events.compactMap { if case .progress(let p) = $0 { p } else { nil } }
        #expect(progress.last?.bytes == Int64(data.count), "the last progress is the whole file")
        #expect(progress.allSatisfy { $0.total == Int64(data.count) && $0.bytes <= Int64(data.count) })
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.bytes <= $1.bytes })
        #expect(events.contains(.verifying(sha256Known: false)))  // no pin, no X-Linked-Etag: the size is what is checked
    }

    @Test func aCompletePartFromAnEarlierRunIsVerifiedWithoutDownloading() async throws {
        let data = Self.payload(1 << 20, seed: 20)
        server.serve("/m.gguf", data: data)
        try data.write(to: part)
        let installed = try await downloader().download(request("/m.gguf", size: data.count))
        #expect(installed.sha256 == SHA256.hex(of: data))
        #expect(server.requests.isEmpty)
    }
}

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func standardVectors(message: String, digest: String) {
        #expect(SHA256.hex(of: Data(message.utf8)) == digest)
    }

    @Test func thePortableCodeAgreesWithTheCPUExtensions() {
        let data = ModelDownloaderTests.payload((1 << 20) + 33, seed: 97)
        let fast = SHA256.hex(of: data)
        ilotoki_sha256_allow_cpu_extensions(false)
        defer { ilotoki_sha256_allow_cpu_extensions(true) }
        #expect(!SHA256.usesCPUExtensions)
        #expect(SHA256.hex(of: data) == fast)
        #expect(SHA256.hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func aMillionAs() {
        #expect(
            SHA256.hex(of: Data(repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func feedingInPiecesGivesTheSameDigest() {
        let data = ModelDownloaderTests.payload(1 << 20, seed: 99)
        var hash = SHA256()
        var offset = 0
        for step in [1, 63, 64, 65, 1000, 4096, 7] where offset < data.count {
            hash.update(data[offset..<min(offset + step, data.count)])
            offset += step
        }
        hash.update(data[offset...])
        #expect(hash.finalize() == SHA256.hex(of: data))
    }

    @Test func fileHashMatchesTheDataHash() throws {
        let directory = TemporaryDirectory("sha")
        let data = ModelDownloaderTests.payload(3 << 20 + 17, seed: 98)
        try data.write(to: directory.file("f"))
        #expect(try SHA256.hash(fileAt: directory.file("f")) == SHA256.hex(of: data))
        #expect(throws: DownloadError.self) { try SHA256.hash(fileAt: directory.file("missing")) }
    }
}
