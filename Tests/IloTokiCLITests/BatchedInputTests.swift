import Foundation
import IloTokiTestSupport
import Testing

/// Lines of standard input decoded together (`--batch`) on Gemma 3 270M: the answers are the
/// ones `--batch 1` gives, in input order, one line each, with the lines that fail in the
/// middle of a batch answered in their place.
@Suite(.exclusiveModelUse) struct BatchedInputTests {
    let home = TemporaryDirectory("cli-batch")
    let ilotoki = ToolProcess.executable("ilotoki")

    static var input: Data {
        var data = Data("Hello! How are you?\nmi moku e kili. sina lape.\n\n".utf8)
        data.append(contentsOf: [0x66, 0xFF, 0xFE, 0x0A])  // line 4: not UTF-8
        data.append(Data("Я тебя люблю.\n".utf8))
        // Line 6: one sentence too long to translate, with nowhere to split it.
        data.append(Data(((1...400).map { "nimi\($0)" }.joined(separator: " ") + ".\n").utf8))
        data.append(Data("Tôi yêu bạn. Xin chào!\ntoki!\nThe little child plays in the garden.\njan lili li musi.\n".utf8))
        return data
    }

    func run(_ arguments: [String]) async throws -> ToolProcess.Result {
        let gemma = try TestModels.require(TestModels.gemma)
        let tool = try ToolProcess(
            ilotoki, ["translate", "--model", gemma, "--threads", "2"] + arguments,
            environment: ["ILOTOKI_HOME": home.path, "NO_COLOR": "1"])
        tool.write(Self.input)
        tool.closeInput()
        return await tool.wait()
    }

    func objects(_ result: ToolProcess.Result) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    @Test func batchedAnswersAreTheOneByOneAnswersInOrder() async throws {
        let oneByOne = try await run(["--json", "--batch", "1"])
        let batched = try await run(["--json", "--batch", "8"])
        for result in [oneByOne, batched] {
            #expect(result.status == 1, "two lines fail")
            #expect(result.stderr.contains("line 4 of standard input is not valid UTF-8"))
            #expect(result.stderr.contains("line 6: The sentence that begins \"nimi1 nimi2"))
        }
        let one = try objects(oneByOne)
        let many = try objects(batched)
        try #require(one.count == 10 && many.count == 10, "one answer per line")
        #expect(many.map { $0["source"] as? String } == one.map { $0["source"] as? String })
        #expect(many.map { $0["result"] as? String } == one.map { $0["result"] as? String })
        #expect(many[3]["error"] as? String == "not valid UTF-8 text")
        #expect((many[5]["error"] as? String)?.contains("too long") == true)
        #expect(many[2]["result"] as? String == "")
        // Without --json the same text, line for line.
        let plain = try await run(["--batch", "8"])
        let lines = plain.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == 10)
        #expect(lines == one.map { $0["result"] as? String ?? "" })
    }
}
