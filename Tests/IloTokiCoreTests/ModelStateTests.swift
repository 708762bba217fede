import Foundation
import IloTokiCore
import Testing

/// The model's state, decided in one place (`ModelState.derive`) from where loading stands,
/// the download under way and what is on disk: the table of every combination that matters.
@Suite struct ModelStateTests {
    typealias State = TranslatorModel.ModelState

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let load: TranslatorModel.LoadPhase
        let download: DownloadStatus.Phase?
        let stored: InstallState?
        let state: State
        var testDescription: String { name }
    }

    static let half = DownloadProgress(bytes: 50, total: 100, bytesPerSecond: 10)
    static let stored = DownloadProgress(bytes: 30, total: 100, bytesPerSecond: 0)

    static let cases: [Case] = [
        Case(name: "nothing anywhere: not downloaded", load: .idle, download: nil, stored: .notInstalled, state: .notDownloaded),
        Case(name: "before the disk was read: not downloaded", load: .idle, download: nil, stored: nil, state: .notDownloaded),
        Case(name: "a damaged file is not a model", load: .idle, download: nil, stored: .damaged(bytes: 7), state: .notDownloaded),
        Case(
            name: "a part file on disk: paused where it stopped", load: .idle, download: nil, stored: .partial(bytes: 30),
            state: .paused(stored)),
        Case(
            name: "a running download shows", load: .idle, download: .running(half), stored: .partial(bytes: 30), state: .downloading(half)),
        Case(
            name: "a paused download shows its progress", load: .idle, download: .paused(half), stored: .partial(bytes: 50),
            state: .paused(half)),
        Case(name: "verifying", load: .idle, download: .verifying, stored: .partial(bytes: 100), state: .verifying),
        Case(
            name: "a failed download says why", load: .idle, download: .failed("no network"), stored: .partial(bytes: 30),
            state: .failed("no network")),
        Case(name: "a failed load says why", load: .failed("too big"), download: nil, stored: .installed, state: .failed("too big")),
        Case(
            name: "a download started after a failed load shows the download", load: .failed("too big"), download: .running(half),
            stored: .notInstalled, state: .downloading(half)),
        Case(
            name: "loading comes before a download of another model", load: .loading, download: .running(half), stored: .partial(bytes: 50),
            state: .loading),
        Case(
            name: "a loaded engine translates while another model downloads", load: .loaded, download: .running(half),
            stored: .partial(bytes: 50), state: .ready),
        Case(
            name: "a loaded engine translates while a download failed", load: .loaded, download: .failed("no network"),
            stored: .notInstalled, state: .ready),
        Case(
            name: "installed and not loaded yet: not downloaded until launch loads it", load: .idle, download: nil, stored: .installed,
            state: .notDownloaded),
    ]

    @Test(arguments: cases) func theStateFollowsFromLoadDownloadAndDisk(_ c: Case) {
        #expect(State.derive(load: c.load, download: c.download, stored: c.stored, total: 100) == c.state)
    }
}
