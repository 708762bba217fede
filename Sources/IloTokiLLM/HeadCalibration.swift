import Foundation

/// Chooses the output head on this machine by measuring both: the trimmed head pays where the
/// check of the excluded rows costs less than the full head's product, which depends on the
/// CPU's kernels (a VNNI Xeon: 1.33× llama.cpp's decode; an AVX2 EPYC: 0.94×), the model and
/// the thread count. No list of CPU names decides.
///
/// How: the first translations alternate the heads (the trimmed one first), and once each
/// head has decoded `tokensPerHead` tokens over `runsPerHead` translations, the one whose
/// translations took the fewer milliseconds per answer token (the median of its
/// translations, so one slowed by the machine does not decide; steps the trimmed head took
/// again after a check count as its time, not as tokens) is chosen; the trimmed head
/// must be faster by `margin`, or the full head (less memory, never slower) is kept. What
/// people translate has short answers (6 to 12 tokens into Toki Pona), so the bounds are
/// counted in translations as much as in tokens: a choice comes after six or so of them, not
/// after twenty (18 few-shot prompts once ended still measuring, half of them on the slower head). Both heads give the same
/// tokens, so measuring costs at most the difference over those first translations. The
/// choice is kept (`LiveEngineLoader` stores it by CPU, model file, build and threads) and
/// measured again when any of those changes.
public struct HeadCalibration: Codable, Equatable, Sendable {
    /// What one head has decoded while measuring.
    public struct Sample: Codable, Equatable, Sendable {
        public var runs = 0
        public var tokens = 0
        public var milliseconds = 0.0
        /// Each translation's milliseconds per decoded token.
        public var rates: [Double] = []

        public init(runs: Int = 0, tokens: Int = 0, milliseconds: Double = 0, rates: [Double] = []) {
            self.runs = runs
            self.tokens = tokens
            self.milliseconds = milliseconds
            self.rates = rates
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            runs = try container.decode(Int.self, forKey: .runs)
            tokens = try container.decode(Int.self, forKey: .tokens)
            milliseconds = try container.decode(Double.self, forKey: .milliseconds)
            rates = try container.decodeIfPresent([Double].self, forKey: .rates) ?? []  // kept before rates were
        }

        /// Milliseconds per decoded token: the median of the translations' own (all of them
        /// together where they were not kept one by one); `nil` before any.
        public var millisecondsPerToken: Double? {
            if !rates.isEmpty {
                let sorted = rates.sorted()
                let middle = sorted.count / 2
                return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            }
            return tokens > 0 ? milliseconds / Double(tokens) : nil
        }
    }

    public static let tokensPerHead = 24
    public static let runsPerHead = 3
    /// The trimmed head is chosen only when it is at least this much faster.
    public static let margin = 0.03
    /// Generations shorter than this say more about their prompt than about the head.
    public static let shortestRun = 4

    public var trimmed = Sample()
    public var full = Sample()
    /// The head chosen; `nil` while measuring.
    public var choice: OutputHead?
    /// Why, in words: the figures behind the choice.
    public var reason = ""

    public init(trimmed: Sample = Sample(), full: Sample = Sample(), choice: OutputHead? = nil, reason: String = "") {
        self.trimmed = trimmed
        self.full = full
        self.choice = choice
        self.reason = reason
    }

    /// A choice made without measuring (a model whose head cannot be trimmed).
    public static func fixed(_ head: OutputHead, because reason: String) -> HeadCalibration {
        HeadCalibration(choice: head, reason: reason)
    }

    /// Where the choice starts for a loaded model: the head asked for (`nil`: measure), the
    /// full head for a model whose head cannot be trimmed, or a fresh measurement.
    public static func start(asked: OutputHead?, info: ModelInfo) -> HeadCalibration {
        switch asked {
        case .trimmed?: .fixed(.trimmed, because: "chosen (--head trimmed)")
        case .full?: .fixed(.full, because: "chosen (--head full)")
        case nil:
            if !info.trimmedHead {
                .fixed(.full, because: "the model's head cannot be trimmed (\(info.trimmedHeadUnavailable))")
            } else if !info.trimmedHeadCheckStreams.isEmpty {
                // Short of memory, llama.cpp's head would read all its rows from storage at every
                // token; the trimmed head reads its kept rows and streams its checks.
                .fixed(.trimmed, because: "the model does not stay in memory (\(info.trimmedHeadCheckStreams))")
            } else {
                HeadCalibration()
            }
        }
    }

    /// Whether nothing has been measured or chosen yet.
    public var isFresh: Bool { self == HeadCalibration() }

    /// The head the next translation uses: the choice, or while measuring the head that has
    /// fewer translations so far, then fewer tokens (the trimmed one on a tie).
    public var next: OutputHead {
        choice ?? ((trimmed.runs, trimmed.tokens) <= (full.runs, full.tokens) ? .trimmed : .full)
    }

    /// Adds what a translation with `head` decoded, and chooses once both heads have enough.
    public mutating func record(_ head: OutputHead, tokens: Int, milliseconds: Double) {
        guard choice == nil, tokens >= Self.shortestRun, milliseconds > 0 else { return }
        switch head {
        case .trimmed:
            trimmed.runs += 1
            trimmed.tokens += tokens
            trimmed.milliseconds += milliseconds
            trimmed.rates.append(milliseconds / Double(tokens))
        case .full:
            full.runs += 1
            full.tokens += tokens
            full.milliseconds += milliseconds
            full.rates.append(milliseconds / Double(tokens))
        }
        if let decided = Self.decide(trimmed: trimmed, full: full) {
            choice = decided
            reason = Self.describe(trimmed: trimmed, full: full, choice: decided)
        }
    }

    /// The decision alone: `nil` until both heads have enough; then the trimmed head if its
    /// median milliseconds per token are fewer by at least `margin`, the full head otherwise.
    public static func decide(trimmed: Sample, full: Sample) -> OutputHead? {
        guard trimmed.runs >= runsPerHead, full.runs >= runsPerHead, trimmed.tokens >= tokensPerHead, full.tokens >= tokensPerHead,
            let fast = trimmed.millisecondsPerToken, let slow = full.millisecondsPerToken
        else { return nil }
        return fast <= slow * (1 - margin) ? .trimmed : .full
    }

    static func describe(trimmed: Sample, full: Sample, choice: OutputHead) -> String {
        func rate(_ sample: Sample) -> String {
            String(format: "%.2f ms/token (median of %d) over %d tokens", sample.millisecondsPerToken ?? 0, sample.runs, sample.tokens)
        }
        let ratio = (full.millisecondsPerToken ?? 0) / max(trimmed.millisecondsPerToken ?? 1, 1e-9)
        return "measured: trimmed \(rate(trimmed)), full \(rate(full)); the trimmed head is "
            + String(format: "%.3f", ratio) + "× as fast, "
            + (choice == .trimmed ? "so it is used" : "not \(String(format: "%.0f", margin * 100)) % faster, so the full head is used")
    }
}
