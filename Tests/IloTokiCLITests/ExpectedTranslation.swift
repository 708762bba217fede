import Foundation
import IloTokiCore
import IloTokiEngineLive
import Testing

/// What the command line must print for a text: the same translation made in this process,
/// through Core's `Translator` over the live engine (greedy decoding gives the same tokens
/// every time), so a test compares the output with the value itself, not with "not empty".
enum ExpectedTranslation {
    /// The whole translation of `text` with the model file at `path`.
    static func of(_ text: String, _ direction: TranslationDirection, model path: String, threads: Int? = nil) async throws -> String {
        let engine = try await LiveEngineLoader(options: .init(threads: threads)).load(path: path)
        var final = ""
        for try await progress in Translator(engine: engine, format: .sourceTarget).translate(text, direction: direction) {
            final = progress.text
        }
        await engine.stopAndWait()
        return final
    }

    /// Checks that `stdout`, cut short by a signal, is the beginning of the translation of
    /// `lines` (translated line by line, as the command does).
    static func expectBeginning(
        _ stdout: String, ofLines lines: [String], _ direction: TranslationDirection, model path: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        // Only the lines the output reached need translating here.
        let reached = min(stdout.split(separator: "\n", omittingEmptySubsequences: false).count, lines.count)
        var expected: [String] = []
        for line in lines.prefix(reached) { expected.append(try await of(line, direction, model: path)) }
        let whole = expected.joined(separator: "\n")
        #expect(!stdout.isEmpty && whole.hasPrefix(stdout), "'\(stdout)' begins '\(whole)'", sourceLocation: sourceLocation)
    }
}
