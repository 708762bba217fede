import IloTokiCore

/// The fixed translation prompts `ilotoki bench` runs: every direction, short and long
/// sentences. Checked in, so figures from different runs and machines compare.
enum BenchmarkPrompts {
    struct Prompt {
        let direction: TranslationDirection
        let text: String
    }

    static let texts: [Language: [String]] = [
        .tokiPona: [
            "toki!",
            "jan li moku e kili.",
            "mi olin e sina.",
            "tenpo suno ni la mi mute li tawa ma tomo suli li lukin e jan mute pi pona lukin.",
            "jan lili li musi lon ma kasi, taso mama ona li toki e ni: o kama lon tomo tan ni: tenpo pimeja li kama.",
            "sina wile sona e toki pona la o lukin e lipu pu, o kute e jan ante, o toki mute, o pilin ala e ike tan pakala lili.",
        ],
        .english: [
            "Hello!",
            "The person eats fruit.",
            "I love you.",
            "Today we are going to the big city to look at many beautiful people and buildings.",
            "The little child plays in the garden, but her mother says: come home, because the night is coming.",
            "If you want to learn Toki Pona, read the book, listen to other people, speak a lot, and do not worry about small mistakes.",
        ],
        .russian: [
            "Привет!",
            "Человек ест фрукты.",
            "Я тебя люблю.",
            "Сегодня мы едем в большой город, чтобы посмотреть на красивых людей и высокие дома.",
            "Маленький ребёнок играет в саду, но мама говорит ему: иди домой, потому что наступает ночь.",
            "Если хочешь выучить токипону, читай книгу, слушай других людей, много говори и не бойся маленьких ошибок.",
        ],
        .vietnamese: [
            "Xin chào!",
            "Người ăn trái cây.",
            "Tôi yêu bạn.",
            "Hôm nay chúng tôi đi đến thành phố lớn để ngắm nhìn nhiều người và những tòa nhà đẹp.",
            "Đứa trẻ chơi trong vườn, nhưng mẹ nó nói: về nhà đi, vì trời sắp tối rồi.",
            "Nếu bạn muốn học tiếng Toki Pona, hãy đọc sách, lắng nghe người khác, nói thật nhiều và đừng lo về những lỗi nhỏ.",
        ],
    ]

    /// 36 prompts: six directions, each with three short and three long sentences.
    static var all: [Prompt] {
        TranslationDirection.all.flatMap { direction in
            (texts[direction.source] ?? []).map { Prompt(direction: direction, text: $0) }
        }
    }

    /// Three example translations into the prompt's target language, in the model's format,
    /// before the prompt itself: the base test model then answers in that language (into Toki
    /// Pona it writes Toki Pona, which exercises the small → Toki Pona head), as a translator
    /// would.
    static func fewShot(_ prompt: TranslationPrompt, direction: TranslationDirection, format: PromptFormat) -> TranslationPrompt {
        let sources = texts[direction.source] ?? []
        let targets = texts[direction.target] ?? []
        let examples = zip(sources, targets).prefix(3).map { source, target in
            format.translationPrompt(for: source, direction: direction).prompt + " " + target
        }
        return TranslationPrompt(
            sourceText: prompt.sourceText, prompt: (examples + [prompt.prompt]).joined(separator: "\n"),
            targetLanguage: prompt.targetLanguage,
            stopSequences: prompt.stopSequences, maxLines: prompt.maxLines)
    }
}
