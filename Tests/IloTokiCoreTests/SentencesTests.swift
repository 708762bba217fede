import IloTokiCore
import Testing

/// Sentence splitting in the four languages: what ends a sentence, what does not, and that the
/// line's own spacing comes back.
@Suite struct SentencesTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let line: String
        let sentences: [String]
        var testDescription: String { line }
    }

    static let cases: [Case] = [
        // Toki Pona: lowercase sentences, its own marks, a vocative with "o!".
        Case(line: "jan li moku. ona li pona.", sentences: ["jan li moku.", "ona li pona."]),
        Case(line: "jan Lisa o! sina pona.", sentences: ["jan Lisa o!", "sina pona."]),
        Case(line: "o kama! mi wile e sina.", sentences: ["o kama!", "mi wile e sina."]),
        Case(line: "sina pilin seme? mi pilin pona.", sentences: ["sina pilin seme?", "mi pilin pona."]),
        Case(line: "mi pilin… ona li lon.", sentences: ["mi pilin… ona li lon."]),
        Case(line: "o kama lon tomo tan ni: tenpo pimeja li kama.", sentences: ["o kama lon tomo tan ni: tenpo pimeja li kama."]),
        // English: abbreviations, initials, decimals, ellipses, quotes, brackets, lists.
        Case(line: "Dr. Smith is here. He came at 3.5 o'clock.", sentences: ["Dr. Smith is here.", "He came at 3.5 o'clock."]),
        Case(line: "Bring fruit, e.g. apples. Then come home.", sentences: ["Bring fruit, e.g. apples.", "Then come home."]),
        Case(line: "I like apples, pears, etc. and more. Really!", sentences: ["I like apples, pears, etc. and more.", "Really!"]),
        Case(line: "We ate, drank, etc. Then we slept.", sentences: ["We ate, drank, etc.", "Then we slept."]),
        Case(line: "J. R. R. Tolkien wrote it. I read it.", sentences: ["J. R. R. Tolkien wrote it.", "I read it."]),
        Case(line: "Wait... What was that?!  Nothing.", sentences: ["Wait...", "What was that?!", "Nothing."]),
        Case(line: "I was... thinking. Yes.", sentences: ["I was... thinking.", "Yes."]),
        Case(line: "He said \"Stop. Now.\" Then he left.", sentences: ["He said \"Stop. Now.\"", "Then he left."]),
        Case(line: "\"Stop!\" he said.", sentences: ["\"Stop!\" he said."]),
        Case(line: "(See the book.) Then go on.", sentences: ["(See the book.)", "Then go on."]),
        Case(line: "1. Buy milk. 2. Sell it.", sentences: ["1. Buy milk.", "2. Sell it."]),
        Case(line: "We met in the U.S. The trip was long.", sentences: ["We met in the U.S.", "The trip was long."]),
        Case(line: "Visit example.com today. It is good.", sentences: ["Visit example.com today.", "It is good."]),
        Case(line: "Hello! !!", sentences: ["Hello! !!"]),
        Case(line: "One sentence only", sentences: ["One sentence only"]),
        Case(line: "He left \"angry. Very", sentences: ["He left \"angry.", "Very"]),
        // Russian: т. е., и т. д., г., ул., quotes of both kinds.
        Case(line: "Это, т. е. главное, важно. Понятно?", sentences: ["Это, т. е. главное, важно.", "Понятно?"]),
        Case(line: "Мы купили хлеб, молоко и т. д. Потом ушли.", sentences: ["Мы купили хлеб, молоко и т. д.", "Потом ушли."]),
        Case(line: "В 2020 г. мы жили на ул. Ленина. Там хорошо.", sentences: ["В 2020 г. мы жили на ул. Ленина.", "Там хорошо."]),
        Case(line: "«Стой. Сейчас же.» И ушёл.", sentences: ["«Стой. Сейчас же.»", "И ушёл."]),
        Case(line: "Он сказал: „Иди. Быстро.“ Мы пошли.", sentences: ["Он сказал: „Иди. Быстро.“", "Мы пошли."]),
        Case(line: "Привет! Как дела?", sentences: ["Привет!", "Как дела?"]),
        // Vietnamese: TP., v.v., ellipsis.
        Case(line: "Tôi sống ở TP. Hồ Chí Minh. Bạn thì sao?", sentences: ["Tôi sống ở TP. Hồ Chí Minh.", "Bạn thì sao?"]),
        Case(line: "Tôi mua táo, lê, v.v. Sau đó về nhà.", sentences: ["Tôi mua táo, lê, v.v.", "Sau đó về nhà."]),
        Case(line: "Xin chào! Tôi yêu bạn.", sentences: ["Xin chào!", "Tôi yêu bạn."]),
        Case(line: "Giá là 3.5 triệu. Rẻ quá!", sentences: ["Giá là 3.5 triệu.", "Rẻ quá!"]),
    ]

    @Test(arguments: cases) func splits(_ test: Case) {
        #expect(Sentences.split(test.line).map(\.text) == test.sentences)
    }

    @Test func theLinesOwnSpacingComesBack() {
        let line = "Wait... What was that?!  Nothing.\tGood."
        let sentences = Sentences.split(line)
        #expect(sentences.map(\.spacing) == [" ", "  ", "\t", ""])
        #expect(sentences.map { $0.text + $0.spacing }.joined() == line)
    }

    @Test func aPlanBySentenceKeepsSpacingAndLines() {
        let text = "mi moku. sina lape!  ona li kama.\n\njan li pona."
        let plan = TranslationPlan(text, bySentence: true)
        #expect(plan.chunks == ["mi moku.", "sina lape!", "ona li kama.", "jan li pona."])
        #expect(plan.assemble(plan.chunks) == text)
        #expect(plan.assemble(["I eat.", "You sleep!", "", "A person is good."]) == "I eat. You sleep!\n\nA person is good.")
        // A whole line stays whole when asked.
        #expect(TranslationPlan(text, bySentence: false).chunks == ["mi moku. sina lape!  ona li kama.", "jan li pona."])
    }
}
