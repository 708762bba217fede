import Foundation
import IloTokiCore
import IloTokiLocking
import IloTokiTestSupport
import Testing

@testable import IloTokiCLI

/// A long line handed out in pieces that end where its sentences end.
@Suite struct LongLineTests {
    static func pieces(of text: String) throws -> [InputPiece] {
        var long = try #require(LongLine(StandardInput.Line(number: 7, text: text, endOffset: Int64(text.utf8.count + 1))))
        var pieces: [InputPiece] = []
        while let piece = long.next() { pieces.append(piece) }
        return pieces
    }

    @Test func aLongLineComesBackWholeFromItsPiecesAndNoSentenceIsCut() throws {
        let sentences = (1...900).map { "Sentence number \($0) says «Dr. Smith came. He left.» and ends here\($0 % 7 == 0 ? "!" : ".")" }
        let line = sentences.enumerated().map { $0.offset == 0 ? $0.element : ($0.offset % 2 == 0 ? "  " : " ") + $0.element }.joined()
        let pieces = try Self.pieces(of: line)
        try #require(pieces.count > 10)
        #expect(pieces.first?.beginsLine == true && pieces.dropFirst().allSatisfy { !$0.beginsLine })
        #expect(pieces.last?.endsLine == true && pieces.dropLast().allSatisfy { !$0.endsLine })
        #expect(pieces.allSatisfy { $0.number == 7 })
        #expect(pieces.map { ($0.text ?? "") + $0.spacing }.joined() == line)
        for piece in pieces.dropLast() {
            let text = try #require(piece.text)
            #expect(text.count <= LongLine.pieceCharacters + 120, "about a piece's worth: \(text.count)")
            #expect(text.hasSuffix(".") || text.hasSuffix("!"), "ends where a sentence ends: …\(text.suffix(30))")
            #expect(!piece.spacing.isEmpty)
        }
    }

    @Test func aSentenceLongerThanAPieceIsAPieceOfItsOwn() throws {
        let long = (1...1500).map { "word\($0)" }.joined(separator: " ") + "."
        let line = "A short one. " + long + " Another short one. " + String(repeating: "And more text here. ", count: 500)
        let pieces = try Self.pieces(of: line)
        #expect(pieces.contains { $0.text == long || ($0.text ?? "").hasSuffix(long) })
        #expect(pieces.map { ($0.text ?? "") + $0.spacing }.joined() == line.trimmingCharacters(in: .whitespaces))
    }

    @Test func aShortLineGoesWhole() {
        #expect(LongLine(StandardInput.Line(number: 1, text: String(repeating: "mi moku. ", count: 100))) == nil)
        #expect(LongLine(StandardInput.Line(number: 1, text: nil)) == nil)
    }
}

/// Standard input read on its own thread, at most `capacity` lines ahead of the translation.
@Suite struct StandardInputTests {
    /// A pipe holding `lines`, its writing end closed.
    static func pipe(holding lines: [String]) throws -> Int32 {
        var ends: [Int32] = [0, 0]
        try #require(Glibc.pipe(&ends) == 0)
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        try #require(bytes.count < 60_000, "fits the pipe's buffer")
        try #require(write(ends[1], bytes, bytes.count) == bytes.count)
        close(ends[1])
        return ends[0]
    }

    @Test func theReaderStaysAtMostItsCapacityAhead() async throws {
        let descriptor = try Self.pipe(holding: (1...10).map { "line \($0)" })
        defer { close(descriptor) }
        let lines = StandardInput.lines(capacity: 3, from: descriptor)
        let numbers = Locked<[Int]>([])
        let reading = Task {
            for await line in lines.stream { numbers.withLock { $0.append(line.number) } }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while numbers.withLock({ $0.count }) < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        // The fourth line waits for a slot: it does not come while none is freed.
        try await Task.sleep(for: .milliseconds(300))
        #expect(numbers.withLock { $0 } == [1, 2, 3], "the reader runs no further than its capacity")
        lines.taken(2)
        while numbers.withLock({ $0.count }) < 5, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(numbers.withLock { $0 } == [1, 2, 3, 4, 5])
        lines.taken(8)
        await reading.value
        #expect(numbers.withLock { $0 } == Array(1...10))
    }

    /// Ctrl-C ends a run with lines read but not yet translated: letting go of them then ends
    /// the reader and frees what it held without stopping the process (a `DispatchSemaphore`
    /// freed below its first value did, in one interrupted run in eight).
    @Test func linesLetGoWhileTheReaderIsAheadEndTheReader() async throws {
        let descriptor = try Self.pipe(holding: (1...10).map { "line \($0)" })
        defer { close(descriptor) }
        weak var slots: StandardInput.Slots?
        do {
            let lines = StandardInput.lines(capacity: 4, from: descriptor)
            slots = lines.slots
            var iterator = lines.stream.makeAsyncIterator()
            #expect(await iterator.next()?.number == 1)
            #expect(await iterator.next()?.number == 2)
            try await Task.sleep(for: .milliseconds(100))  // the reader waits for a slot, four lines ahead
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while slots != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(slots == nil, "the reader still waits for a slot nobody will free")
    }
}

/// Text of any length through the command line, with the tiny model and a small output bound
/// (`--max-tokens 4`: the plumbing, not the model, is under test).
@Suite(.exclusiveModelUse) struct LongInputTests {
    let home = TemporaryDirectory("cli-long")
    let ilotoki = ToolProcess.executable("ilotoki")

    var environment: [String: String] { ["ILOTOKI_HOME": home.path, "NO_COLOR": "1"] }

    func translate(_ arguments: [String], input: String = "") async throws -> ToolProcess.Result {
        let tiny = try TestModels.require(TestModels.tiny)
        return try await ToolProcess.run(
            ilotoki, ["translate", "--model", tiny, "--from", "tok", "--max-tokens", "4"] + arguments, environment: environment,
            input: Data(input.utf8))
    }

    @Test func aLineLongerThanTheContextIsTranslatedWholeAsAnArgumentAndOnStandardInput() async throws {
        let line = (1...200).map { "jan nanpa \($0) li moku e kili mute lon tomo." }.joined(separator: " ")
        #expect(line.utf8.count > 4 * LongLine.pieceCharacters, "long enough to go in pieces on standard input")
        let whole = try await translate(["--json", line])
        #expect(whole.status == 0, "\(whole.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any])
        let tokens = try #require(object["tokens"] as? [String: Int])
        #expect((tokens["prompt"] ?? 0) > 2048 * 2, "more than the context holds (the text alone is), every sentence its own prompt")
        let result = try #require(object["result"] as? String)
        #expect(!result.isEmpty && !result.contains("\n"))

        // On standard input the line goes in pieces: the same translation, one line of output.
        let piped = try await translate([], input: line + "\nmi moku.\n")
        #expect(piped.status == 0, "\(piped.stderr)")
        let lines = piped.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 3, "two lines and the final newline: \(piped.stdout.prefix(300))")
        #expect(lines[0] == result)
        #expect(!lines[1].isEmpty && lines[2].isEmpty)
        #expect(piped.stderr.isEmpty)

        // --json on standard input: still one object for the long line, with its whole source.
        let json = try await translate(["--json"], input: line + "\n")
        let objects = json.stdout.split(separator: "\n")
        try #require(objects.count == 1)
        let pieced = try #require(try JSONSerialization.jsonObject(with: Data(objects[0].utf8)) as? [String: Any])
        #expect(pieced["source"] as? String == line)
        #expect(pieced["result"] as? String == result)
    }

    @Test func aLongSentenceIsSplitAtItsCommasAndOneWithoutBreaksIsRefusedByLineNumber() async throws {
        let commas = (1...375).map { "clause number \($0) of a very long sentence" }.joined(separator: ", ") + "."
        let unbroken = (1...1000).map { "word\($0)" }.joined(separator: " ") + "."
        let result = try await translate([], input: "\(commas)\n\(unbroken)\nmi moku. sina lape.\n")
        #expect(result.status == 1, "a line failed")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 4, "one line of output per line of input: \(result.stdout.prefix(300))")
        #expect(!lines[0].isEmpty, "split at its commas and translated")
        #expect(lines[1].isEmpty, "refused")
        #expect(!lines[2].isEmpty, "the lines after it are translated")
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: line 2: The sentence that begins \"word1 word2 word3 word4 word5 word6…\" is too long"))
        #expect(result.stderr.contains("no comma, semicolon, colon or dash"))
    }

    @Test func standardOutputCarriesOnlyTranslationsAndTheTerminalOneProgressLineThatIsErased() async throws {
        let input = home.file("input.txt")
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        let text = (1...30).map { "jan nanpa \($0) li lape. ona li pona." }.joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: input)
        let tiny = try TestModels.require(TestModels.tiny)
        let command = "\(ilotoki.path) translate --model \(tiny) --from tok --max-tokens 4"

        // Without a terminal: the reference output, and nothing else on either stream.
        let plain = try await translate([], input: text)
        #expect(plain.status == 0)
        #expect(plain.stderr.isEmpty)
        #expect(plain.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == 31)

        // Standard error on a terminal (script(1)), standard output to a file.
        for (name, quiet) in [("shown", false), ("quiet", true)] {
            let output = home.file("\(name).txt")
            let tool = try ToolProcess(
                URL(fileURLWithPath: "/usr/bin/script"),
                ["-qefc", "\(command)\(quiet ? " --quiet" : "") < \(input.path) > \(output.path)", "/dev/null"],
                environment: environment.merging(["ILOTOKI_PROGRESS_AFTER": "0"]) { $1 })
            let result = await tool.wait()
            #expect(result.status == 0)
            #expect(try String(contentsOf: output, encoding: .utf8) == plain.stdout, "standard output: the translations only")
            let terminal = result.stdout
            if quiet {
                #expect(terminal.isEmpty, "--quiet: nothing on the terminal: \(terminal)")
            } else {
                #expect(terminal.contains(" of 60 sentences"), "\(terminal.suffix(200))")
                #expect(terminal.contains("% of the input"))
                #expect(terminal.contains("60 of 60 sentences") || terminal.contains("a second"))
                #expect(terminal.hasSuffix("\r\u{1B}[2K"), "erased at the end: \(terminal.suffix(80).debugDescription)")
                #expect(!terminal.contains("\n"), "one line, redrawn in place")
            }
        }
    }
}

/// `ilotoki translate --file`: subtitles cue by cue, text files line by line, never over the input.
@Suite(.exclusiveModelUse) struct FileTranslationTests {
    let home = TemporaryDirectory("cli-file")
    let ilotoki = ToolProcess.executable("ilotoki")

    var environment: [String: String] { ["ILOTOKI_HOME": home.file("home").path, "NO_COLOR": "1"] }

    func translate(_ arguments: [String], input: String = "") async throws -> ToolProcess.Result {
        let tiny = try TestModels.require(TestModels.tiny)
        return try await ToolProcess.run(
            ilotoki, ["translate", "--model", tiny, "--from", "en", "--max-tokens", "6"] + arguments, environment: environment,
            input: Data(input.utf8))
    }

    @Test func subtitlesKeepTheirNumbersTimesAndLines() async throws {
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        let source = home.file("film.srt")
        let subtitles =
            "1\n00:00:01,000 --> 00:00:03,500\nHello, my friend!\n\n2\n00:00:04,000 --> 00:00:07,250\nThe little child plays\nin the garden with the dog.\n\n3\n00:00:08,000 --> 00:00:09,000\nWhere is the water?\n"
        try Data(subtitles.utf8).write(to: source)
        let target = home.file("film.tok.srt")
        let result = try await translate(["--file", source.path, "--output", target.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        let written = try SubRip(parsing: try String(contentsOf: target, encoding: .utf8))
        let original = try SubRip(parsing: subtitles)
        try #require(written.cues.count == 3)
        #expect(written.cues.map(\.number) == ["1", "2", "3"])
        #expect(written.cues.map(\.timing) == original.cues.map(\.timing))
        #expect(written.cues.map(\.lines.count) == [1, 2, 1], "the two-line cue is two lines again")
        // Each cue is its own text: what it says is what the cue alone translates to.
        for (index, cue) in original.cues.enumerated() {
            let alone = try await translate([cue.text])
            #expect(written.cues[index].lines.joined(separator: " ") == alone.stdout.trimmingCharacters(in: .newlines))
        }
        // To standard output without --output: the same file.
        let streamed = try await translate(["--file", source.path])
        #expect(streamed.stdout == (try String(contentsOf: target, encoding: .utf8)))
    }

    @Test func aTextFileIsTranslatedLineByLineAndNeverOverItself() async throws {
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        let source = home.file("letter.txt")
        let text = "Hello, my friend!\n\nWhere is the water? I am thirsty.\n"
        try Data(text.utf8).write(to: source)
        let target = home.file("letter.tok.txt")
        let result = try await translate(["--file", source.path, "-o", target.path])
        #expect(result.status == 0, "\(result.stderr)")
        let piped = try await translate([], input: text)
        #expect(try String(contentsOf: target, encoding: .utf8) == piped.stdout, "the same as the lines on standard input")

        for output in [source.path, home.path + "/./letter.txt"] {
            let refused = try await translate(["--file", source.path, "--output", output])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("is the input file"))
        }
        let link = home.file("link.txt")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: source)
        #expect(try await translate(["--file", source.path, "--output", link.path]).status == 2, "the same file under another name")
        #expect(try String(contentsOf: source, encoding: .utf8) == text, "the input is untouched")
        let missing = try await translate(["--file", home.file("none.txt").path])
        #expect(missing.status == 1 && missing.stderr.contains("none.txt"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasSuffix(".part") }
        #expect(leftovers.isEmpty)
    }
}
