import Foundation
import IloTokiCore
import IloTokiLLM
import IloTokiLocking

/// The output head each translation of one loaded model uses: a fixed one, or the one
/// `HeadCalibration` measures as the faster on this machine. The measurement is kept in the
/// app's directory under the CPU, the model file, the build and the thread count, so it is made
/// once, and again when any of those changes.
final class HeadChooser: Sendable {
    private let calibration: Locked<HeadCalibration>
    private let store: HeadCalibrationStore?
    private let key: String

    /// - Parameters:
    ///   - policy: auto, or a head to use always.
    ///   - info: the loaded model (a head that cannot be trimmed makes the choice).
    ///   - path: the model file, for the key.
    ///   - store: where measurements are kept; `nil` measures again each load.
    init(policy: LiveEngineOptions.Head, info: ModelInfo, path: String, store: HeadCalibrationStore?) {
        key = Self.key(path: path, info: info)
        self.store = store
        let asked: OutputHead? =
            switch policy {
            case .auto: nil
            case .trimmed: .trimmed
            case .full: .full
            }
        var start = HeadCalibration.start(asked: asked, info: info)
        // A measurement kept from an earlier load of this model on this machine.
        if start.isFresh, let kept = store?.calibration(for: key) { start = kept }
        calibration = Locked(start)
    }

    /// The head for the next translation.
    var next: OutputHead { calibration.withLock { $0.next } }

    /// Where the choice stands: the head, or `nil` while measuring, and why.
    var state: HeadCalibration { calibration.value }

    /// Adds what a translation decoded; stores the choice once it is made.
    func record(_ head: OutputHead, stats: GenerationStats) {
        let decided = calibration.withLock { calibration -> HeadCalibration? in
            guard calibration.choice == nil else { return nil }
            calibration.record(head, tokens: stats.decodedTokens, milliseconds: stats.decodeMilliseconds)
            return calibration.choice == nil ? nil : calibration
        }
        if let decided { store?.save(decided, for: key) }
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
