// ilotoki-fetch: downloads one URL with ilo toki's resumable, verified downloader.
//
//   ilotoki-fetch URL DESTINATION [--size BYTES] [--sha256 HEX] [--idle-timeout SECONDS]
//
// Running it again after an interruption (Ctrl-C, a killed process, a dropped network)
// resumes from DESTINATION.part. Used by the download tests and benchmark; handy for
// fetching a model through any mirror by hand.
import Foundation
import IloTokiCore
import IloTokiDownloadLive

#if canImport(Glibc)
    import Glibc
#endif

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("ilotoki-fetch: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var options: [String: String] = [:]
var operands: [String] = []
while !arguments.isEmpty {
    let word = arguments.removeFirst()
    if word.hasPrefix("--") {
        guard !arguments.isEmpty else { fail("\(word) needs a value", status: 2) }
        options[word] = arguments.removeFirst()
    } else {
        operands.append(word)
    }
}
guard operands.count == 2, let url = URL(string: operands[0]) else {
    fail("usage: ilotoki-fetch URL DESTINATION [--size BYTES] [--sha256 HEX] [--idle-timeout SECONDS]", status: 2)
}
var configuration = ModelDownloader.Configuration()
if let timeout = options["--idle-timeout"].flatMap(Double.init) { configuration.idleTimeout = timeout }
configuration.retryDelay = .milliseconds(50)
let request = DownloadRequest(
    url: url, destination: URL(fileURLWithPath: operands[1]),
    expectedBytes: options["--size"].flatMap { Int64($0) }, expectedSHA256: options["--sha256"])
let download = ModelDownloader(configuration: configuration).start(request)

signal(SIGINT, SIG_IGN)
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
interrupt.setEventHandler { download.pause() }
interrupt.resume()

do {
    for try await event in download.events {
        switch event {
        case .started(let offset, let total): print("started \(offset) \(total.map(String.init) ?? "?")")
        case .progress(let progress): print("progress \(progress.bytes) \(Int(progress.bytesPerSecond))")
        case .stalled(let attempt, let reason): print("stalled \(attempt) \(reason)")
        case .verifying(let sha256Known): print(sha256Known ? "verifying size and sha256" : "verifying size (no sha256 to compare with)")
        case .paused(let progress):
            print("paused \(progress.bytes)")
            exit(130)
        case .installed(let file): print("installed \(file.bytes) \(file.sha256)")
        }
        fflush(nil)
    }
} catch {
    fail((error as? LocalizedError)?.errorDescription ?? "\(error)", status: 1)
}
