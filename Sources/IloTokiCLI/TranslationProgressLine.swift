import Foundation

/// One line on standard error that says how a long translation of standard input is coming
/// along: "120 of 480 sentences · 3.4 a second · 25% of the input · about 2 min left".
///
/// Shown only where a person watches it and it cannot mix with the translations: standard
/// error is a terminal and standard output is not (a file, a pipe), and not with `--quiet`.
/// It appears once the work has taken `delay` (2 s; `ILOTOKI_PROGRESS_AFTER` in seconds for
/// tests), is redrawn in place at most four times a second, and is erased before anything
/// else is written to standard error and when the work ends. The estimate needs the input's
/// size (standard input redirected from a file); without it the line counts what was read so far.
@MainActor
final class TranslationProgressLine {
    private let console: Console
    private let enabled: Bool
    private let totalBytes: Int64?
    private let delay: Duration
    private let start = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?
    private var shown = false

    private(set) var sentencesRead = 0
    private(set) var sentencesDone = 0
    private(set) var bytesDone: Int64 = 0

    init(console: Console, quiet: Bool, totalBytes: Int64?) {
        self.console = console
        enabled = !quiet && console.stderrIsTerminal && !console.stdoutIsTerminal
        self.totalBytes = totalBytes.flatMap { $0 > 0 ? $0 : nil }
        let seconds = console.environment["ILOTOKI_PROGRESS_AFTER"].flatMap(Double.init) ?? 2
        delay = .milliseconds(Int(max(seconds, 0) * 1000))
    }

    /// `count` more sentences were read from the input.
    func read(sentences count: Int) {
        sentencesRead += count
    }

    /// `count` more sentences are translated, and `bytes` more of the input answered.
    func done(sentences count: Int, bytes: Int64 = 0) {
        sentencesDone += count
        bytesDone += bytes
        draw()
    }

    /// The line as it would be drawn now.
    var text: String {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var parts = ["\(sentencesDone) of \(sentencesRead) sentences\(totalBytes == nil ? " read so far" : "")"]
        if seconds > 0, sentencesDone > 0 { parts.append(String(format: "%.1f a second", Double(sentencesDone) / seconds)) }
        if let totalBytes {
            let fraction = min(Double(bytesDone) / Double(totalBytes), 1)
            parts.append("\(Int(fraction * 100))% of the input")
            if fraction > 0.01, fraction < 1 { parts.append("about \(Self.duration(seconds * (1 - fraction) / fraction)) left") }
        }
        return parts.joined(separator: " · ")
    }

    /// Erases the line (before something else goes to standard error); it comes back at the
    /// next update.
    func clear() {
        guard shown else { return }
        console.err("\r\u{1B}[2K")
        shown = false
        lastDrawn = nil
    }

    /// The work ended: the line goes for good.
    func finish() {
        clear()
    }

    private func draw() {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - start >= delay else { return }
        if let lastDrawn, now - lastDrawn < .milliseconds(250) { return }
        lastDrawn = now
        console.err("\r\u{1B}[2K" + text)
        shown = true
    }

    static func duration(_ seconds: Double) -> String {
        switch seconds {
        case ..<60: "\(max(Int(seconds.rounded()), 1)) s"
        case ..<3600: "\(Int((seconds / 60).rounded())) min"
        default: String(format: "%.1f h", seconds / 3600)
        }
    }
}
