import Foundation
import IloTokiLocking
import Observation

/// What the user chose and what they translated: settings and history, kept in the home
/// directory and shared safely with every other process on the device (the command line
/// while the app runs).
///
/// A change shows at once, then goes to disk on a background queue as a read–merge–write of
/// what is there now (`SharedFile`), so another process's changes are kept; the merged result
/// replaces what is shown once no later change of this process is still on its way.
@MainActor
@Observable
public final class Preferences {
    public private(set) var settings = AppSettings()
    public private(set) var history = History()

    @ObservationIgnored private let settingsStore: SettingsStore
    @ObservationIgnored private let historyStore: HistoryStore
    /// Whether the home directory can be written; when not, nothing is kept.
    @ObservationIgnored private let canWrite: Bool
    /// Where to say what went wrong (a damaged file set aside, a write that failed).
    @ObservationIgnored var onProblem: (@MainActor (String) -> Void)?
    @ObservationIgnored private let writer = DispatchQueue(label: "ilotoki.app-files", qos: .utility)
    /// History changes not on disk yet: one write takes all that are waiting when it runs, so
    /// a file of thousands of lines translated at speed is a handful of writes, not one each.
    @ObservationIgnored private let queuedHistoryChanges = Locked<[@Sendable (inout History) -> Void]>([])
    /// Changes not yet on disk, per file.
    @ObservationIgnored private var pendingWrites: [SharedFileKind: Int] = [:]

    /// The files this process shares with others.
    private enum SharedFileKind: Sendable { case settings, history }

    /// - Parameters:
    ///   - directories: where `settings.json` and `history.json` live.
    ///   - canWrite: whether the home can be written (nothing is kept when not).
    public init(directories: AppDirectories, canWrite: Bool) {
        settingsStore = SettingsStore(url: directories.settingsFile)
        historyStore = HistoryStore(url: directories.historyFile)
        self.canWrite = canWrite
    }

    private func report(_ problem: String) {
        onProblem?(problem)
    }

    /// Reads both files; damaged ones are moved aside and reported.
    public func load() {
        let (settings, settingsProblems) = settingsStore.load()
        let (history, historyProblem) = historyStore.load()
        self.settings = settings
        self.history = history
        settingsProblems.forEach(report)
        if let historyProblem { report(historyProblem) }
    }

    // MARK: - Settings

    /// Changes the settings: at once on screen, then on disk, applied to what is there now
    /// (another process may have changed other fields meanwhile).
    public func change(_ change: @escaping @Sendable (inout AppSettings) -> Void) {
        change(&settings)
        let store = settingsStore
        writeShared(.settings, { try store.update(change) }, show: { $0.settings = $1 })
    }

    // MARK: - History

    /// Records a finished translation, unless history is off or the result is empty.
    public func record(_ entry: HistoryEntry) {
        guard settings.keepHistory, canWrite, !entry.result.isEmpty else { return }
        changeHistory { $0.add(entry) }
    }

    /// Changes the history: at once on screen, then on disk, applied under a lock to what is
    /// there now, so entries another process added meanwhile are kept (and shown).
    public func changeHistory(_ change: @escaping @Sendable (inout History) -> Void) {
        change(&history)
        guard canWrite else { return }
        let queued = queuedHistoryChanges
        let first = queued.withLock { changes -> Bool in
            changes.append(change)
            return changes.count == 1
        }
        guard first else { return }  // the write already waiting takes this change too
        let store = historyStore
        writeShared(
            .history,
            {
                let changes = queued.withLock { changes in
                    defer { changes = [] }
                    return changes
                }
                return try store.update { history in for change in changes { change(&history) } }
            }, show: { $0.history = $1 })
    }

    /// Reads the history again, with what other processes added since: for a front end about
    /// to show it.
    public func refreshHistory() {
        let store = historyStore
        writer.async { [weak self] in
            let (history, problem) = store.load()
            Task { @MainActor in
                guard let self else { return }
                if let problem { self.report(problem) }
                // A change of this process still on its way is shown when its write returns.
                if self.pendingWrites[.history, default: 0] == 0 { self.history = history }
            }
        }
    }

    // MARK: - Writing

    /// Runs a read–merge–write of a shared file on the writer queue, then shows what is on
    /// disk now, unless a later change of this process is still on its way (it shows its own
    /// result when it returns). What goes wrong is reported. Nothing is written when the home
    /// cannot be used.
    private func writeShared<Value: Sendable>(
        _ file: SharedFileKind,
        _ write: @escaping @Sendable () throws -> (Value, String?),
        show: @escaping @MainActor (Preferences, Value) -> Void
    ) {
        guard canWrite else { return }
        pendingWrites[file, default: 0] += 1
        writer.async { [weak self] in
            let result = Result { try write() }
            Task { @MainActor in
                guard let self else { return }
                self.pendingWrites[file, default: 0] -= 1
                switch result {
                case .success(let (merged, problem)):
                    if let problem { self.report(problem) }
                    if self.pendingWrites[file] == 0 { show(self, merged) }
                case .failure(let error):
                    self.report(error.localizedDescription)
                }
            }
        }
    }

    /// Returns once every pending write is on disk (and what it reported has arrived).
    public func flush() async {
        await withCheckedContinuation { continuation in writer.async { continuation.resume() } }
        await Task.yield()
    }

    /// Waits here until every pending write is on disk: for a front end that is about to exit.
    public func flushBeforeExit() {
        writer.sync {}
    }
}
