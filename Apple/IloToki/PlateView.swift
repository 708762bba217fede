import IloTokiCore
import IloTokiDesign
import SwiftUI

/// One plate: its language (a chooser unless it holds Toki Pona), the script pill, the text,
/// copy, and sample phrases while the source is empty. The target plate is the jelo surface.
struct PlateView: View {
    let plate: MainScreen.Plate
    let isTarget: Bool
    let model: TranslatorModel
    let strings: UIStrings
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let palette = Palette.forScheme(scheme)
        VStack(alignment: .leading, spacing: Tokens.Spacing.small) {
            HStack(spacing: Tokens.Spacing.small) {
                language
                Spacer()
                if let pill = plate.pill {
                    Button(pill) { model.flipScript(isFontInstalled: Platform.isFontInstalled) }
                        .font(.ui(Tokens.TypeSize.small, relativeTo: .caption))
                        .buttonStyle(.plain)
                        .padding(.horizontal, Tokens.Spacing.medium)
                        .frame(minHeight: 28)
                        .background(Capsule().fill(Color(palette.paper)))
                        .overlay(Capsule().strokeBorder(Color(palette.ink), lineWidth: Tokens.outline))
                }
                if plate.canCopy {
                    IconButton(icon: .copy, label: strings[.copy]) {
                        if let text = model.copyResult() { Platform.copyToClipboard(text) }
                    }
                }
            }
            text
            if !plate.samplePhrases.isEmpty {
                Text(strings[.samplesTitle]).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
                ForEach(plate.samplePhrases, id: \.self) { phrase in
                    Button(phrase) { model.useSamplePhrase(phrase) }
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
        let name = Text(plate.language.endonym.uppercased()).font(.ui(Tokens.TypeSize.small, relativeTo: .caption)).bold().tracking(1)
        if plate.choosesLanguage {
            Menu {
                ForEach(Language.allCases.filter { $0 != .tokiPona }, id: \.self) { language in
                    Button(language.endonym) { model.setOtherLanguage(language) }
                }
            } label: {
                name
            }
            .menuStyle(.button)
            .buttonStyle(.plain)
            .fixedSize()
        } else {
            name
        }
    }

    @ViewBuilder private var text: some View {
        let font: Font = plate.inSitelenPona
            ? .sitelenPona(family: model.settings.sitelenPonaFamily(isInstalled: Platform.isFontInstalled))
            : .ui(Tokens.TypeSize.plate, relativeTo: .title3)
        if isTarget {
            Text(plate.text)
                .font(plate.isMessage ? .ui(Tokens.TypeSize.body) : font)
                .opacity(plate.isMessage ? 0.7 : 1)
                .textSelection(.enabled)
                .frame(maxWidth: .infinity, alignment: .leading)
        } else {
            TextEditor(text: Binding(get: { model.sourceText }, set: { model.sourceText = $0 }))
                .font(font)
                .scrollContentBackground(.hidden)
                .frame(minHeight: 96)
                .accessibilityLabel(strings[.sourcePlaceholder])
                .overlay(alignment: .topLeading) {
                    if model.sourceText.isEmpty {
                        Text(strings[.sourcePlaceholder]).font(.ui(Tokens.TypeSize.body)).opacity(0.5)
                            .padding(.top, 8).padding(.leading, 5).allowsHitTesting(false)
                    }
                }
        }
    }
}
