import IloTokiCore
import IloTokiDesign
import SwiftUI

/// One plate: its language (a chooser unless it holds Toki Pona), the script pill, the text,
/// copy, and sample phrases while the source is empty. The target plate is the jelo surface.
/// What each control offers and what a screen reader calls it come from `MainScreen.Plate`.
struct PlateView: View {
    let plate: MainScreen.Plate
    let isTarget: Bool
    let model: TranslatorModel
    let screen: MainScreen
    let strings: UIStrings
    let perform: @MainActor (Action) -> Void
    /// What the source field holds: what is typed goes to Core, and Core's text comes back
    /// when it changes by itself (a swap, a sample phrase, a history entry).
    @State private var editing = ""
    @Environment(\.palette) private var palette

    var body: some View {
        VStack(alignment: .leading, spacing: Tokens.Spacing.small) {
            HStack(spacing: Tokens.Spacing.small) {
                language
                Spacer()
                if let pill = plate.pill {
                    Button(pill) { perform(.flipScript) }
                        .font(.ui(Tokens.TypeSize.small, relativeTo: .caption))
                        .buttonStyle(.plain)
                        .padding(.horizontal, Tokens.Spacing.medium)
                        .frame(minHeight: 28)
                        .background(Capsule().fill(Color(palette.paper)))
                        .overlay(Capsule().strokeBorder(Color(palette.ink), lineWidth: Tokens.outline))
                        .accessibilityLabel(plate.pillLabel)
                        .accessibilityValue(plate.scriptName)
                }
                if plate.canCopy {
                    #if canImport(UIKit)
                        ShareLink(item: plate.text) {
                            IconShapeView(icon: .named(.share)).fill(Color(palette.ink)).frame(width: 22, height: 22)
                                .frame(minWidth: Tokens.touchTarget, minHeight: Tokens.touchTarget)
                        }
                        .accessibilityLabel(screen.shareLabel)
                    #endif
                    IconButton(icon: .copy, label: screen.copyLabel) { perform(.copy) }
                }
            }
            text
            if isTarget, let bar = screen.translationBar {
                // A long text's progress: VoiceOver reads it as a progress indicator, by its label.
                ProgressView(value: bar.fraction)
                    .tint(Color(palette.onJelo))
                    .accessibilityLabel(bar.label)
            }
            if !plate.dictionaryWords.isEmpty {
                DictionaryWordsRow(words: plate.dictionaryWords, perform: perform)
            }
            if !plate.samplePhrases.isEmpty {
                Text(strings[.samplesTitle]).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
                ForEach(plate.samplePhrases, id: \.self) { phrase in
                    Button(phrase) { perform(.useSample(phrase: phrase)) }
                        .font(.ui(Tokens.TypeSize.body))
                        .buttonStyle(.plain)
                        .padding(.horizontal, Tokens.Spacing.medium)
                        .frame(minHeight: 36)
                        .cut(Color(palette.paper))
                }
            }
        }
        .padding(Tokens.Spacing.medium)
        .frame(maxWidth: .infinity, minHeight: 160, alignment: .topLeading)
        .cut(isTarget ? Color(palette.jelo) : Color(palette.paper))
        .foregroundStyle(Color(isTarget ? palette.onJelo : palette.ink))
    }

    @ViewBuilder private var language: some View {
        let name = Text(plate.languageTitle.uppercased()).font(.ui(Tokens.TypeSize.small, relativeTo: .caption)).bold().tracking(1)
        if plate.choosesLanguage {
            Menu {
                ForEach(plate.languageChoices, id: \.language) { choice in
                    Button(choice.title) { perform(.setOtherLanguage(language: choice.language)) }
                }
            } label: {
                name
            }
            .menuStyle(.button)
            .buttonStyle(.plain)
            .fixedSize()
            .accessibilityLabel(plate.languageLabel)
            .accessibilityValue(plate.languageTitle)
        } else {
            name.accessibilityLabel(plate.languageLabel).accessibilityValue(plate.languageTitle)
        }
    }

    @ViewBuilder private var text: some View {
        let font: Font =
            plate.inSitelenPona
            ? .sitelenPona(family: model.settings.sitelenPonaFamily(isInstalled: model.isFontInstalled))
            : .ui(Tokens.TypeSize.plate, relativeTo: .title3)
        if isTarget {
            Text(plate.text)
                .font(plate.isMessage ? .ui(Tokens.TypeSize.body) : font)
                .opacity(plate.isMessage ? 0.7 : 1)
                .textSelection(.enabled)
                .frame(maxWidth: .infinity, alignment: .leading)
                .accessibilityLabel(plate.textLabel)
                .accessibilityValue(plate.text)
        } else {
            TextEditor(text: $editing)
                .onChange(of: plate.text, initial: true) { _, text in if text != editing { editing = text } }
                .onChange(of: editing) { _, text in if text != plate.text { perform(.setSourceText(text: text)) } }
                .font(font)
                .keyboard(plate.keyboard)
                .scrollContentBackground(.hidden)
                .frame(minHeight: 96)
                .accessibilityLabel(plate.textLabel)
                .overlay(alignment: .topLeading) {
                    if plate.text.isEmpty {
                        Text(strings[.sourcePlaceholder]).font(.ui(Tokens.TypeSize.body)).opacity(0.5)
                            .padding(.top, 8).padding(.leading, 5).allowsHitTesting(false)
                    }
                }
        }
    }
}

extension View {
    /// The keyboard Core asks for the plate's language: on the Toki Pona plate no corrections,
    /// no automatic capitals and (iOS) the ASCII keyboard. SwiftUI has no way to ask for a
    /// keyboard's language (`keyboard.languageTag`): the system keeps the one the person uses.
    func keyboard(_ keyboard: MainScreen.Keyboard) -> some View {
        #if canImport(UIKit)
            autocorrectionDisabled(!keyboard.corrects)
                .textInputAutocapitalization(keyboard.capitalizesSentences ? .sentences : .never)
                .keyboardType(keyboard.asciiOnly ? .asciiCapable : .default)
        #else
            autocorrectionDisabled(!keyboard.corrects)
        #endif
    }
}
