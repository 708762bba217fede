import Foundation
import IloTokiCore

/// The objects `ilotoki translate --json` writes, one per line of input, keys always in the
/// documented order: `{"from","to","source","result","model","tokens","timings","residency"}` for a
/// translation, `{"from","to","source","result"}` for an empty line, and
/// `{"from","to","source","error"}` for a line that failed (`from`/`to` null when no
/// direction could be chosen, `source` null when the line was not text).
enum TranslationJSON {
    @MainActor
    static func object(_ text: String, direction: TranslationDirection, progress: TranslationProgress, model: TranslatorModel) -> String {
        object(text, direction: direction, result: progress.text, stats: progress.stats, model: model)
    }

    /// A translation from its parts (a long line's pieces summed).
    @MainActor
    static func object(_ text: String, direction: TranslationDirection, result: String, stats: TranslationStats, model: TranslatorModel)
        -> String
    {
        "{\(head(direction, source: text)),\"result\":\(string(result)),\"model\":\(string(modelName(model))),"
            + "\"tokens\":{\"prompt\":\(stats.promptTokens),\"generated\":\(stats.generatedTokens)},"
            + "\"timings\":{\"prefill_ms\":\(number(stats.prefillMilliseconds)),\"decode_ms\":\(number(stats.decodeMilliseconds)),"
            + "\"first_piece_ms\":\(number(stats.firstPieceMilliseconds)),\"decode_tokens_per_second\":\(number(stats.decodeTokensPerSecond)),"
            + "\"restore_ms\":\(number(stats.restoreMilliseconds))},"
            + "\"residency\":{\"resident_before\":\(number(stats.residentFraction)),\"restored_bytes\":\(stats.restoredBytes)}}"
    }

    /// An empty (or blank) line: answered, with nothing to translate.
    static func empty(_ text: String, direction: TranslationDirection) -> String {
        "{\(head(direction, source: text)),\"result\":\"\"}"
    }

    /// A line that could not be translated, and why.
    static func failure(source: String?, direction: TranslationDirection?, message: String) -> String {
        "{\(head(direction, source: source)),\"error\":\(string(message))}"
    }

    private static func head(_ direction: TranslationDirection?, source: String?) -> String {
        "\"from\":\(direction.map { string($0.source.code) } ?? "null"),\"to\":\(direction.map { string($0.target.code) } ?? "null"),"
            + "\"source\":\(source.map(string) ?? "null")"
    }

    /// The loaded model's id, or the file named with `--model PATH`.
    @MainActor
    static func modelName(_ model: TranslatorModel) -> String {
        switch model.loadedModel {
        case .sideloaded(let file)? where file.id == SideloadedModel.sessionFileID: file.path
        case let choice?: choice.id
        case nil: ""
        }
    }

    private static func string(_ value: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    private static func number(_ value: Double) -> String { String(format: "%.1f", value.isFinite ? value : 0) }
}
