import IloTokiCore

/// The lines of standard input as they arrive, handed out in groups: what is there now, up to
/// a number. A pipe from a file gives whole groups at once; a slow producer (`tail -f`) is
/// never waited for beyond a moment, so each of its lines is translated as soon as it comes.
@MainActor
final class LineQueue {
    private var lines: [StandardInput.Line] = []
    private var ended = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var reader: Task<Void, Never>?

    init(_ source: AsyncStream<StandardInput.Line>) {
        reader = Task { @MainActor [weak self] in
            for await line in source {
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

    /// The next lines, at most `limit`: at least one unless the input has ended (then none).
    /// Once one line is there, lines that follow within `gathering` join it.
    func next(limit: Int, gathering: Duration = .milliseconds(20)) async -> [StandardInput.Line] {
        while lines.isEmpty, !ended, !Task.isCancelled { await waitForMore() }
        if lines.count < limit, !ended, !Task.isCancelled {
            let deadline = ContinuousClock.now + gathering
            while lines.count < limit, !ended, ContinuousClock.now < deadline, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        let taken = Array(lines.prefix(limit))
        lines.removeFirst(taken.count)
        return taken
    }

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
