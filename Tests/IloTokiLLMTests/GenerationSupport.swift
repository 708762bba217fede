import IloTokiLLM

/// The prompts the generation tests use, in the product's `sourceTarget` format. Gemma
/// 270M is not a translator: on these it echoes the source or opens a new labelled line,
/// which is all the plumbing tests need.
enum Prompts {
    static let englishToTokiPona = "Translate this from English to Toki Pona:\nEnglish: I love you\nToki Pona:"
    static let tokiPonaToEnglish = "Translate this from Toki Pona to English:\nToki Pona: jan li moku e kili\nEnglish:"
    static let russianToTokiPona = "Translate this from Russian to Toki Pona:\nRussian: Я тебя люблю\nToki Pona:"
    static let vietnameseToTokiPona = "Translate this from Vietnamese to Toki Pona:\nVietnamese: Tôi yêu bạn\nToki Pona:"
}

/// One finished generation.
struct Generation {
    var pieces: [String]
    var stats: GenerationStats
    var text: String { pieces.joined() }
}

extension Engine {
    /// Runs a generation to its end and collects what it streamed.
    func collect(_ prompt: String, _ options: GenerationOptions = GenerationOptions()) async throws -> Generation {
        var pieces: [String] = []
        var stats: GenerationStats?
        for try await event in events(prompt: prompt, options: options) {
            switch event {
            case .piece(let piece): pieces.append(piece)
            case .finished(let figures): stats = figures
            }
        }
        guard let stats else { throw GenerationDidNotFinish() }
        return Generation(pieces: pieces, stats: stats)
    }
}

struct GenerationDidNotFinish: Error {}
