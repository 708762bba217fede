import IloTokiCore
import IloTokiDesign
import SwiftUI

/// A Toki Pona word's dictionary entry (`MainScreen.WordCard`): its sitelen pona glyph, the
/// word and how widely it is used, lipu Linku's definition, the words to see also (each looks
/// itself up), the credit, and a close button.
struct WordCardView: View {
    let card: MainScreen.WordCard
    let sitelenPonaFamily: String
    let perform: @MainActor (Action) -> Void
    @Environment(\.palette) private var palette

    var body: some View {
        VStack(alignment: .leading, spacing: Tokens.Spacing.small) {
            HStack(spacing: Tokens.Spacing.medium) {
                if let glyph = card.glyph {
                    Text(glyph).font(.sitelenPona(family: sitelenPonaFamily)).accessibilityHidden(true)
                }
                VStack(alignment: .leading, spacing: 2) {
                    Text(card.word).font(.ui(Tokens.TypeSize.plate, relativeTo: .title3))
                    if !card.usage.isEmpty {
                        Text(card.usage).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
                    }
                }
                Spacer()
                IconButton(icon: .close, label: card.closeLabel) { perform(.closeWord) }
            }
            Text(card.definition).font(.ui(Tokens.TypeSize.body)).textSelection(.enabled)
            if !card.seeAlso.isEmpty {
                Text(card.seeAlsoTitle).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
                HStack(spacing: Tokens.Spacing.small) {
                    ForEach(card.seeAlso, id: \.self) { word in
                        RowButton(title: word) { perform(.lookUpWord(word: word)) }
                    }
                }
            }
            Text(card.credit).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
        }
        .padding(Tokens.Spacing.medium)
        .frame(maxWidth: .infinity, alignment: .leading)
        .cut(Color(palette.paper))
        .accessibilityElement(children: .contain)
    }
}

/// The dictionary words of a Toki Pona plate, to tap (phones have no double click to select
/// one): each shows its entry.
struct DictionaryWordsRow: View {
    let words: [String]
    let perform: @MainActor (Action) -> Void

    var body: some View {
        ScrollView(.horizontal, showsIndicators: false) {
            HStack(spacing: Tokens.Spacing.small) {
                ForEach(words, id: \.self) { word in
                    RowButton(title: word) { perform(.lookUpWord(word: word)) }
                }
            }
        }
    }
}
