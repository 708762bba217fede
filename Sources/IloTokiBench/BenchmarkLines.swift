import Foundation
import IloTokiCore

/// The lines `ilotoki bench --lines set` translates as a person's input would be: short everyday
/// sentences of their own lengths, 32 English, 32 Russian and 16 Vietnamese into Toki Pona and
/// 32 Toki Pona into English, each answer ending at its line's end. Written for the bench and
/// checked in, so figures from different runs and machines compare.
enum BenchmarkLines {
    static let english = [
        "Hello.", "Good morning, friend.", "Where is the water?", "I am hungry.", "The dog sleeps under the table.",
        "My mother cooks rice every evening.", "We walked to the lake yesterday.", "Can you help me, please?", "The sun is hot today.",
        "I do not understand.", "She reads a book in the garden.", "The children are playing outside.", "This fruit is very sweet.",
        "Thank you for the food.", "My house is small but good.", "The bird sings in the tree.", "Please speak slowly.",
        "I want to learn your language.", "The road to the city is long.", "He works with his hands.", "Night is coming, so we go home.",
        "The cat drinks milk.", "I see many stars in the sky.", "Is this your friend?", "Water is good for the body.",
        "They are building a new house.", "I love music and dancing.", "The old man tells a story.", "Where do you live?",
        "Rain falls on the mountain.", "We eat together at the table.", "Goodbye, see you tomorrow.",
    ]
    static let russian = [
        "Привет.", "Доброе утро, друг.", "Где вода?", "Я голоден.", "Собака спит под столом.", "Моя мама каждый вечер варит рис.",
        "Вчера мы ходили к озеру.", "Помоги мне, пожалуйста.", "Сегодня жарко.", "Я не понимаю.", "Она читает книгу в саду.",
        "Дети играют на улице.", "Этот фрукт очень сладкий.", "Спасибо за еду.", "Мой дом маленький, но хороший.", "Птица поёт на дереве.",
        "Говори медленнее, пожалуйста.", "Я хочу выучить твой язык.", "Дорога в город длинная.", "Он работает руками.",
        "Наступает ночь, и мы идём домой.", "Кошка пьёт молоко.", "Я вижу много звёзд на небе.", "Это твой друг?",
        "Вода полезна для тела.", "Они строят новый дом.", "Я люблю музыку и танцы.", "Старик рассказывает историю.", "Где ты живёшь?",
        "На горе идёт дождь.", "Мы едим вместе за столом.", "До свидания, до завтра.",
    ]
    static let vietnamese = [
        "Xin chào.", "Chào buổi sáng, bạn.", "Nước ở đâu?", "Tôi đói.", "Con chó ngủ dưới gầm bàn.", "Mẹ tôi nấu cơm mỗi tối.",
        "Hôm qua chúng tôi đi bộ ra hồ.", "Bạn giúp tôi được không?", "Hôm nay trời nóng.", "Tôi không hiểu.", "Cô ấy đọc sách trong vườn.",
        "Bọn trẻ đang chơi ở ngoài.", "Quả này rất ngọt.", "Cảm ơn vì bữa ăn.", "Nhà tôi nhỏ nhưng tốt.", "Tạm biệt, hẹn gặp lại ngày mai.",
    ]
    static let tokiPona = [
        "toki.", "suno pona, jan pona.", "telo li lon seme?", "mi wile moku.", "soweli li lape lon anpa supa.",
        "mama mi li pali e moku lon tenpo pimeja ale.", "tenpo suno pini la mi mute li tawa telo suli.", "sina ken pona e mi anu seme?",
        "suno li seli lon tenpo ni.", "mi sona ala.", "ona li lukin e lipu lon ma kasi.", "jan lili li musi lon insa ala.",
        "kili ni li suwi mute.", "sina pona tan moku.", "tomo mi li lili, taso ona li pona.", "waso li kalama musi lon kasi suli.",
        "o toki lili.", "mi wile sona e toki sina.", "nasin tawa ma tomo li suli.", "ona li pali kepeken luka.",
        "tenpo pimeja li kama, la mi mute li tawa tomo.", "soweli lili li moku e telo walo.", "mi lukin e mun mute lon sewi.",
        "ni li jan pona sina anu seme?", "telo li pona tawa sijelo.", "ona mute li pali e tomo sin.", "mi olin e kalama musi e tawa musi.",
        "jan suli li toki e toki pi tenpo pini.", "sina lon ma seme?", "telo sewi li kama lon nena suli.",
        "mi mute li moku lon supa sama.", "tawa pona, mi lukin e sina lon tenpo suno kama.",
    ]

    /// The 112 lines with their directions, in the order above.
    static var all: [BenchmarkPrompts.Prompt] {
        english.map { BenchmarkPrompts.Prompt(direction: .englishToTokiPona, text: $0) }
            + russian.map { BenchmarkPrompts.Prompt(direction: .toTokiPona(from: .russian), text: $0) }
            + vietnamese.map { BenchmarkPrompts.Prompt(direction: .toTokiPona(from: .vietnamese), text: $0) }
            + tokiPona.map { BenchmarkPrompts.Prompt(direction: .tokiPonaToEnglish, text: $0) }
    }

    /// The lines of a file, each with the direction the command line would detect for it (a
    /// line in Toki Pona into English, the others into Toki Pona); empty lines are left out.
    static func read(_ text: String) throws -> [BenchmarkPrompts.Prompt] {
        var last = TranslationDirection.englishToTokiPona
        var lines: [BenchmarkPrompts.Prompt] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let text = String(line).trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            last = try LanguageDetector.direction(for: text, last: last)
            lines.append(BenchmarkPrompts.Prompt(direction: last, text: text))
        }
        return lines
    }
}
