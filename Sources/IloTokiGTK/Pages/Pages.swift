import CGtk
import CGtkSupport
import Foundation
import IloTokiCore
import IloTokiDesign

/// The places besides the plates: the model list, history, settings, about. Each draws the
/// value Core derives for it, and draws again only when that value changed.
@MainActor
final class Pages {
    private unowned let window: AppWindow
    private var strings: UIStrings { window.strings }
    private var model: TranslatorModel { window.model }

    private var roots: [AppWindow.Place: Widget] = [:]
    private var lists: [AppWindow.Place: Widget] = [:]
    private var shownHistory: HistoryPage?
    private var shownModels: ModelsPage?
    private var shownSettings: SettingsPage?
    private var shownAbout: AboutPage?
    private(set) var historyRowTexts: [String] = []
    private var fileChooser: OpaquePointer?
    private var failure: String?

    /// - Parameter places: the pages the header leads to, with their titles (Core's).
    init(window: AppWindow, places: [MainScreen.PlaceLink]) {
        self.window = window
        for link in places {
            let place = link.place
            let page = box(GTK_ORIENTATION_VERTICAL, spacing: 0)
            page.addClass("ilotoki-page")
            let top = box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
            top.margins(0, 12, 8, 12)
            let back = IconButton(.close, label: window.strings[.back]) { [weak window] in window?.show(.main) }
            append(top, back.widget)
            let heading = label(link.title, classes: ["title"])
            gtk_widget_set_valign(heading, GTK_ALIGN_CENTER)
            append(top, heading)
            append(page, top)
            let list = box(GTK_ORIENTATION_VERTICAL, spacing: 0)
            append(page, scroller(list))
            roots[place] = page
            lists[place] = list
        }
    }

    func widget(for place: AppWindow.Place) -> Widget { roots[place] ?? box(GTK_ORIENTATION_VERTICAL) }

    /// Draws the visible page if what it shows changed.
    func render(_ place: AppWindow.Place) {
        switch place {
        case .main:
            return
        case .history:
            let page = HistoryPage(model: model, strings: strings)
            guard page != shownHistory, let list = clear(.history) else { return }
            shownHistory = page
            buildHistory(page, into: list)
        case .models:
            let page = ModelsPage(model: model, strings: strings)
            guard page != shownModels, let list = clear(.models) else { return }
            shownModels = page
            buildModels(page, into: list)
        case .settings:
            let page = SettingsPage(model: model, strings: strings)
            guard page != shownSettings, let list = clear(.settings) else { return }
            shownSettings = page
            buildSettings(page, into: list)
        case .about:
            let page = AboutPage(model: model, strings: strings)
            guard page != shownAbout, let list = clear(.about) else { return }
            shownAbout = page
            buildAbout(page, into: list)
        }
    }

    private func clear(_ place: AppWindow.Place) -> Widget? {
        guard let list = lists[place] else { return nil }
        while let child = gtk_widget_get_first_child(list) { gtk_box_remove(cast(list), child) }
        return list
    }

    /// Draws `place` again even if its value did not change (a field of the page's own changed).
    private func redraw(_ place: AppWindow.Place) {
        switch place {
        case .history: shownHistory = nil
        case .models: shownModels = nil
        case .settings: shownSettings = nil
        case .about: shownAbout = nil
        case .main: break
        }
        render(place)
    }

    // MARK: - History

    private func buildHistory(_ page: HistoryPage, into list: Widget) {
        let filters = flow([
            rowButton(page.allTitle, chosen: !page.onlyOlin) { [weak self] in self?.window.perform(.filterHistory(onlyOlin: false)) },
            rowButton(page.olinTitle, chosen: page.onlyOlin) { [weak self] in self?.window.perform(.filterHistory(onlyOlin: true)) },
            rowButton(page.clearTitle) { [weak self] in self?.window.perform(.clearHistory) },
        ])
        filters.margins(0, 12, 12, 12)
        append(list, filters)
        if let note = page.note { append(list, padded(label(note, classes: ["quiet"]))) }
        if let empty = page.empty { append(list, padded(label(empty, classes: ["quiet"]))) }
        historyRowTexts = page.rows.map(\.line)
        for day in page.days {
            let heading = label(day.title.uppercased(), classes: ["language"])
            heading.margins(12, 16, 4, 16)
            append(list, heading)
            buildHistoryRows(day.rows, into: list)
        }
    }

    private func buildHistoryRows(_ rows: [HistoryPage.Row], into list: Widget) {
        for entryRow in rows {
            let holder = card()
            let meta = label(entryRow.meta, classes: ["quiet"])
            meta.expand(horizontally: true, vertically: false)
            let olin = IconButton(.olin, label: entryRow.olinLabel, flat: !entryRow.isOlin) { [weak self] in
                self?.window.perform(.setOlin(id: entryRow.id, olin: !entryRow.isOlin))
            }
            if entryRow.isOlin { olin.widget.addClass("chosen") }
            let copy = IconButton(.copy, label: strings[.copy], flat: true) {
                gdk_clipboard_set_text(gdk_display_get_clipboard(gdk_display_get_default()), entryRow.result)
            }
            append(holder, row([meta, olin.widget, copy.widget]))
            let source = label(entryRow.source)
            if entryRow.sourceInSitelenPona { source.addClass("sitelen") }
            append(holder, source)
            let result = label(entryRow.result, classes: ["plate-text"])
            if entryRow.resultInSitelenPona { result.addClass("sitelen") }
            append(holder, result)
            append(holder, rowButton(strings[.use]) { [weak self] in self?.window.perform(.reuse(id: entryRow.id)) })
            append(list, holder)
        }
    }

    /// Says what an action could not do, beside the models page's form (where the actions
    /// that can fail are).
    func showFailure(_ reason: String) {
        failure = reason
        redraw(.models)
    }

    // MARK: - Models

    private func buildModels(_ page: ModelsPage, into list: Widget) {
        let storage = label(page.storage, classes: ["quiet"])
        let inset = Int32(Tokens.Spacing.medium)
        storage.margins(0, inset, inset / 2, inset)  // in line with the cards
        append(list, storage)
        for modelRow in page.rows {
            let holder = card()
            append(holder, label(modelRow.name, classes: ["plate-text"]))
            append(holder, label(modelRow.facts, classes: ["quiet"]))
            let buttons = modelRow.buttons.map { button -> Widget in
                guard let action = button.action else { return label(button.title, classes: ["language"]) }
                let widget = rowButton(button.title) { [weak self] in self?.window.perform(action) }
                widget.accessibleLabel(button.accessibleName)
                return widget
            }
            append(holder, flow(buttons))
            append(list, holder)
        }
        let adding = card()
        append(adding, label(page.formatTitle, classes: ["quiet"]))
        append(
            adding,
            flow(
                page.formats.map { format, title in
                    rowButton(title, chosen: format == page.chosenFormat) { [weak self] in
                        self?.window.perform(.setImportFormat(format: format))
                    }
                }))
        if page.isImporting {
            append(adding, label(page.addTitle, classes: ["quiet"]))  // the file is being copied and checked
        } else {
            append(adding, rowButton(page.addTitle) { [weak self] in self?.chooseModelFile() })
        }
        if let reason = page.importError ?? failure { append(adding, label(reason, classes: ["quiet"])) }
        append(list, adding)
    }

    private func chooseModelFile() {
        let chooser = gtk_file_chooser_native_new(
            strings[.addModel], UnsafeMutableRawPointer(window.window).assumingMemoryBound(to: GtkWindow.self),
            GTK_FILE_CHOOSER_ACTION_OPEN, nil, nil)!
        fileChooser = chooser
        let format = model.importFormat
        connectWithArgument(gpointerOf(chooser), "response") { [weak self] in
            guard let self, let chooser = self.fileChooser else { return }
            defer { self.fileChooser = nil }
            let file = gtk_file_chooser_get_file(chooser)
            guard let file, let path = g_file_get_path(file) else { return }
            defer { g_free(path) }
            let modelPath = String(cString: path)
            Task { @MainActor [weak self] in
                guard let self else { return }
                // Waited for, so that what is wrong with the file shows beside the form
                // (the page's importError) and not as a notice.
                self.failure = nil
                _ = await self.model.run(.importModel(ModelImport(path: modelPath, format: format)))
                self.redraw(.models)
            }
        }
        gtk_native_dialog_show(UnsafeMutablePointer<GtkNativeDialog>(chooser))
    }

    // MARK: - Settings

    private func buildSettings(_ page: SettingsPage, into list: Widget) {
        append(
            list,
            switchRow(page.keepHistory.title, on: page.keepHistory.isOn) { [weak self] on in self?.window.perform(.setKeepHistory(on: on)) }
        )
        append(
            list,
            switchRow(page.translateAsYouType.title, on: page.translateAsYouType.isOn) { [weak self] on in
                self?.window.perform(.setTranslateAsYouType(on: on))
            })
        append(
            list,
            switchRow(page.translateBySentence.title, on: page.translateBySentence.isOn) { [weak self] on in
                self?.window.perform(.setTranslateBySentence(on: on))
            })
        let theme = card()
        append(theme, label(page.themeTitle, classes: ["quiet"]))
        append(
            theme,
            flow(
                page.themes.map { choice in
                    rowButton(choice.title, chosen: choice.isChosen) { [weak self] in self?.window.perform(.setTheme(theme: choice.theme)) }
                }))
        append(list, theme)
        let font = card()
        append(font, label(page.fontTitle, classes: ["quiet"]))
        let entry = gtk_entry_new()!
        gtk_editable_set_text(OpaquePointer(entry), page.fontFamily)
        entry.accessibleLabel(page.fontTitle)
        connect(gpointerOf(entry), "activate") { [weak self] in
            self?.window.perform(.setSitelenPonaFont(family: String(cString: gtk_editable_get_text(OpaquePointer(entry)))))
        }
        append(font, entry)
        if let note = page.fontNote { append(font, label(note, classes: ["quiet"])) }
        append(list, font)
    }

    // MARK: - About

    private func buildAbout(_ page: AboutPage, into list: Widget) {
        let about = card()
        append(about, label(page.text, classes: ["plate-text"]))
        append(list, about)
        let licences = card()
        append(licences, label(page.licencesTitle, classes: ["language"]))
        for line in page.licences { append(licences, label(line)) }
        append(list, licences)
        append(list, padded(label(page.versionLine, classes: ["quiet"])))
    }
}
