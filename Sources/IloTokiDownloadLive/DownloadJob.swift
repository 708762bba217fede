import Foundation
import IloTokiCore
import IloTokiLocking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif

/// One download, from claiming the file to installing it.
final class DownloadJob: @unchecked Sendable {
    /// What to download; a Hub file's address, size and sha256 are filled in from the Hub's
    /// listing before the transfer begins, and never change after.
    private(set) var request: DownloadRequest
    let configuration: ModelDownloader.Configuration
    let continuation: AsyncThrowingStream<DownloadEvent, Error>.Continuation
    let part: URL
    let metadataURL: URL
    private var lock: FileLock?
    private var metadata = PartMetadata()
    private let meter = Locked(RateMeter())
    private lazy var transferSession: TransferSession = {
        let session = URLSessionConfiguration.ephemeral
        session.timeoutIntervalForRequest = configuration.idleTimeout
        session.timeoutIntervalForResource = 7 * 24 * 3600
        session.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        session.urlCache = nil
        return TransferSession(configuration: session)
    }()

    init(
        request: DownloadRequest, configuration: ModelDownloader.Configuration,
        continuation: AsyncThrowingStream<DownloadEvent, Error>.Continuation
    ) throws {
        self.request = request
        self.configuration = configuration
        self.continuation = continuation
        part = request.part
        metadataURL = ModelStore.partMetadataURL(for: part)
    }

    deinit {
        lock?.release()
    }

    func run() async throws {
        guard ModelDownloader.claim(part) else { throw DownloadError.alreadyDownloading(file: request.destination.path) }
        defer { ModelDownloader.release(part) }
        let directory = part.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DownloadError.cannotWrite(directory.path, reason: error.localizedDescription)
        }
        let resolved = try await resolveHubFile()
        // Refuse before a byte is written when the rest of the file cannot fit.
        let existing = (try? FileManager.default.attributesOfItem(atPath: part.path)[.size] as? NSNumber)?.int64Value ?? 0
        if let expected = request.expectedBytes, let available = configuration.freeSpace(directory) {
            let needed = expected - min(existing, expected)
            if needed > 0, available < needed {
                throw DownloadError.notEnoughSpace(needed: needed, available: available, directory: directory.path)
            }
        }
        guard let lock = try FileLock.acquire(part, create: true) else {
            throw DownloadError.alreadyDownloading(file: request.destination.path)
        }
        self.lock = lock
        defer {
            lock.release()
            self.lock = nil
        }

        let size = currentSize()
        metadata = size > 0 ? (JSONFile.read(PartMetadata.self, from: metadataURL).value ?? PartMetadata()) : PartMetadata()
        if let resolved { try keepResolution(resolved, partSize: size) }
        if let expected = request.expectedBytes, size > expected {
            try truncate()
            metadata = PartMetadata()
        }
        continuation.yield(.started(offset: currentSize(), total: knownTotal))
        meter.withLock { $0.reset(bytes: currentSize()) }

        defer { transferSession.invalidate() }
        do {
            try await transfer()
        } catch is CancellationError {
            continuation.yield(.paused(progress(bytes: currentSize())))
            return
        } catch {
            // A download that failed before its first byte leaves nothing behind: no empty
            // `.part` for the model list to show as "partial 0 %".
            if currentSize() == 0 { discardPart() }
            throw error
        }
        try await verifyAndInstall()
    }

    // MARK: - The Hub's file

    /// For a Hub file: which file, its size and sha256, from the repository's listing; the
    /// request then points at it. Fails before anything is written.
    private func resolveHubFile() async throws -> ResolvedFile? {
        guard let hub = request.hub else { return nil }
        let resolver = HubResolver(access: request.access, timeout: configuration.idleTimeout)
        let resolved = try await resolver.resolve(repository: hub.repository, revision: hub.revision, quantization: hub.quantization)
        if let pinned = request.expectedSHA256, let sha256 = resolved.sha256, pinned != sha256 {
            throw DownloadError.hubListing(
                repository: hub.repository, host: request.access.host,
                problem: "its \(resolved.path) has sha256 \(sha256), not the \(pinned) this version of ilo toki expects")
        }
        request.url = resolver.resolveURL(repository: hub.repository, revision: hub.revision, path: resolved.path)
        request.expectedBytes = resolved.bytes
        request.expectedSHA256 = request.expectedSHA256 ?? resolved.sha256
        return resolved
    }

    /// Compares the Hub's file with the one the bytes so far belong to, and records it beside
    /// the model (the models page reads its size from there). A different file deletes the
    /// `.part`: its bytes can never complete the new one.
    private func keepResolution(_ resolved: ResolvedFile, partSize: Int64) throws {
        let record = ModelStore.sourceRecordURL(for: request.destination)
        if partSize > 0 {
            if let earlier = JSONFile.read(ResolvedFile.self, from: record).value {
                if !earlier.isSameFile(as: resolved) {
                    discardPart()
                    try? FileManager.default.removeItem(at: record)
                    throw DownloadError.listingChanged(repository: resolved.repository, was: earlier.summary, now: resolved.summary)
                }
            } else {
                // Bytes of an unknown file: start over rather than mix them with this one.
                try truncate()
                metadata = PartMetadata()
                try? FileManager.default.removeItem(at: metadataURL)
            }
        }
        do {
            try JSONFile.write(resolved, to: record)
        } catch {
            throw DownloadError.cannotWrite(record.path, reason: error.localizedDescription)
        }
    }

    // MARK: - Transfer

    /// Brings the `.part` file to the full size, request after request.
    ///
    /// Each request asks for one window of the file (`Range: bytes=N-M`). Foundation hands
    /// chunks over without backpressure, so a network faster than the disk would pile them up
    /// in memory; a window bounds that pile, whatever the network.
    private func transfer() async throws {
        // Progress is reported at most ten times a second as chunks arrive; this also reports
        // the last bytes before the network goes quiet, so a stalled download shows where it stands.
        let ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                guard !Task.isCancelled, let self else { return }
                self.reportProgress(self.currentSize(), evenIfRecent: true)
            }
        }
        // The ticker is over before anything that follows the transfer (verifying, paused, a
        // failure) is reported, so no progress can arrive after it.
        do {
            try await transferWindows()
        } catch {
            ticker.cancel()
            await ticker.value
            throw error
        }
        ticker.cancel()
        await ticker.value
        // The bar reaches the whole file before verifying begins, whatever the last tick saw.
        reportProgress(currentSize(), evenIfRecent: true)
    }

    private func transferWindows() async throws {
        var attempt = 0
        var failuresInARow = 0
        var serverFaultsInARow = 0
        var restartsFrom416 = 0
        var useRange = true
        var restarted = false
        var window = configuration.windowBytes
        let clock = ContinuousClock()
        while true {
            try Task.checkCancellation()
            let offset = currentSize()
            if let total = knownTotal, offset == total { return }
            attempt += 1
            let from = useRange ? offset : 0
            if restarted {
                meter.withLock { $0.reset(bytes: from) }
                restarted = false
            }

            let started = clock.now
            let result = await performAttempt(offset: from, useRange: useRange, window: window)
            window = DownloadWindow.next(after: window, moved: result.written, in: clock.now - started, base: configuration.windowBytes)
            var outcome = result.outcome
            if outcome == .finished, result.written == 0, let total = knownTotal, currentSize() < total {
                outcome = .interrupted(reason: "the server sent nothing", code: 0)
            }

            switch outcome {
            case .finished:
                // One window done; the loop asks for the next until the file is complete.
                failuresInARow = 0
                serverFaultsInARow = 0
                if knownTotal == nil { return }
            case .interrupted(let reason, let code):
                // Give up only when an attempt moved nothing; keep going while bytes move.
                guard result.written > 0 else { throw failure(reason: reason, code: code) }
                serverFaultsInARow = 0
                failuresInARow = result.written >= 4 << 20 ? 1 : failuresInARow + 1
                continuation.yield(.stalled(attempt: attempt, reason: reason.isEmpty ? "connection dropped" : reason))
                restarted = true
                try await Task.sleep(for: backoff(failuresInARow))
            case .rangeIgnored, .wrongOffset:
                // A server fault, not a failed attempt: drop the response and ask again; if
                // it repeats, start over from zero without Range.
                serverFaultsInARow += 1
                if !useRange || serverFaultsInARow > 4 {
                    throw DownloadError.serverMisbehaving(
                        url: request.url.absoluteString, reason: "it keeps answering with the wrong part of the file")
                }
                if serverFaultsInARow >= 2 {
                    useRange = false
                    restarted = true
                }
            case .rangeNotSatisfiable:
                // Nothing after our offset: the file is complete, or it changed and is shorter.
                let total = knownTotal ?? result.response?.total
                if let total, currentSize() == total { return }
                try truncate()
                metadata = PartMetadata()
                try? FileManager.default.removeItem(at: metadataURL)
                restartsFrom416 += 1
                restarted = true
                if restartsFrom416 > 2 {
                    throw DownloadError.serverMisbehaving(url: request.url.absoluteString, reason: "416 for every range")
                }
            case .status(let status):
                throw httpFailure(status)
            case .unexpectedSize(let total):
                if let mirror = request.mirror {
                    throw DownloadError.mirrorFailed(
                        mirror: mirror, url: request.url.absoluteString,
                        reason: "it sent a file of \(total) bytes instead of \(request.expectedBytes ?? 0)")
                }
                throw DownloadError.unexpectedSize(
                    url: request.url.absoluteString, expected: request.expectedBytes ?? 0, actual: total)
            case .webPage:
                if let mirror = request.mirror {
                    throw DownloadError.mirrorFailed(
                        mirror: mirror, url: request.url.absoluteString, reason: "it answered with a web page, not the model file")
                }
                throw DownloadError.serverMisbehaving(
                    url: request.url.absoluteString, reason: "it answered with a web page, not the model file")
            case .writeFailed(let reason):
                throw DownloadError.cannotWrite(part.path, reason: reason)
            case .cancelled:
                throw CancellationError()
            }
        }
    }

    private func performAttempt(offset: Int64, useRange: Bool, window: Int64) async -> HTTPAttempt.Result {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        urlRequest.setValue("ilotoki", forHTTPHeaderField: "User-Agent")
        if let authorization = request.access.authorization(for: request.url) {
            urlRequest.setValue(authorization, forHTTPHeaderField: "Authorization")
        }
        if useRange {
            let end = knownTotal.map { min(offset + window, $0) - 1 }
            urlRequest.setValue("bytes=\(offset)-\(end.map(String.init) ?? "")", forHTTPHeaderField: "Range")
            if offset > 0, let etag = metadata.etag { urlRequest.setValue(etag, forHTTPHeaderField: "If-Range") }
        }
        let sendRange = useRange
        let stored = metadata
        let expectedTotal = request.expectedBytes
        guard let descriptor = lock?.descriptor else { return HTTPAttempt.Result(outcome: .cancelled, written: 0) }

        let attempt = HTTPAttempt(
            descriptor: descriptor,
            decide: { [self] info in
                let decision = ResumeDecision.decide(
                    info, offset: offset, sentRange: sendRange, stored: stored, expectedTotal: expectedTotal)
                // What the response says about the file is kept before its first byte is written,
                // so a process killed mid-transfer resumes safely.
                if case .write(let start) = decision { remember(info, restarting: start == 0) }
                return decision
            },
            authorization: { [access = request.access] url in access.authorization(for: url) },
            redirectDropsRange: { info in
                // The redirect says the file is not the one the bytes so far belong to.
                sendRange && stored.linkedEtag != nil && info.linkedEtag != nil && info.linkedEtag != stored.linkedEtag
            },
            onWrite: { [weak self] size in self?.reportProgress(size) }
        )
        return await attempt.run(urlRequest, on: transferSession)
    }

    /// Keeps what the accepted response said, beside the `.part` file.
    private func remember(_ response: HTTPAttempt.ResponseInfo, restarting: Bool) {
        var updated = restarting ? PartMetadata() : metadata
        if let etag = response.etag { updated.etag = etag }
        if let linked = response.linkedEtag { updated.linkedEtag = linked }
        if let total = response.total ?? response.linkedSize { updated.total = total }
        guard updated != metadata else { return }
        metadata = updated
        try? JSONFile.write(metadata, to: metadataURL)
    }

    private var knownTotal: Int64? { request.expectedBytes ?? metadata.total }

    private func backoff(_ failures: Int) -> Duration {
        let factor = 1 << min(max(failures - 1, 0), 16)
        return min(configuration.retryDelay * factor, configuration.maxRetryDelay)
    }

    private func reportProgress(_ size: Int64, evenIfRecent: Bool = false) {
        let report: DownloadProgress? = meter.withLock { meter in
            meter.add(bytes: size)
            guard meter.shouldReport(bytes: size, evenIfRecent: evenIfRecent) else { return nil }
            return DownloadProgress(bytes: size, total: knownTotal, bytesPerSecond: meter.bytesPerSecond)
        }
        if let report { continuation.yield(.progress(report)) }
    }

    private func progress(bytes: Int64) -> DownloadProgress {
        DownloadProgress(bytes: bytes, total: knownTotal, bytesPerSecond: meter.withLock { $0.bytesPerSecond })
    }

    // MARK: - Verification

    private func verifyAndInstall() async throws {
        let pinned = request.expectedSHA256 ?? metadata.linkedEtag.flatMap { Self.isSHA256($0) ? $0.lowercased() : nil }
        continuation.yield(.verifying(sha256Known: pinned != nil))
        guard let descriptor = lock?.descriptor else { throw CancellationError() }
        let size = currentSize()
        let expectedSize = knownTotal ?? size
        guard size == expectedSize else {
            discardPart()
            throw DownloadError.sizeMismatch(file: request.destination.lastPathComponent, expected: expectedSize, actual: size)
        }
        guard fsync(descriptor) == 0 else {
            throw DownloadError.cannotWrite(part.path, reason: String(cString: strerror(errno)))
        }
        let actual = try await SHA256.hashInBackground(fileAt: part)
        if let expected = pinned, expected != actual {
            discardPart()
            throw DownloadError.checksumMismatch(file: request.destination.lastPathComponent, expected: expected, actual: actual)
        }
        try await checkModel(size: size)
        guard rename(part.path, request.destination.path) == 0 else {
            throw DownloadError.cannotWrite(request.destination.path, reason: String(cString: strerror(errno)))
        }
        AtomicFile.syncDirectory(request.destination.deletingLastPathComponent())
        try? FileManager.default.removeItem(at: metadataURL)
        try? AtomicFile.replace(ModelStore.sha256RecordURL(for: request.destination), with: Data((actual + "\n").utf8))
        continuation.yield(.installed(InstalledFile(url: request.destination, bytes: size, sha256: actual)))
    }

    /// Opens the finished file as a model before it is installed (its header and tables only:
    /// the sha256 has just read the file, so those pages come from the cache).
    private func checkModel(size: Int64) async throws {
        guard let check = configuration.checkModel else { return }
        do {
            try await check(part)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let beginning = Self.textBeginning(of: part)
            discardPart()
            throw DownloadError.notAModel(
                file: request.destination.lastPathComponent, url: request.url.absoluteString, mirror: request.mirror,
                bytes: size, beginning: beginning, reason: Self.checkReason(error, part: part))
        }
    }

    /// The check's message about the `.part` file as a clause about the file the server sent:
    /// without the path (the file is gone) and without the advice to download it again.
    static func checkReason(_ error: Error, part: URL) -> String {
        var reason = (error as? LocalizedError)?.errorDescription ?? "\(error)"
        reason = reason.replacingOccurrences(of: "The model file '\(part.path)'", with: "the file")
        reason = reason.replacingOccurrences(of: "'\(part.path)'", with: "the file")
        if let advice = reason.range(of: "; delete it") ?? reason.range(of: ". Download it again") {
            reason = String(reason[..<advice.lowerBound])
        }
        if let first = reason.first, first.isUppercase { reason = first.lowercased() + reason.dropFirst() }
        return reason
    }

    /// The first bytes of a file when they are text (an HTML page, a JSON error, a redirect
    /// notice), as one line of at most 80 characters; `nil` for binary content.
    static func textBeginning(of file: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 512), !data.isEmpty else { return nil }
        // A cut in the middle of a UTF-8 sequence is not binary: drop up to three trailing bytes.
        var text: String?
        for cut in 0...min(3, data.count - 1) {
            if let decoded = String(bytes: data.dropLast(cut), encoding: .utf8) {
                text = decoded
                break
            }
        }
        guard let text, !text.unicodeScalars.contains(where: { $0.value < 0x20 && !"\n\r\t".unicodeScalars.contains($0) }) else {
            return nil
        }
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: " ")
        guard !line.isEmpty else { return nil }
        return line.count > 80 ? String(line.prefix(80)) + "…" : line
    }

    static func isSHA256(_ text: String) -> Bool {
        text.count == 64 && text.allSatisfy(\.isHexDigit)
    }

    // MARK: - Files

    private func currentSize() -> Int64 {
        var info = stat()
        guard let descriptor = lock?.descriptor, fstat(descriptor, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }

    private func truncate() throws {
        guard let descriptor = lock?.descriptor, ftruncate(descriptor, 0) == 0 else {
            throw DownloadError.cannotWrite(part.path, reason: String(cString: strerror(errno)))
        }
    }

    private func discardPart() {
        try? FileManager.default.removeItem(at: part)
        try? FileManager.default.removeItem(at: metadataURL)
        if request.hub != nil { try? FileManager.default.removeItem(at: ModelStore.sourceRecordURL(for: request.destination)) }
    }

    // MARK: - Errors

    private func failure(reason: String, code: Int) -> DownloadError {
        let host = request.url.host ?? request.url.absoluteString
        switch code {
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return .hostNotFound(host: host)
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
            NSURLErrorServerCertificateNotYetValid, NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorClientCertificateRejected:
            return .secureConnectionFailed(host: host, reason: reason)
        default:
            return .connectionFailed(url: request.url.absoluteString, reason: reason, bytesKept: currentSize())
        }
    }

    private func httpFailure(_ status: Int) -> DownloadError {
        let url = request.url.absoluteString
        if let mirror = request.mirror, [401, 403, 404, 410].contains(status) {
            return .mirrorFailed(mirror: mirror, url: url, reason: "it answered HTTP \(status)")
        }
        switch status {
        case 401, 403: return .accessDenied(url: url, status: status)
        case 404, 410: return .notFound(url: url)
        default: return .httpStatus(url: url, status: status)
        }
    }
}
