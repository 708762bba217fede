/// A few phrases offered on an empty source plate, in its language (tap to use).
public enum SamplePhrases {
    public static func phrases(in language: Language) -> [String] {
        switch language {
        case .tokiPona: ["toki! sina pona lukin.", "jan li moku e kili.", "mi olin e sina.", "tenpo suno ni li pona."]
        case .english: ["Good morning!", "I love you.", "Where is the library?", "The cat sleeps in the sun."]
        case .russian: ["Доброе утро!", "Я тебя люблю.", "Где библиотека?", "Кошка спит на солнце."]
        case .vietnamese: ["Chào buổi sáng!", "Tôi yêu bạn.", "Thư viện ở đâu?", "Con mèo ngủ dưới nắng."]
        }
    }
}
