import Foundation
import IloTokiTestSupport
import Testing

/// The trimmed output head gives llama.cpp's full head's tokens, exactly: `ilotoki bench` runs
/// the 36 benchmark prompts (all six directions) with each head on Gemma 3 270M, and every
/// prompt's token ids must be the same. The base model answers many "→ Toki Pona" and
/// "→ Russian" prompts in English, so the checks find tokens outside the kept rows, the
/// rollback path runs and the kept set widens to the four languages' rows; the test requires
/// that both happened, and that a rollback was decided by its rows' exact values.
@Suite(.exclusiveModelUse) struct TrimmedHeadTests {
    let home = TemporaryDirectory("trimmed-head")
    let ilotoki = ToolProcess.executable("ilotoki")

    struct Report: Decodable {
        struct Run: Decodable {
            struct Prompt: Decodable {
                let index: Int
                let direction: String
                let targetLanguage: String
                let tokens: [Int32]
                let headRows: Int
                let headChecks: Int
                let headRollbacks: Int
                let headFullSteps: Int
                let headExactChoices: Int
                let headFellBack: Bool
                let headWidened: Bool
            }
            let prompts: [Prompt]
        }
        let head: String
        let trimmedHeadAvailable: Bool
        let runs: [Run]
    }

    func bench(head: String) async throws -> [Report.Run.Prompt] {
        let gemma = try TestModels.require(TestModels.gemma)
        let result = try await ToolProcess.run(
            ilotoki, ["bench", "--model", gemma, "--threads", "2", "--max-tokens", "32", "--head", head, "--json"],
            environment: ["ILOTOKI_HOME": home.path, "NO_COLOR": "1"],
            // 36 prompts of 32 tokens: under a minute alone, several on a machine that is busy.
            timeout: .seconds(600))
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        #expect(report.head == head)
        #expect(report.trimmedHeadAvailable)
        return try #require(report.runs.first).prompts
    }

    @Test func everyBenchmarkPromptGivesTheFullHeadsTokens() async throws {
        let full = try await bench(head: "full")
        let trimmed = try await bench(head: "trimmed")
        #expect(full.count == 36 && trimmed.count == 36)
        #expect(Set(full.map(\.direction)).count == 6)
        for (reference, candidate) in zip(full, trimmed) {
            #expect(candidate.tokens == reference.tokens, "prompt \(reference.index) (\(reference.direction))")
            #expect(!reference.tokens.isEmpty)
            #expect(reference.headRows == 262_144 && reference.headChecks == 0)
        }
        // → Toki Pona and → Russian keep a small set of rows, → English and → Vietnamese a large
        // one; a prompt whose output left its set went on with the four languages' rows.
        let wide = 262_144 * 7 / 10
        for prompt in trimmed {
            switch (prompt.targetLanguage, prompt.headWidened || prompt.headFellBack) {
            case ("tok", false), ("ru", false): #expect(prompt.headRows < 262_144 / 5, "prompt \(prompt.index)")
            case (_, false): #expect(prompt.headRows < wide, "prompt \(prompt.index)")
            case (_, true): #expect(prompt.headRollbacks > 0 && (prompt.headFellBack || prompt.headRows < wide), "prompt \(prompt.index)")
            }
        }
        #expect(trimmed.contains { $0.headWidened }, "no prompt widened its set")
        let checked = trimmed.filter { $0.headChecks > 0 }
        let rolledBack = trimmed.filter { $0.headRollbacks > 0 }
        #expect(!checked.isEmpty)
        #expect(!rolledBack.isEmpty, "no prompt took the rollback path")
        // Each rollback's step was chosen again: by the exact values of the rows it was about,
        // or with llama.cpp's head; the exact values decided some, with the full head's tokens.
        #expect(rolledBack.allSatisfy { $0.headFullSteps + $0.headExactChoices >= $0.headRollbacks })
        #expect(rolledBack.contains { $0.headExactChoices > 0 }, "no rollback was decided by its rows' exact values")
    }
}
