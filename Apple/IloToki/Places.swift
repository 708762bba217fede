import IloTokiCore
import IloTokiDesign
import SwiftUI
import UniformTypeIdentifiers

/// The places beside the main screen, each drawn from its Core page value.
struct PlaceView: View {
    let place: Place
    let model: TranslatorModel
    let strings: UIStrings
    @Binding var licenceFor: CatalogEntry?
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: Tokens.Spacing.large) {
                switch place {
                case .history: HistoryView(model: model, strings: strings)
                case .models: ModelsView(model: model, strings: strings, licenceFor: $licenceFor)
                case .settings: SettingsView(model: model, strings: strings)
                case .about: AboutView(page: AboutPage(model: model, strings: strings))
                }
            }
            .padding(Tokens.Spacing.large)
        }
        .background(Color(Palette.forScheme(scheme).paper))
        .foregroundStyle(Color(Palette.forScheme(scheme).ink))
        .font(.ui(Tokens.TypeSize.body))
        .navigationTitle(title)
    }

    private var title: String {
        switch place {
        case .history: strings[.history]
        case .models: strings[.models]
        case .settings: strings[.settings]
        case .about: strings[.about]
        }
    }
}

/// A row button of the pages: outlined paper, ink when chosen.
struct RowButton: View {
    let title: String
    var chosen = false
    let action: () -> Void
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let palette = Palette.forScheme(scheme)
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
    @State private var onlyOlin = false
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let page = HistoryPage(model: model, strings: strings, onlyOlin: onlyOlin)
        let palette = Palette.forScheme(scheme)
        HStack(spacing: Tokens.Spacing.small) {
            RowButton(title: page.allTitle, chosen: !page.onlyOlin) { onlyOlin = false }
            RowButton(title: page.olinTitle, chosen: page.onlyOlin) { onlyOlin = true }
            Spacer()
            RowButton(title: page.clearTitle) { model.clearHistory() }
        }
        .onAppear { model.refreshHistory() }
        if let note = page.note { Text(note).foregroundStyle(Color(palette.quiet)) }
        if let empty = page.empty { Text(empty).foregroundStyle(Color(palette.quiet)) }
        ForEach(page.rows) { row in
            VStack(alignment: .leading, spacing: Tokens.Spacing.hairline) {
                HStack {
                    Text(row.meta).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
                    Spacer()
                    Button { model.setOlin(!row.isOlin, for: row.id) } label: {
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
            .onTapGesture { model.reuse(row.entry) }
        }
    }

    private var sitelen: Font { .sitelenPona(family: model.settings.sitelenPonaFamily(isInstalled: Platform.isFontInstalled)) }
}

struct ModelsView: View {
    let model: TranslatorModel
    let strings: UIStrings
    @Binding var licenceFor: CatalogEntry?
    @State private var importing = false
    @State private var format = PromptFormat.sourceTarget
    @State private var importError: String?
    @State private var importingNow = false
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let page = ModelsPage(model: model, strings: strings)
        let palette = Palette.forScheme(scheme)
        ForEach(page.rows) { row in
            VStack(alignment: .leading, spacing: Tokens.Spacing.small) {
                Text(row.name).bold()
                Text(row.facts).font(.ui(Tokens.TypeSize.small, relativeTo: .footnote)).foregroundStyle(Color(palette.quiet))
                HStack(spacing: Tokens.Spacing.small) {
                    ForEach(row.buttons, id: \.title) { button in
                        if button.action == .inUse {
                            Text(button.title).bold()
                        } else {
                            RowButton(title: button.title) {
                                if case .showLicence(let entry) = model.perform(button.action) { licenceFor = entry }
                            }
                        }
                    }
                }
            }
            .padding(Tokens.Spacing.medium)
            .frame(maxWidth: .infinity, alignment: .leading)
            .cut(Color(palette.paper))
        }
        VStack(alignment: .leading, spacing: Tokens.Spacing.small) {
            Picker(page.formatTitle, selection: $format) {
                ForEach(page.formats.indices, id: \.self) { index in
                    Text(page.formats[index].title).tag(page.formats[index].format)
                }
            }
            RowButton(title: page.addTitle) { importing = true }
                .disabled(importingNow)
            if importingNow { ProgressView() }
            if let importError { Text(importError).foregroundStyle(Color(palette.quiet)) }
        }
        .fileImporter(isPresented: $importing, allowedContentTypes: Platform.modelFileTypes) { result in
            switch result {
            case .success(let url): add(url)
            case .failure(let error): importError = error.localizedDescription
            }
        }
        .onAppear { model.library.refresh() }
    }

    /// Copies the picked file into the app's directory and adds it with the chosen format;
    /// a file that is not a model this engine can run is refused and its copy removed.
    private func add(_ picked: URL) {
        importingNow = true
        importError = nil
        let format = format
        Task {
            defer { importingNow = false }
            do {
                let copy = try await Platform.importModelFile(picked, into: model.store.directories.home)
                do {
                    _ = try await model.addSideloadedModel(path: copy.path, name: nil, format: format)
                } catch {
                    try? FileManager.default.removeItem(at: copy)
                    throw error
                }
            } catch {
                importError = error.localizedDescription
            }
        }
    }
}

struct SettingsView: View {
    let model: TranslatorModel
    let strings: UIStrings
    @State private var fontField = ""
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let page = SettingsPage(model: model, strings: strings, isFontInstalled: Platform.isFontInstalled)
        let palette = Palette.forScheme(scheme)
        Toggle(page.keepHistory.title, isOn: Binding(get: { page.keepHistory.isOn }, set: { model.setKeepHistory($0) }))
        Toggle(page.translateAsYouType.title, isOn: Binding(get: { page.translateAsYouType.isOn }, set: { model.setTranslateAsYouType($0) }))
        Text(page.themeTitle).foregroundStyle(Color(palette.quiet))
        HStack(spacing: Tokens.Spacing.small) {
            ForEach(page.themes, id: \.title) { choice in
                RowButton(title: choice.title, chosen: choice.isChosen) { model.setTheme(choice.theme) }
            }
        }
        Text(page.fontTitle).foregroundStyle(Color(palette.quiet))
        TextField(page.fontTitle, text: $fontField)
            .onSubmit { model.chooseSitelenPonaFont(fontField) }
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
    let strings: UIStrings
    let answer: (Bool) -> Void
    @Environment(\.colorScheme) private var scheme

    var body: some View {
        let palette = Palette.forScheme(scheme)
        VStack(alignment: .leading, spacing: Tokens.Spacing.medium) {
            Text(strings[.licenceTitle]).font(.ui(Tokens.TypeSize.title, relativeTo: .title2)).bold()
            Text(ModelCatalog.modelLicence.summary).font(.ui(Tokens.TypeSize.body))
            Link(ModelCatalog.modelLicence.url.absoluteString, destination: ModelCatalog.modelLicence.url)
                .font(.ui(Tokens.TypeSize.small, relativeTo: .footnote))
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
