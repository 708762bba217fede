import CGtk
import CGtkSupport
import Foundation
import IloTokiCore
import IloTokiDesign
import IloTokiEngineLive

/// The places besides the plates: the model list, history, settings, about. Each redraws
/// only when what it shows has changed.
@MainActor
final class Pages {
    private unowned let window: AppWindow
    private var strings: UIStrings { window.strings }
    private var model: TranslatorModel { window.model }

    private var roots: [AppWindow.Place: Widget] = [:]
    private var lists: [AppWindow.Place: Widget] = [:]
    private var shown: [AppWindow.Place: String] = [:]
    private var onlyOlin = false
    private(set) var historyRowTexts: [String] = []
    private var addFormat: PromptFormat = .sourceTarget
    private var fileChooser: OpaquePointer?

    init(window: AppWindow) {
        self.window = window
        for place in AppWindow.Place.allCases where place != .main {
            let page = box(GTK_ORIENTATION_VERTICAL, spacing: 0)
            page.addClass("ilotoki-page")
            let top = box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
            top.margins(0, 12, 8, 12)
            let back = IconButton(.close, label: window.strings[.back]) { [weak window] in window?.show(.main) }
            append(top, back.widget)
            let heading = label(title(place), classes: ["title"])
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

    private func title(_ place: AppWindow.Place) -> String {
        switch place {
        case .main: strings[.appName]
        case .history: strings[.history]
        case .models: strings[.models]
        case .settings: strings[.settings]
        case .about: strings[.about]
        }
    }

    /// Redraws the visible page if what it shows changed.
    func render(_ place: AppWindow.Place) {
        // Read what every page shows, so a change anywhere is observed.
        let signature: String
        switch place {
        case .main: return
        case .history:
            signature = "\(onlyOlin)|\(model.settings.keepHistory)|" + model.history.entries.map { "\($0.id)\($0.olin)" }.joined()
        case .models:
            signature = modelsSignature()
        case .settings:
            signature = "\(model.settings)"
        case .about:
            signature = "about"
        }
        guard shown[place] != signature, let list = lists[place] else { return }
        shown[place] = signature
        while let child = gtk_widget_get_first_child(list) { gtk_box_remove(cast(list), child) }
        switch place {
        case .history: buildHistory(list)
        case .models: buildModels(list)
        case .settings: buildSettings(list)
        case .about: buildAbout(list)
        case .main: break
        }
    }

    // MARK: - Pieces

    private func card() -> Widget {
        let card = box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        card.addClass("card")
        return card
    }

    private func button(_ title: String, chosen: Bool = false, action: @escaping @MainActor () -> Void) -> Widget {
        let button = gtk_button_new_with_label(title)!
        button.addClass("row-button")
        if chosen { button.addClass("chosen") }
        gtk_widget_set_halign(button, GTK_ALIGN_START)
        connect(gpointerOf(button), "clicked", action)
        return button
    }

    private func row(_ children: [Widget]) -> Widget {
        let row = box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        children.forEach { append(row, $0) }
        return row
    }

    /// Buttons that wrap onto more lines on a narrow phone.
    private func flow(_ children: [Widget]) -> Widget {
        let flow = gtk_flow_box_new()!
        gtk_flow_box_set_selection_mode(cast(flow), GTK_SELECTION_NONE)
        gtk_flow_box_set_column_spacing(cast(flow), 8)
        gtk_flow_box_set_row_spacing(cast(flow), 8)
        gtk_flow_box_set_homogeneous(cast(flow), 0)
        gtk_flow_box_set_max_children_per_line(cast(flow), 4)
        children.forEach { gtk_flow_box_append(cast(flow), $0) }
        return flow
    }

    private func switchRow(_ title: String, on: Bool, action: @escaping @MainActor (Bool) -> Void) -> Widget {
        let text = label(title)
        text.expand(horizontally: true, vertically: false)
        let toggle = gtk_switch_new()!
        gtk_switch_set_active(cast(toggle), on ? 1 : 0)
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        toggle.accessibleLabel(title)
        connectWithArgument(gpointerOf(toggle), "notify::active") {
            action(gtk_switch_get_active(cast(toggle)) != 0)
        }
        let row = row([text, toggle])
        let holder = card()
        append(holder, row)
        return holder
    }

    // MARK: - History

    private func buildHistory(_ list: Widget) {
        let filters = flow([
            button(strings[.history], chosen: !onlyOlin) { [weak self] in self?.setOnlyOlin(false) },
            button("olin", chosen: onlyOlin) { [weak self] in self?.setOnlyOlin(true) },
            button(strings[.clearHistory]) { [weak self] in self?.model.clearHistory() },
        ])
        filters.margins(0, 12, 12, 12)
        append(list, filters)
        if !model.settings.keepHistory { append(list, padded(label(strings[.historyOff], classes: ["quiet"]))) }
        let entries = onlyOlin ? model.history.favourites : model.history.entries
        historyRowTexts = entries.map { "\($0.direction)  \($0.source) → \($0.result)" }
        if entries.isEmpty { append(list, padded(label(strings[.noHistory], classes: ["quiet"]))) }
        let formatter = DateFormatter()
        formatter.dateStyle = .short
        formatter.timeStyle = .short
        for entry in entries.prefix(200) {
            let holder = card()
            let meta = label("\(entry.direction.source.endonym) → \(entry.direction.target.endonym) · \(formatter.string(from: entry.date))", classes: ["quiet"])
            meta.expand(horizontally: true, vertically: false)
            let olin = IconButton(.olin, label: entry.olin ? strings[.unOlin] : strings[.olin], flat: !entry.olin) { [weak self] in
                self?.model.setOlin(!entry.olin, for: entry.id)
            }
            if entry.olin { olin.widget.addClass("chosen") }
            let copy = IconButton(.copy, label: strings[.copy], flat: true) {
                gdk_clipboard_set_text(gdk_display_get_clipboard(gdk_display_get_default()), entry.result)
            }
            append(holder, row([meta, olin.widget, copy.widget]))
            let source = label(entry.source)
            if entry.direction.source == .tokiPona, model.tokiPonaScript == .sitelenPona { source.addClass("sitelen") }
            append(holder, source)
            let result = label(entry.result, classes: ["plate-text"])
            if entry.direction.target == .tokiPona, model.tokiPonaScript == .sitelenPona { result.addClass("sitelen") }
            append(holder, result)
            let reuse = button(strings[.use]) { [weak self] in
                self?.model.reuse(entry)
                self?.window.show(.main)
            }
            append(holder, reuse)
            append(list, holder)
        }
    }

    private func setOnlyOlin(_ only: Bool) {
        onlyOlin = only
        render(.history)
    }

    private func padded(_ widget: Widget) -> Widget {
        widget.margins(8, 16, 8, 16)
        return widget
    }

    // MARK: - Models

    private func modelsSignature() -> String {
        let statuses = model.store.statuses().map { "\($0.entry.id):\($0.state)" }.joined(separator: ",")
        let sideloaded = model.store.sideloadedModels().map { "\($0.id):\($0.isMissing)" }.joined(separator: ",")
        let download = model.activeDownload.map { "\($0.entry.id):\(Int($0.fraction * 100)):\($0.phase)" } ?? "-"
        return "\(statuses)|\(sideloaded)|\(download)|\(model.loadedModel?.id ?? "-")|\(model.modelState)"
    }

    private func buildModels(_ list: Widget) {
        let store = model.store
        for status in store.statuses() {
            let entry = status.entry
            let holder = card()
            let name = label(entry.displayName, classes: ["plate-text"])
            append(holder, name)
            var facts = "\(ByteSize.text(entry.bytes)) · \(entry.quantization) · "
            switch status.state {
            case .installed: facts += strings[.modelInstalled]
            case .partial(let bytes): facts += strings(.modelPartial, window.percent(Double(bytes) / Double(entry.bytes)))
            case .notInstalled, .damaged: facts += strings[.modelNotInstalled]
            }
            if entry.deprecated { facts += " · " + strings[.modelDeprecated] }
            append(holder, label(facts, classes: ["quiet"]))
            var buttons: [Widget] = []
            let downloading = model.activeDownload?.entry.id == entry.id
            if model.loadedModel?.id == entry.id {
                buttons.append(label(strings[.inUse], classes: ["language"]))
            } else if status.state == .installed {
                buttons.append(button(strings[.use]) { [weak self] in Task { await self?.model.selectModel(id: entry.id) } })
            } else if downloading, case .running? = model.activeDownload?.phase {
                buttons.append(button(strings[.pauseDownload]) { [weak self] in self?.model.pauseDownload() })
            } else {
                buttons.append(button(strings[.download]) { [weak self] in self?.window.startDownload(entry) })
            }
            if status.bytesOnDisk > 0 {
                buttons.append(button(strings[.delete]) { [weak self] in Task { await self?.model.deleteModel(id: entry.id) } })
            }
            append(holder, flow(buttons))
            append(list, holder)
        }
        for sideloaded in store.sideloadedModels() {
            let holder = card()
            append(holder, label(sideloaded.name, classes: ["plate-text"]))
            let facts = "\(sideloaded.path) · \(sideloaded.format.displayName)" + (sideloaded.isMissing ? " · " + strings[.modelMissingFile] : "")
            append(holder, label(facts, classes: ["quiet"]))
            var buttons: [Widget] = []
            if model.loadedModel?.id == sideloaded.id {
                buttons.append(label(strings[.inUse], classes: ["language"]))
            } else if !sideloaded.isMissing {
                buttons.append(button(strings[.use]) { [weak self] in Task { await self?.model.selectModel(id: sideloaded.id) } })
            }
            buttons.append(button(strings[.delete]) { [weak self] in Task { await self?.model.deleteModel(id: sideloaded.id) } })
            append(holder, row(buttons))
            append(list, holder)
        }

        let adding = card()
        append(adding, label(strings[.promptFormat], classes: ["quiet"]))
        append(
            adding,
            flow(PromptFormat.allCases.map { format in
                button(format.displayName, chosen: format == addFormat) { [weak self] in
                    self?.addFormat = format
                    self?.shown[.models] = nil
                    self?.render(.models)
                }
            }))
        append(adding, button(strings[.addModel]) { [weak self] in self?.chooseModelFile() })
        append(list, adding)
    }

    private func chooseModelFile() {
        let chooser = gtk_file_chooser_native_new(
            strings[.addModel], UnsafeMutableRawPointer(window.window).assumingMemoryBound(to: GtkWindow.self),
            GTK_FILE_CHOOSER_ACTION_OPEN, nil, nil)!
        fileChooser = chooser
        let format = addFormat
        connectWithArgument(gpointerOf(chooser), "response") { [weak self] in
            guard let self, let chooser = self.fileChooser else { return }
            defer { self.fileChooser = nil }
            let file = gtk_file_chooser_get_file(chooser)
            guard let file, let path = g_file_get_path(file) else { return }
            defer { g_free(path) }
            let modelPath = String(cString: path)
            Task { @MainActor [weak self] in
                guard let self else { return }
                do {
                    try await self.model.addSideloadedModel(path: modelPath, name: nil, format: format)
                    self.shown[.models] = nil
                    self.render(.models)
                } catch {
                    let message = label(error.localizedDescription, classes: ["quiet"])
                    if let list = self.lists[.models] { append(list, self.padded(message)) }
                }
            }
        }
        gtk_native_dialog_show(UnsafeMutablePointer<GtkNativeDialog>(chooser))
    }

    // MARK: - Settings

    private func buildSettings(_ list: Widget) {
        let settings = model.settings
        append(list, switchRow(strings[.keepHistory], on: settings.keepHistory) { [weak self] on in self?.model.setKeepHistory(on) })
        append(list, switchRow(strings[.translateAsYouType], on: settings.translateAsYouType) { [weak self] on in self?.model.setTranslateAsYouType(on) })
        let theme = card()
        append(theme, label(strings[.theme], classes: ["quiet"]))
        append(
            theme,
            flow([
                (AppSettings.Theme.light, UIText.themeLight), (.dark, .themeDark), (.system, .themeSystem),
            ].map { value, text in
                button(strings[text], chosen: settings.theme == value) { [weak self] in self?.model.setTheme(value) }
            }))
        append(list, theme)
        let font = card()
        append(font, label(strings[.sitelenFont], classes: ["quiet"]))
        let entry = gtk_entry_new()!
        gtk_editable_set_text(OpaquePointer(entry), settings.sitelenPonaFamily(isInstalled: Fonts.has))
        entry.accessibleLabel(strings[.sitelenFont])
        connect(gpointerOf(entry), "activate") { [weak self] in
            // An empty name goes back to the font that comes with the app.
            let text = String(cString: gtk_editable_get_text(OpaquePointer(entry)))
            self?.model.setSitelenPonaFont(text == AppSettings.bundledSitelenPonaFont ? nil : text)
        }
        append(font, entry)
        if let missing = settings.missingSitelenPonaFont(isInstalled: Fonts.has) {
            append(font, label(strings(.sitelenFontMissing, missing), classes: ["quiet"]))
        }
        append(list, font)
    }

    // MARK: - About

    private func buildAbout(_ list: Widget) {
        let about = card()
        append(about, label(strings[.aboutText], classes: ["plate-text"]))
        append(list, about)
        let licences = card()
        append(licences, label(strings[.licences], classes: ["language"]))
        for line in [
            "ilo toki — MIT License",
            "llama.cpp — MIT License (github.com/ggml-org/llama.cpp)",
            "\(ModelCatalog.modelLicence.name) — the translation models (\(ModelCatalog.modelLicence.url.absoluteString))",
            "Space Grotesk — SIL Open Font License 1.1",
            "sitelen seli kiwen asuki (the sitelen pona font, Kreative Korp) — SIL Open Font License 1.1",
        ] {
            append(licences, label(line))
        }
        append(list, licences)
        append(list, padded(label("ilo toki · \(model.engineDescription)", classes: ["quiet"])))
    }
}

/// The model licence, shown before the first download: a modal card in the «sitelen» look.
@MainActor
final class LicenceSheet {
    private let dialog: Widget
    private let completion: @MainActor (Bool) -> Void
    private var answered = false

    init(parent: Widget, strings: UIStrings, completion: @escaping @MainActor (Bool) -> Void) {
        self.completion = completion
        dialog = gtk_window_new()
        let window: UnsafeMutablePointer<GtkWindow> = cast(dialog)
        gtk_window_set_transient_for(window, cast(parent))
        gtk_window_set_modal(window, 1)
        gtk_window_set_title(window, strings[.licenceTitle])
        gtk_window_set_default_size(window, 380, -1)
        dialog.addClass("ilotoki")
        let content = box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        content.margins(16, 16, 16, 16)
        append(content, label(strings[.licenceTitle], classes: ["title"]))
        append(content, label(ModelCatalog.modelLicence.summary))
        append(content, label(ModelCatalog.modelLicence.url.absoluteString, classes: ["quiet"]))
        let buttons = box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        let cancel = gtk_button_new_with_label(strings[.cancel])!
        cancel.addClass("row-button")
        let accept = gtk_button_new_with_label(strings[.licenceAccept])!
        accept.addClass("slab")
        accept.expand(horizontally: true, vertically: false)
        append(buttons, cancel)
        append(buttons, accept)
        append(content, buttons)
        gtk_window_set_child(window, content)
        connect(gpointerOf(cancel), "clicked") { [weak self] in self?.finish(false) }
        connect(gpointerOf(accept), "clicked") { [weak self] in self?.finish(true) }
    }

    func present() { gtk_window_present(cast(dialog)) }

    private func finish(_ accepted: Bool) {
        guard !answered else { return }
        answered = true
        gtk_window_destroy(cast(dialog))
        completion(accepted)
    }
}
