import Foundation
import IloTokiCore

/// What is translated as one text: a line of standard input, or a piece of a long one.
///
/// A line longer than `LongLine.pieceCharacters` several times over (a paragraph of an article,
/// a whole document on one line) goes in pieces that end where its sentences end, so that a
/// line of any length is translated as it is read and written as it is translated, through
/// the same batches as short lines, and the work per piece does not grow with the line.
struct InputPiece: Sendable {
    /// The line's number (from 1).
    let number: Int
    /// The text, or `nil` when the line is not valid UTF-8.
    let text: String?
    /// The white space that followed the piece in its line (empty for the line's last piece).
    let spacing: String
    /// Whether the piece begins its line, and whether it ends it.
    let beginsLine: Bool
    let endsLine: Bool
    /// Bytes of standard input up to the end of the piece's line.
    let lineEndOffset: Int64

    init(line: StandardInput.Line) {
        self.init(number: line.number, text: line.text, spacing: "", beginsLine: true, endsLine: true, lineEndOffset: line.endOffset)
    }

    init(number: Int, text: String?, spacing: String, beginsLine: Bool, endsLine: Bool, lineEndOffset: Int64) {
        self.number = number
        self.text = text
        self.spacing = spacing
        self.beginsLine = beginsLine
        self.endsLine = endsLine
        self.lineEndOffset = lineEndOffset
    }
}

/// A long line handed out a piece at a time, each piece whole sentences of about
/// `pieceCharacters` characters (a sentence longer than that is one piece of its own).
struct LongLine {
    /// Characters in a piece: enough sentences to fill a batch, few enough that assembling a
    /// piece's translation as it streams stays cheap.
    static let pieceCharacters = 2000

    let line: StandardInput.Line
    private let text: String
    private var position: String.Index
    private var handedOut = 0

    /// `line` in pieces, or `nil` when it is short enough to go whole (or not text).
    init?(_ line: StandardInput.Line) {
        guard let text = line.text, text.utf8.count > 4 * Self.pieceCharacters else { return nil }
        self.line = line
        self.text = text
        position = text.firstIndex { !TranslationPlan.isSpace($0) } ?? text.endIndex
    }

    /// The next piece; `nil` once the line has been handed out.
    mutating func next() -> InputPiece? {
        guard position < text.endIndex else { return nil }
        var window = 2 * Self.pieceCharacters
        while true {
            let end = text.index(position, offsetBy: window, limitedBy: text.endIndex) ?? text.endIndex
            let atEnd = end == text.endIndex
            let part = String(text[position..<end])
            let sentences = Sentences.split(part)
            // Whole sentences only: the window's last one may go on past it.
            let complete = atEnd ? sentences : Array(sentences.dropLast())
            guard !complete.isEmpty else {
                window *= 2  // one sentence longer than the window: look further for its end
                continue
            }
            var count = 0
            var characters = 0
            for sentence in complete {
                if count > 0, characters + sentence.text.count > Self.pieceCharacters { break }
                count += 1
                characters += sentence.text.count + sentence.spacing.count
            }
            if atEnd, count == complete.count {
                return piece(part.trimmingCharacters(in: .whitespaces), spacing: "", advancing: part.utf8.count)
            }
            // Where the last sentence taken ends in the window (each sentence is the window's
            // own text, found in order), and the white space after it.
            var cursor = part.startIndex
            for sentence in complete.prefix(count) {
                guard let found = part.range(of: sentence.text, range: cursor..<part.endIndex) else { break }
                cursor = found.upperBound
            }
            guard cursor > part.startIndex else {  // never: each sentence is the window's text
                return piece(part.trimmingCharacters(in: .whitespaces), spacing: " ", advancing: part.utf8.count)
            }
            var next = cursor
            while next < part.endIndex, TranslationPlan.isSpace(part[next]) { next = part.index(after: next) }
            return piece(
                String(part[..<cursor]), spacing: String(part[cursor..<next]),
                advancing: part.utf8.distance(from: part.startIndex, to: next))
        }
    }

    private mutating func piece(_ body: String, spacing: String, advancing bytes: Int) -> InputPiece {
        position = text.utf8.index(position, offsetBy: bytes)
        handedOut += 1
        let last = position >= text.endIndex
        return InputPiece(
            number: line.number, text: body, spacing: last ? "" : spacing, beginsLine: handedOut == 1, endsLine: last,
            lineEndOffset: line.endOffset)
    }
}

/// The long lines under way: the direction each goes (its first piece's), and with `--json`
/// what its pieces gave so far, until its last piece makes the line's one object.
@MainActor
final class LinesInPieces {
    struct Whole {
        var source = ""
        var result = ""
        var stats = TranslationStats()
        var direction: TranslationDirection?
        var failure: String?
    }

    private var directions: [Int: TranslationDirection] = [:]
    private var gathered: [Int: Whole] = [:]

    /// The direction the line of `piece` goes, when an earlier piece of it set one.
    func direction(of piece: InputPiece) -> TranslationDirection? {
        piece.beginsLine ? nil : directions[piece.number]
    }

    /// `piece` goes `direction`; the rest of its line will too.
    func begin(_ piece: InputPiece, direction: TranslationDirection) {
        if piece.beginsLine, !piece.endsLine { directions[piece.number] = direction }
    }

    /// Adds a piece's source and translation (or failure: the line's first is kept) to its line.
    func gather(_ piece: InputPiece, translation: (text: String, stats: TranslationStats)?, failure: String?) {
        var whole = gathered[piece.number] ?? Whole()
        whole.direction = whole.direction ?? directions[piece.number]
        let separator = piece.endsLine ? "" : piece.spacing
        whole.source += (piece.text ?? "") + separator
        if let translation {
            whole.result += translation.text + separator
            whole.stats.add(translation.stats)
        }
        if whole.failure == nil, let failure { whole.failure = failure }
        gathered[piece.number] = whole
    }

    /// The line of `piece` is done: what its pieces gave, and the line is forgotten.
    func end(_ piece: InputPiece) -> Whole? {
        directions[piece.number] = nil
        return gathered.removeValue(forKey: piece.number)
    }
}

/// The lines of standard input as they arrive, handed out in groups: what is there now, up to
/// a number. A pipe from a file gives whole groups at once; a slow producer (`tail -f`) is
/// never waited for beyond a moment, so each of its lines is translated as soon as it comes.
/// A long line is handed out in pieces (`LongLine`), one group's worth at a time.
@MainActor
final class LineQueue {
    private var lines: [StandardInput.Line] = []
    private var longLine: LongLine?
    private var ended = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var reader: Task<Void, Never>?
    private let source: StandardInput.Lines

    init(_ source: StandardInput.Lines) {
        self.source = source
        reader = Task { @MainActor [weak self] in
            for await line in source.stream {
                guard let self else { return }
                self.lines.append(line)
                self.wake()
            }
            self?.ended = true
            self?.wake()
        }
    }

    deinit {
        reader?.cancel()
    }

    /// The next pieces, at most `limit` lines' worth: at least one unless the input has ended
    /// (then none). Once one line is there, lines that follow within `gathering` join it. A
    /// piece of a long line counts as the short lines its sentences would make
    /// (`shortLineCharacters` each), so a group holds about as many sentences either way.
    func next(limit: Int, gathering: Duration = .milliseconds(20)) async -> [InputPiece] {
        var taken: [InputPiece] = []
        var worth = 0
        while worth < limit {
            if var long = longLine {
                while worth < limit, let piece = long.next() {
                    taken.append(piece)
                    worth += max(1, (piece.text?.utf8.count ?? 0) / Self.shortLineCharacters)
                }
                longLine = taken.last?.endsLine == true ? nil : long
                continue
            }
            if lines.isEmpty {
                if !taken.isEmpty { break }
                while lines.isEmpty, !ended, !Task.isCancelled { await waitForMore() }
                if lines.count < limit, !ended, !Task.isCancelled {
                    let deadline = ContinuousClock.now + gathering
                    while lines.count < limit, !ended, ContinuousClock.now < deadline, !Task.isCancelled {
                        try? await Task.sleep(for: .milliseconds(2))
                    }
                }
                if lines.isEmpty { break }
            }
            let line = lines.removeFirst()
            source.taken(1)
            if let long = LongLine(line) {
                longLine = long
            } else {
                taken.append(InputPiece(line: line))
                worth += 1
            }
        }
        return taken
    }

    /// What a short line holds, for counting a long line's pieces as lines.
    static let shortLineCharacters = 100

    private func waitForMore() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if !lines.isEmpty || ended || Task.isCancelled {
                    continuation.resume()
                } else {
                    waiter = continuation
                }
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.wake() }
        }
    }

    private func wake() {
        waiter?.resume()
        waiter = nil
    }
}

/// Writes the answers to a group of lines in input order while they are made out of order:
/// the first line not yet written streams as it comes, the ones after it wait their turn, and
/// each is written the moment it and those before it are done.
@MainActor
final class OrderedAnswers {
    enum Answer {
        /// Text streamed so far (what has been written of it, for the line at the head).
        case streaming(String)
        /// Finished: the rest of its text and the line that ends it.
        case done(text: String, end: String)
    }

    private var answers: [Answer]
    private(set) var head = 0
    private let write: (String) -> Void
    /// Told each place once its answer is all written.
    var onWritten: ((Int) -> Void)?

    init(count: Int, write: @escaping (String) -> Void) {
        answers = Array(repeating: .streaming(""), count: count)
        self.write = write
    }

    var isComplete: Bool { head == answers.count }

    /// More text of line `index` (only appended: what a line shows never changes).
    func add(_ text: String, to index: Int) {
        guard case .streaming(let sofar) = answers[index], !text.isEmpty else { return }
        if index == head {
            write(text)
        } else {
            answers[index] = .streaming(sofar + text)
        }
    }

    /// Line `index` is finished: `rest` is what its text still lacks, `end` its line end (a
    /// newline, or a JSON object and a newline).
    func finish(_ index: Int, rest: String = "", end: String) {
        guard case .streaming(let sofar) = answers[index] else { return }
        answers[index] = .done(text: index == head ? rest : sofar + rest, end: end)
        flush()
    }

    private func flush() {
        while head < answers.count {
            switch answers[head] {
            case .done(let text, let end):
                write(text + end)
                onWritten?(head)
                head += 1
                // The next line's waiting text goes out now, and streams from here on.
                if head < answers.count, case .streaming(let waiting) = answers[head], !waiting.isEmpty {
                    write(waiting)
                    answers[head] = .streaming("")
                }
            case .streaming:
                return
            }
        }
    }
}
