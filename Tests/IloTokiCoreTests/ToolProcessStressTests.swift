import Foundation
import IloTokiTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The tests' way of running tools, many at once: every byte a child writes on either pipe is
/// read, children killed in the middle of writing end cleanly, and nothing crashes the
/// process. `ILOTOKI_STRESS_PROCESSES` sets how many children (scripts/stress-swift-tests.sh
/// runs 2,000; the suite's own run, 200).
@Suite struct ToolProcessStressTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    /// What child `index` writes: `lines` numbered lines on standard output and as many on
    /// standard error, each side with its own words, so a byte lost or swapped shows.
    static func expected(_ index: Int, lines: Int, pipe: String) -> String {
        (0..<lines).map { "\(pipe) \(index) \($0) \(String(repeating: "x", count: $0 % 97))\n" }.joined()
    }

    /// A child that writes both pipes in turns, with the shell's builtins only. Line lengths
    /// vary so that the long children's writes straddle the pipe buffer's size.
    static func script(_ index: Int, lines: Int) -> String {
        """
        i=0; pad=""
        while [ $i -lt \(lines) ]; do
          printf 'out \(index) %d %s\\n' $i "$pad"
          printf 'err \(index) %d %s\\n' $i "$pad" >&2
          i=$((i + 1)); pad="${pad}x"; [ ${#pad} -lt 97 ] || pad=""
        done
        """
    }

    /// A child that writes numbered lines on both pipes until it is killed.
    static let endless = #"i=0; while :; do echo "out $i"; echo "err $i" >&2; i=$((i + 1)); done"#

    @Test func manyShortChildrenFromEightTasksLoseNoByteAndKilledOnesEndCleanly() async throws {
        let count = ProcessInfo.processInfo.environment["ILOTOKI_STRESS_PROCESSES"].flatMap(Int.init) ?? 200
        let next = Counter()
        let failures = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    while true {
                        let index = next.take()
                        guard index < count else { return }
                        if !(try await Self.runOne(index)) { _ = failures.take() }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(failures.value == 0, "\(failures.value) of \(count) children lost or changed bytes")
    }

    /// Runs child `index`: every tenth is killed while it writes; the others write a few lines,
    /// or (every seventh) enough to fill the pipes many times over.
    static func runOne(_ index: Int) async throws -> Bool {
        if index % 10 == 3 {
            let tool = try ToolProcess(shell, ["-c", endless], environment: [:])
            try await tool.waitForStdout { $0.contains("out 50\n") }
            tool.signal(SIGKILL)
            let result = await tool.wait(timeout: .seconds(60))
            // Killed mid-write: what came is every line from the first, in order, up to the one
            // being written (which may be cut).
            let complete = Self.isNumberedPrefix(result.stdout, "out") && Self.isNumberedPrefix(result.stderr, "err")
            if result.status != 128 + SIGKILL || !complete {
                Issue.record(
                    "killed child \(index): status \(result.status), stdout \(result.stdout.suffix(40)), stderr \(result.stderr.suffix(40))"
                )
                return false
            }
            return true
        }
        let lines = index % 7 == 0 ? 2_000 : 3
        let result = try await ToolProcess.run(shell, ["-c", script(index, lines: lines)], environment: [:], timeout: .seconds(120))
        let stdoutRight = result.stdout == expected(index, lines: lines, pipe: "out")
        let stderrRight = result.stderr == expected(index, lines: lines, pipe: "err")
        if result.status != 0 || !stdoutRight || !stderrRight {
            let stdoutSays = "\(result.stdout.utf8.count) bytes on stdout (\(stdoutRight ? "right" : "wrong"))"
            let stderrSays = "\(result.stderr.utf8.count) on stderr (\(stderrRight ? "right" : "wrong"))"
            Issue.record("child \(index): status \(result.status), \(stdoutSays), \(stderrSays)")
            return false
        }
        return true
    }

    /// Whether `text` is `name 0`, `name 1`, … one per line, the last line possibly cut.
    static func isNumberedPrefix(_ text: String, _ name: String) -> Bool {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, line) in lines.enumerated() {
            let whole = "\(name) \(number)"
            if number == lines.count - 1 {
                // The last piece: cut anywhere, or empty after the final newline.
                if !whole.hasPrefix(line) { return false }
            } else if line != whole {
                return false
            }
        }
        return lines.count > 50
    }

    /// A count shared by the tasks.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        /// The count before this call; it goes up by one.
        func take() -> Int {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            return count - 1
        }

        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
    }
}
