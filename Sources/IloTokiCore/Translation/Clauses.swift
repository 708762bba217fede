/// Where a sentence too long to translate at once may be cut: after the marks that end a
/// clause, in the four languages' punctuation.
///
/// A comma, semicolon or colon followed by white space (and the full-width forms, which need
/// none), and a dash between spaces ("—", "–", or a hyphen standing alone). The mark stays with
/// the clause before it; the white space after it is kept as the spacing between the pieces,
/// so joined with it they give the sentence back. Numbers ("3,5", "10:30") and hyphenated
/// words have no space after the mark and are never cut.
public enum Clauses {
    /// The clauses of `sentence`, in order, each with the white space that followed it.
    public static func split(_ sentence: String) -> [Sentences.Sentence] {
        let characters = Array(sentence)
        var clauses: [Sentences.Sentence] = []
        var current = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            current.append(character)
            index += 1
            let followedBySpace = index < characters.count && TranslationPlan.isSpace(characters[index])
            let cut: Bool
            if wideMarks.contains(character) {
                cut = index < characters.count
            } else if marks.contains(character) {
                cut = followedBySpace
            } else if dashes.contains(character) {
                // A dash between spaces: the cut goes before the dash, which opens the next clause
                // ("I came — and left" → "I came", "— and left").
                let spaceBefore = current.count >= 2 && TranslationPlan.isSpace(current[current.index(current.endIndex, offsetBy: -2)])
                if spaceBefore, followedBySpace {
                    current.removeLast()
                    let text = current.trimmingCharacters(in: .whitespaces)
                    let spacing = String(current.reversed().prefix { TranslationPlan.isSpace($0) }.reversed())
                    if !text.isEmpty { clauses.append(Sentences.Sentence(text, spacing: spacing)) }
                    current = String(character)
                }
                cut = false
            } else {
                cut = false
            }
            guard cut else { continue }
            var spaceEnd = index
            while spaceEnd < characters.count, TranslationPlan.isSpace(characters[spaceEnd]) { spaceEnd += 1 }
            guard spaceEnd < characters.count else { continue }
            clauses.append(Sentences.Sentence(current, spacing: String(characters[index..<spaceEnd])))
            current = ""
            index = spaceEnd
        }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { clauses.append(Sentences.Sentence(last)) }
        return clauses
    }

    /// The clauses of `sentence` grouped while they fit, in order; `nil` when the sentence has
    /// a clause that does not fit on its own (or no place to cut at all).
    static func group(_ sentence: String, fits: (String) -> Bool) -> [Sentences.Sentence]? {
        let clauses = split(sentence)
        guard clauses.count > 1 else { return nil }
        var groups: [Sentences.Sentence] = []
        var current: Sentences.Sentence?
        for clause in clauses {
            guard fits(clause.text) else { return nil }
            if let open = current {
                let joined = open.text + open.spacing + clause.text
                if fits(joined) {
                    current = Sentences.Sentence(joined, spacing: clause.spacing)
                    continue
                }
                groups.append(open)
            }
            current = clause
        }
        if let current { groups.append(current) }
        return groups
    }

    /// Marks that end a clause where white space follows.
    private static let marks: Set<Character> = [",", ";", ":"]
    /// Full-width marks, which end a clause without white space.
    private static let wideMarks: Set<Character> = ["，", "；", "：", "、"]
    /// Dashes that separate clauses when they stand between spaces.
    private static let dashes: Set<Character> = ["—", "–", "-"]
}
