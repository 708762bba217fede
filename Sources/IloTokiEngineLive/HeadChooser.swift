import Foundation
import IloTokiCore
import IloTokiLLM
import IloTokiLocking

/// The output head each translation of one loaded model uses: a fixed one, or the one
/// `HeadCalibration` measures as the faster on this machine, for each target language on its
/// own: the trimmed head's kept rows are the target language's (Toki Pona's 32,031 rows of
/// 262,144 for Gemma 3, Russian's more, English's and Vietnamese's many), so it can pay into
/// Toki Pona and lose into English on the same machine. Each measurement is kept in the app's
/// directory under the CPU, the model file, the build, the thread count and the target
/// language, so it is made once, and again when any of those changes.
final class HeadChooser: Sendable {
    private let calibrations: Locked<[Language: HeadCalibration]>
    /// Where a target language's choice starts: fixed, or a fresh measurement.
    private let start: HeadCalibration
    private let store: HeadCalibrationStore?
    private let key: String
    /// Whether llama.cpp's head was asked for (`--head full`): then batches use it too.
    let askedForFull: Bool

    /// - Parameters:
    ///   - policy: auto, or a head to use always.
    ///   - info: the loaded model (a head that cannot be trimmed makes the choice).
    ///   - path: the model file, for the key.
    ///   - store: where measurements are kept; `nil` measures again each load.
    init(policy: LiveEngineOptions.Head, info: ModelInfo, path: String, store: HeadCalibrationStore?) {
        key = Self.key(path: path, info: info)
        askedForFull = policy == .full
        self.store = store
        let asked: OutputHead? =
            switch policy {
            case .auto: nil
            case .trimmed: .trimmed
            case .full: .full
            }
        start = HeadCalibration.start(asked: asked, info: info)
        calibrations = Locked([:])
    }

    /// The key of one target language's measurement.
    private func key(into target: Language) -> String { "\(key) | into \(target.code)" }

    /// Where the choice into `target` stands: the head, or `nil` while measuring, and why.
    func state(into target: Language) -> HeadCalibration {
        calibrations.withLock { known in calibration(into: target, in: &known) }
    }

    /// The head for the next translation into `target`.
    func next(into target: Language) -> OutputHead { state(into: target).next }

    /// The choices so far, by target language (those not yet translated into are not there).
    var states: [Language: HeadCalibration] { calibrations.value }

    /// Adds what a translation into `target` decoded; stores the choice once it is made.
    func record(_ head: OutputHead, into target: Language, stats: GenerationStats) {
        let decided = calibrations.withLock { known -> HeadCalibration? in
            var calibration = self.calibration(into: target, in: &known)
            guard calibration.choice == nil else { return nil }
            calibration.record(head, tokens: stats.answerSteps, milliseconds: stats.decodeMilliseconds)
            known[target] = calibration
            return calibration.choice == nil ? nil : calibration
        }
        if let decided { store?.save(decided, for: key(into: target)) }
    }

    /// The calibration into `target`, begun (from the store where a measurement is kept) at
    /// the first translation into it.
    private func calibration(into target: Language, in known: inout [Language: HeadCalibration]) -> HeadCalibration {
        if let calibration = known[target] { return calibration }
        var calibration = start
        // A measurement kept from an earlier load of this model on this machine.
        if calibration.isFresh, let kept = store?.calibration(for: key(into: target)) { calibration = kept }
        known[target] = calibration
        return calibration
    }

    /// The CPU, the model file (name, size, modification time), this build and the threads.
    static func key(path: String, info: ModelInfo) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return [
            CPUName.current, "\(URL(fileURLWithPath: path).lastPathComponent) \(size) \(Int(modified))",
            "ilotoki \(AboutPage.version) llama.cpp \(Engine.backendVersion) \(info.trimmedHeadKernel)", "threads \(info.threads)",
        ].joined(separator: " | ")
    }
}

/// The head measurements of this device, in one JSON file (`head-calibration.json` in the
/// app's directory), each with its date: one older than `lifetime` is measured again, so a
/// measurement taken while the machine was busy does not decide for good. A measurement is a
/// few translations' figures, so a file another process wrote at the same moment costs at
/// most one more measurement.
struct HeadCalibrationStore: Sendable {
    let file: URL
    /// How long a measurement is kept.
    static let lifetime: TimeInterval = 30 * 24 * 3600

    struct Entry: Codable {
        var calibration: HeadCalibration
        var measuredAt: Date
    }

    func calibration(for key: String, now: Date = Date()) -> HeadCalibration? {
        guard let entry = read()[key], now.timeIntervalSince(entry.measuredAt) < Self.lifetime else { return nil }
        return entry.calibration
    }

    func save(_ calibration: HeadCalibration, for key: String, now: Date = Date()) {
        var all = read()
        all[key] = Entry(calibration: calibration, measuredAt: now)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(all) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Written whole or not at all; a full disk leaves the old file (and a new measurement later).
        try? AtomicFile.replace(file, with: data)
    }

    private func read() -> [String: Entry] {
        guard let data = try? Data(contentsOf: file) else { return [:] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        // A file that is not ours, or damaged, is measured over again (and then replaced).
        return (try? decoder.decode([String: Entry].self, from: data)) ?? [:]
    }
}
