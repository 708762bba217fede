import IloTokiCore
import IloTokiDesign
import SwiftUI
import UniformTypeIdentifiers

/// The places beside the main screen, each drawn from its Core page value; the title is the
/// header's (`MainScreen.PlaceLink`).
struct PlaceView: View {
    let place: Place
    let title: String
    let model: TranslatorModel
    let strings: UIStrings
    let perform: @MainActor (Action) -> Void
    @Environment(\.palette) private var palette

    var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: Tokens.Spacing.large) {
                switch place {
                case .main: EmptyView()
                case .history: HistoryView(model: model, strings: strings, perform: perform)
                case .models: ModelsView(model: model, strings: strings, perform: perform)
                case .settings: SettingsView(model: model, strings: strings, perform: perform)
                case .about: AboutView(page: AboutPage(model: model, strings: strings))
                }
            }
            .padding(Tokens.Spacing.large)
        }
        .background(Color(palette.paper))
        .foregroundStyle(Color(palette.ink))
        .font(.ui(Tokens.TypeSize.body))
        .navigationTitle(title)
        // What the command line changed while the app ran appears when a list is shown.
        .onAppear { perform(.refresh) }
    }
}

/// A row button of the pages: outlined paper, ink when chosen.
struct RowButton: View {
    let title: String
    var chosen = false
    let action: @MainActor () -> Void
    @Environment(\.palette) private var palette

    var body: some View {
        Button(title, action: action)
            .buttonStyle(.plain)
            .padding(.horizontal, 14)
            .frame(minHeight: 36)
            .foregroundStyle(Color(chosen ? palette.paper : palette.ink))
            .cut(Color(chosen ? palette.ink : palette.paper))
    }
}

struct HistoryView: View {
    let model: TranslatorModel
    let strings: UIStrings
    let perform: @MainActor (Action) -> Void
    @Environment(\.palette) private var palette

    var body: some View {
        let page = HistoryPage(model: model, strings: strings)
        HStack(spacing: Tokens.Spacing.small) {
            RowButton(title: page.allTitle, chosen: !page.onlyOlin) { perform(.filterHistory(onlyOlin: false)) }
            RowButton(title: page.olinTitle, chosen: page.onlyOlin) { perform(.filterHistory(onlyOlin: true)) }
            Spacer()
            RowButton(title: page.clearTitle) { perform(.clearHistory) }
        }
        if let note = page.note { Text(note).foregroundStyle(Color(palette.quiet)) }
        if let empty = page.empty { Text(empty).foregroundStyle(Color(palette.quiet)) }
        ForEach(page.days) { day in
            Text(day.title.uppercased())
                .font(.ui(Tokens.TypeSize.small, relativeTo: .caption)).bold().tracking(1)
                .accessibilityAddTraits(.isHeader)
            ForEach(day.rows) { row in
                HistoryRowView(row: row, sitelen: sitelen, perform: perform)
            }
        }
    }

    private var sitelen: Font { .sitelenPona(family: model.settings.sitelenPonaFamily(isInstalled: model.isFontInstalled)) }
}

/// One translation of the history: tap it to put it back on the plates; olin marks it.
struct HistoryRowView: View {
    let row: HistoryPage.Row
    let sitelen: Font
    let perform: @MainActor (Action) -> Void
    @Environment(\.palette) private var palette

    var body: some View {
        VStack(alignment: .leading, spacing: Tokens.Spacing.hairline) {
            HStack {
                Text(row.meta).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
                Spacer()
                Button {
                    perform(.setOlin(id: row.id, olin: !row.isOlin))
                } label: {
                    IconShapeView(icon: .named(.olin))
                        .fill(Color(row.isOlin ? palette.ink : palette.quiet).opacity(row.isOlin ? 1 : 0.35))
                        .frame(width: 20, height: 20)
                        .frame(minWidth: Tokens.touchTarget, minHeight: Tokens.touchTarget)
                }
                .buttonStyle(.plain)
                .accessibilityLabel(row.olinLabel)
            }
            Text(row.source).font(row.sourceInSitelenPona ? sitelen : .ui(Tokens.TypeSize.body))
            Text(row.result).font(row.resultInSitelenPona ? sitelen : .ui(Tokens.TypeSize.body)).bold()
        }
        .padding(Tokens.Spacing.medium)
        .frame(maxWidth: .infinity, alignment: .leading)
        .cut(Color(palette.paper))
        .contentShape(Rectangle())
        .onTapGesture { perform(.reuse(id: row.id)) }
        .accessibilityAddTraits(.isButton)
    }
}

struct ModelsView: View {
    let model: TranslatorModel
    let strings: UIStrings
    let perform: @MainActor (Action) -> Void
    /// Whether the system's file picker is shown.
    @State private var importing = false
    /// Why the system's file picker gave no file.
    @State private var pickerError: String?
    @Environment(\.palette) private var palette

    var body: some View {
        let page = ModelsPage(model: model, strings: strings)
        Text(page.storage).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
        ForEach(page.rows) { row in
            VStack(alignment: .leading, spacing: Tokens.Spacing.small) {
                Text(row.name).bold()
                Text(row.facts).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
                HStack(spacing: Tokens.Spacing.small) {
                    ForEach(row.buttons, id: \.title) { button in
                        if let action = button.action {
                            RowButton(title: button.title) { perform(action) }
                                .accessibilityLabel(button.accessibleName)
                        } else {
                            Text(button.title).bold().accessibilityLabel(button.accessibleName)
                        }
                    }
                }
            }
            .padding(Tokens.Spacing.medium)
            .frame(maxWidth: .infinity, alignment: .leading)
            .cut(Color(palette.paper))
        }
        VStack(alignment: .leading, spacing: Tokens.Spacing.small) {
            // SwiftUI sets a binding on the main thread.
            let format = Binding(
                get: { page.chosenFormat }, set: { format in MainActor.assumeIsolated { perform(.setImportFormat(format: format)) } })
            Picker(page.formatTitle, selection: format) {
                ForEach(page.formats.indices, id: \.self) { index in
                    Text(page.formats[index].title).tag(page.formats[index].format)
                }
            }
            RowButton(title: page.addTitle) { importing = true }
                .disabled(page.isImporting)
            if page.isImporting { ProgressView() }
            if let reason = page.importError ?? pickerError { Text(reason).foregroundStyle(Color(palette.quiet)) }
        }
        .fileImporter(isPresented: $importing, allowedContentTypes: Platform.modelFileTypes) { result in
            switch result {
            case .success(let url): add(url)
            case .failure(let error): pickerError = error.localizedDescription
            }
        }
    }

    /// Adds the picked file with the chosen format. Core copies it into the app's own
    /// directory (the picker only lends it), checks that the engine can run it and removes the
    /// copy if not; the file's permission is held until then. What is wrong with a file shows
    /// beside the form (the page's `importError`).
    private func add(_ picked: URL) {
        pickerError = nil
        let request = ModelImport(path: picked.path, format: model.importFormat, copiesIntoApp: true)
        Task {
            let scoped = picked.startAccessingSecurityScopedResource()
            defer { if scoped { picked.stopAccessingSecurityScopedResource() } }
            _ = await model.run(.importModel(request))
        }
    }
}

struct SettingsView: View {
    let model: TranslatorModel
    let strings: UIStrings
    let perform: @MainActor (Action) -> Void
    @State private var fontField = ""
    // The switches' own state, kept equal to Core's both ways (a toggle needs a binding).
    @State private var keepHistory = true
    @State private var translateAsYouType = false
    @State private var translateBySentence = true
    @State private var haptics = true
    @Environment(\.palette) private var palette

    var body: some View {
        let page = SettingsPage(model: model, strings: strings)
        Toggle(page.keepHistory.title, isOn: $keepHistory)
            .onChange(of: page.keepHistory.isOn, initial: true) { _, on in keepHistory = on }
            .onChange(of: keepHistory) { _, on in if on != page.keepHistory.isOn { perform(.setKeepHistory(on: on)) } }
        Toggle(page.translateAsYouType.title, isOn: $translateAsYouType)
            .onChange(of: page.translateAsYouType.isOn, initial: true) { _, on in translateAsYouType = on }
            .onChange(of: translateAsYouType) { _, on in
                if on != page.translateAsYouType.isOn { perform(.setTranslateAsYouType(on: on)) }
            }
        Toggle(page.translateBySentence.title, isOn: $translateBySentence)
            .onChange(of: page.translateBySentence.isOn, initial: true) { _, on in translateBySentence = on }
            .onChange(of: translateBySentence) { _, on in
                if on != page.translateBySentence.isOn { perform(.setTranslateBySentence(on: on)) }
            }
        #if canImport(UIKit)
            // A Mac has no haptics to switch.
            Toggle(page.haptics.title, isOn: $haptics)
                .onChange(of: page.haptics.isOn, initial: true) { _, on in haptics = on }
                .onChange(of: haptics) { _, on in if on != page.haptics.isOn { perform(.setHaptics(on: on)) } }
        #endif
        Text(page.themeTitle).foregroundStyle(Color(palette.quiet))
        HStack(spacing: Tokens.Spacing.small) {
            ForEach(page.themes, id: \.title) { choice in
                RowButton(title: choice.title, chosen: choice.isChosen) { perform(.setTheme(theme: choice.theme)) }
            }
        }
        Text(page.fontTitle).foregroundStyle(Color(palette.quiet))
        TextField(page.fontTitle, text: $fontField)
            .onSubmit { perform(.setSitelenPonaFont(family: fontField)) }
            .padding(Tokens.Spacing.small)
            .cut(Color(palette.paper))
            .onAppear { fontField = page.fontFamily }
        if let note = page.fontNote { Text(note).foregroundStyle(Color(palette.quiet)) }
    }
}

struct AboutView: View {
    let page: AboutPage

    var body: some View {
        Text(page.text)
        Text(page.licencesTitle).bold()
        ForEach(page.licences, id: \.self) { Text($0) }
        Text(page.versionLine).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote))
    }
}

/// The model licence, before the first download.
struct LicenceSheet: View {
    let offer: LicenceOffer
    let strings: UIStrings
    let answer: @MainActor (Bool) -> Void
    @Environment(\.palette) private var palette

    var body: some View {
        VStack(alignment: .leading, spacing: Tokens.Spacing.medium) {
            Text(strings[.licenceTitle]).font(.ui(Tokens.TypeSize.title, relativeTo: .title2)).bold()
            Text(offer.summary).font(.ui(Tokens.TypeSize.body))
            if let url = URL(string: offer.url) {
                Link(offer.url, destination: url).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote))
            }
            HStack(spacing: Tokens.Spacing.medium) {
                RowButton(title: strings[.cancel]) { answer(false) }
                Button(strings[.licenceAccept]) { answer(true) }
                    .buttonStyle(.plain).bold()
                    .padding(Tokens.Spacing.medium)
                    .frame(maxWidth: .infinity)
                    .foregroundStyle(Color(palette.paper))
                    .cut(Color(palette.ink), shadow: Color(palette.quiet))
            }
        }
        .padding(Tokens.Spacing.large)
        .background(Color(palette.paper))
        .foregroundStyle(Color(palette.ink))
        .presentationDetents([.medium])
    }
}
