import CGtk
import CGtkSupport
import Foundation
import IloTokiCore
import IloTokiDesign
import Observation

/// The app's window: a thin view over `TranslatorModel`. It draws what the model says and
/// calls its actions; the behaviour lives in the model.
@MainActor
public final class AppWindow {
    /// The places of the app; none of them interrupts a translation.
    public enum Place: String, CaseIterable, Sendable {
        case main, history, models, settings, about
    }

    public let window: Widget
    public let model: TranslatorModel
    let strings: UIStrings
    private let provider: UnsafeMutablePointer<GtkCssProvider>
    private var appliedCSS = ""

    // Header
    private let title: Widget
    private let modelStateLabel: Widget
    private let newerModelDot: Widget
    private let downloadToggle: IconButton
    private var placeButtons: [Place: IconButton] = [:]
    let progressLine = ProgressLine()

    // The main screen
    private let stack: Widget
    private let plates: Widget
    let sourcePlate: Plate
    let targetPlate: Plate
    private let sourceLanguage: LanguageChooser
    private let targetLanguage: LanguageChooser
    let sourcePill: Pill
    let targetPill: Pill
    let sourceView: Widget
    private let sourceBuffer: UnsafeMutablePointer<GtkTextBuffer>
    private let samples: Widget
    private let samplesScroll: Widget
    let targetLabel: Widget
    private let copyButton: IconButton
    let knob: SwapKnob
    let slab: Slab
    private let notice: Widget

    // The other places
    private(set) var pages: Pages!
    public private(set) var place: Place = .main

    /// Where to write what the window shows after every redraw (`--report`): how scripts and
    /// tests that drive the real app with xdotool see the result.
    public var reportFile: String?

    private var syncingSource = false
    private var shownSamples: [String] = []
    private var licenceSheet: LicenceSheet?

    /// Builds the window for `application` over `model`.
    /// - Parameter application: the application the window belongs to; `nil` gives a plain
    ///   window (tests drive one without running an application).
    public init(application: UnsafeMutablePointer<GtkApplication>?, model: TranslatorModel, strings: UIStrings) {
        self.model = model
        self.strings = strings
        window = application.map { gtk_application_window_new($0) } ?? gtk_window_new()
        gtk_window_set_title(cast(window), strings[.appName])
        gtk_window_set_default_size(cast(window), Int32(Tokens.Window.defaultWidth), Int32(Tokens.Window.defaultHeight))
        gtk_widget_set_size_request(window, Int32(Tokens.Window.minimumWidth), 560)
        window.addClass("ilotoki")
        provider = gtk_css_provider_new()
        ilotoki_gtk_install_css(provider)

        // Header: the name, the model's state, the places.
        title = label(strings[.appName], classes: ["title"])
        modelStateLabel = label("", classes: ["quiet"])
        gtk_label_set_ellipsize(cast(modelStateLabel), PANGO_ELLIPSIZE_END)
        gtk_label_set_wrap(cast(modelStateLabel), 0)
        newerModelDot = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
        newerModelDot.addClass("dot")
        gtk_widget_set_valign(newerModelDot, GTK_ALIGN_CENTER)
        newerModelDot.accessibleLabel(strings[.newerModelAvailable])
        downloadToggle = IconButton(.pause, label: strings[.pauseDownload], flat: true) {}

        // Plates
        sourceLanguage = LanguageChooser(strings: strings)
        targetLanguage = LanguageChooser(strings: strings)
        sourcePill = Pill {}
        targetPill = Pill {}
        sourceView = gtk_text_view_new()
        sourceBuffer = gtk_text_view_get_buffer(cast(sourceView))
        gtk_text_view_set_wrap_mode(cast(sourceView), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(cast(sourceView), 0)
        sourceView.addClass("plate-text")
        sourceView.expand(horizontally: true, vertically: true)
        sourceView.accessibleLabel(strings[.sourcePlaceholder])
        samples = gtk_flow_box_new()
        gtk_flow_box_set_selection_mode(cast(samples), GTK_SELECTION_NONE)
        gtk_flow_box_set_max_children_per_line(cast(samples), 2)
        targetLabel = label("", classes: ["plate-text"])
        gtk_label_set_selectable(cast(targetLabel), 1)
        gtk_widget_set_valign(targetLabel, GTK_ALIGN_START)
        targetLabel.expand(horizontally: true, vertically: true)
        copyButton = IconButton(.copy, label: strings[.copy], flat: true) {}
        knob = SwapKnob(label: strings[.swap]) {}
        slab = Slab {}
        notice = label("", classes: ["quiet"])
        notice.margins(0, 16, 8, 16)

        let sourceTop = box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        append(sourceTop, sourceLanguage.widget)
        append(sourceTop, spacer())
        append(sourceTop, sourcePill.widget)
        // Long text and the sample phrases scroll inside the plate: the plates never grow
        // past the screen.
        let sourceScroll = scroller(sourceView)
        samplesScroll = scroller(samples)
        gtk_scrolled_window_set_propagate_natural_height(cast(samplesScroll), 1)
        let sourceContent = box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        append(sourceContent, sourceTop)
        append(sourceContent, sourceScroll)
        append(sourceContent, samplesScroll)
        sourcePlate = Plate(sourceContent)

        let targetTop = box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        append(targetTop, targetLanguage.widget)
        append(targetTop, spacer())
        append(targetTop, targetPill.widget)
        append(targetTop, copyButton.widget)
        let targetScroll = scroller(targetLabel)
        let targetContent = box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        append(targetContent, targetTop)
        append(targetContent, targetScroll)
        targetPlate = Plate(targetContent)
        sourcePlate.widget.expand(horizontally: true, vertically: true)
        targetPlate.widget.expand(horizontally: true, vertically: true)

        // Two plates of equal size, the knob centred on the seam between them.
        plates = box(GTK_ORIENTATION_VERTICAL, spacing: Int32(Tokens.Spacing.extraLarge))
        gtk_box_set_homogeneous(cast(plates), 1)
        append(plates, sourcePlate.widget)
        append(plates, targetPlate.widget)
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(cast(overlay), plates)
        gtk_overlay_add_overlay(cast(overlay), knob.widget)
        overlay.expand(horizontally: true, vertically: true)
        overlay.margins(8, 16, 8, 12)

        let mainPage = box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        append(mainPage, overlay)
        append(mainPage, notice)
        slab.widget.margins(4, 20, 20, 16)
        append(mainPage, slab.widget)

        stack = gtk_stack_new()
        gtk_stack_set_transition_type(cast(stack), GTK_STACK_TRANSITION_TYPE_NONE)
        // Each place asks only for its own size: a long list elsewhere must not make the
        // window taller than a phone's screen.
        gtk_stack_set_vhomogeneous(cast(stack), 0)
        gtk_stack_set_hhomogeneous(cast(stack), 0)
        gtk_stack_add_named(cast(stack), mainPage, Place.main.rawValue)

        let header = box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        header.addClass("header")
        let titles = box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        let titleRow = box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        append(titleRow, title)
        append(titleRow, newerModelDot)
        append(titles, titleRow)
        append(titles, modelStateLabel)
        titles.expand(horizontally: true, vertically: false)
        append(header, titles)
        append(header, downloadToggle.widget)

        let layout = box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        append(layout, header)
        progressLine.widget.margins(0, 12, 6, 12)
        append(layout, progressLine.widget)
        append(layout, stack)
        gtk_window_set_child(cast(window), layout)

        for (place, icon, text) in [
            (Place.history, IconName.history, UIText.history), (.models, .models, .models), (.settings, .settings, .settings),
            (.about, .about, .about),
        ] {
            let button = IconButton(icon, label: strings[text], flat: true) { [weak self] in self?.show(place) }
            placeButtons[place] = button
            append(header, button.widget)
        }

        pages = Pages(window: self)
        for page in Place.allCases where page != .main {
            gtk_stack_add_named(cast(stack), pages.widget(for: page), page.rawValue)
        }
        wireActions()
        observe()
        adaptLayout()
        connectWithArgument(gpointerOf(window), "notify::default-width") { [weak self] in self?.adaptLayout() }
        // Typing starts on the source plate, as in any translator.
        gtk_window_set_focus(cast(window), sourceView)
    }

    // MARK: - Actions

    private func wireActions() {
        connect(gpointerOf(sourceBuffer), "changed") { [weak self] in
            guard let self, !self.syncingSource else { return }
            self.model.sourceText = self.sourceBufferText
        }
        connect(gpointerOf(knob.widget), "clicked") { [weak self] in self?.model.swap() }
        connect(gpointerOf(slab.widget), "clicked") { [weak self] in self?.pressSlab() }
        connect(gpointerOf(sourcePill.widget), "clicked") { [weak self] in self?.flipScript() }
        connect(gpointerOf(targetPill.widget), "clicked") { [weak self] in self?.flipScript() }
        connect(gpointerOf(copyButton.widget), "clicked") { [weak self] in self?.copyResult() }
        connect(gpointerOf(downloadToggle.widget), "clicked") { [weak self] in self?.toggleDownload() }
        sourceLanguage.onChange = { [weak self] language in self?.model.setOtherLanguage(language) }
        targetLanguage.onChange = { [weak self] language in self?.model.setOtherLanguage(language) }

        addShortcut(window, "<Control>Return", beforeFocus: true) { [weak self] in self?.pressSlabForTranslation() }
        addShortcut(window, "<Control>KP_Enter", beforeFocus: true) { [weak self] in self?.pressSlabForTranslation() }
        addShortcut(window, "<Control><Shift>s", beforeFocus: true) { [weak self] in self?.model.swap() }
        addShortcut(window, "Escape") { [weak self] in
            guard let self else { return }
            if self.place != .main { self.show(.main) } else { self.model.stopTranslation() }
        }
    }

    /// The slab, as if pressed.
    public func pressSlab() {
        switch model.slabAction {
        case .translate, .stop: model.translate()
        case .download, .resumeDownload: startDownload()
        case .retry: Task { await model.retryLoading() }
        case .busy: break
        }
    }

    private func pressSlabForTranslation() {
        if model.slabAction == .translate { model.translate() }
    }

    /// Downloads the model the slab offers, showing the licence first the first time.
    func startDownload(_ entry: CatalogEntry? = nil) {
        let start: @MainActor () -> Void = { [weak self] in
            guard let self else { return }
            if let entry { self.model.startDownload(entry) } else { self.model.startDownload() }
        }
        guard model.needsLicenceAcceptance else { return start() }
        let sheet = LicenceSheet(parent: window, strings: strings) { [weak self] accepted in
            self?.licenceSheet = nil
            guard accepted else { return }
            self?.model.acceptModelLicence()
            start()
        }
        licenceSheet = sheet
        sheet.present()
    }

    private func toggleDownload() {
        guard let download = model.activeDownload else { return }
        if case .running = download.phase { model.pauseDownload() } else { startDownload(download.entry) }
    }

    private func flipScript() {
        let family = model.settings.sitelenPonaFamily(isInstalled: Fonts.has)
        if !Fonts.has(family) && model.tokiPonaScript == .latin {
            setText(notice, strings(.sitelenFontMissing, family))
            notice.setVisible(true)
            return
        }
        model.flipScript()
    }

    private func copyResult() {
        guard let text = model.copyResult() else { return }
        gdk_clipboard_set_text(gdk_display_get_clipboard(gdk_display_get_default()), text)
        setText(notice, strings[.copied])
        notice.setVisible(true)
    }

    /// Shows one of the app's places.
    public func show(_ place: Place) {
        self.place = place
        // Entries the command line added while the app ran appear when the history is shown.
        if place == .history { model.refreshHistory() }
        gtk_stack_set_visible_child_name(cast(stack), place.rawValue)
        if place == .main { gtk_widget_grab_focus(sourceView) }
        render()
    }

    // MARK: - Drawing the model

    /// Draws the model, and again whenever anything it read changes.
    private func observe() {
        withObservationTracking {
            render()
        } onChange: { [weak self] in
            // Fires once, before the change: draw on the next turn, then track again.
            Task { @MainActor in self?.observe() }
        }
    }

    private var sourceBufferText: String {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_bounds(sourceBuffer, &start, &end)
        guard let text = gtk_text_buffer_get_text(sourceBuffer, &start, &end, 0) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    func render() {
        applyStyle()
        renderHeader()
        renderPlates()
        renderSlab()
        pages.render(place)
        for (place, button) in placeButtons {
            // Away from the plates, jelo marks where you are: the one active choice.
            button.widget.setClass("jelo", place == self.place)
        }
        targetPlate.setBackground(jelo: place == .main)
        writeReport()
    }

    /// What is on screen, as JSON.
    public var report: [String: String] {
        [
            "place": place.rawValue,
            "source": sourcePlateText,
            "target": targetPlateText,
            "direction": model.direction.description,
            "slab": slabTitle,
            "script": model.tokiPonaScript.rawValue,
            "sourceSitelenPona": String(sourceShowsSitelenPona),
            "targetSitelenPona": String(targetShowsSitelenPona),
            "translation": "\(model.translationState)",
            "model": "\(model.modelState)",
            "progressLine": progressLineFraction.map { String($0) } ?? "hidden",
            "jelo": String(visibleJeloSurfaces.count),
        ]
    }

    private func writeReport() {
        guard let reportFile, let data = try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]) else { return }
        let temporary = reportFile + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return }
        _ = rename(temporary, reportFile)
    }

    private func applyStyle() {
        let palette: Palette
        switch model.settings.theme {
        case .light: palette = .light
        case .dark: palette = .dark
        case .system: palette = AppWindow.systemPrefersDark ? .dark : .light
        }
        let css = Stylesheet.css(palette: palette, sitelenPonaFont: model.settings.sitelenPonaFamily(isInstalled: Fonts.has))
        guard css != appliedCSS else { return }
        appliedCSS = css
        gtk_css_provider_load_from_data(provider, css, -1)
    }

    private static var systemPrefersDark: Bool {
        guard let settings = gtk_settings_get_default() else { return false }
        var value = GValue()
        g_value_init(&value, GType(5 << 2))  // G_TYPE_BOOLEAN
        g_object_get_property(UnsafeMutableRawPointer(settings).assumingMemoryBound(to: GObject.self), "gtk-application-prefer-dark-theme", &value)
        defer { g_value_unset(&value) }
        return g_value_get_boolean(&value) != 0
    }

    private func renderHeader() {
        newerModelDot.setVisible(model.newerModelAvailable)
        var state = ""
        if let loaded = model.loadedModel {
            state = loaded.displayName
        }
        switch model.modelState {
        case .loading: state = strings[.modelLoading]
        case .failed: state = strings[.retry]
        case .notDownloaded: state = strings[.modelNotInstalled]
        default: break
        }
        setText(modelStateLabel, state)
        if let download = model.activeDownload {
            downloadToggle.widget.setVisible(true)
            progressLine.show(fraction: download.fraction)
            if case .running = download.phase {
                downloadToggle.icon.set(.pause)
                downloadToggle.widget.accessibleLabel(strings[.pauseDownload])
            } else {
                downloadToggle.icon.set(.download)
                downloadToggle.widget.accessibleLabel(strings(.resumeDownload, percent(download.fraction)))
            }
        } else {
            downloadToggle.widget.setVisible(false)
            progressLine.show(fraction: nil)
        }
    }

    private func renderPlates() {
        let direction = model.direction
        sourceLanguage.show(direction.source, other: direction.otherLanguage)
        targetLanguage.show(direction.target, other: direction.otherLanguage)

        if sourceBufferText != model.sourceText {
            syncingSource = true
            gtk_text_buffer_set_text(sourceBuffer, model.sourceText, -1)
            syncingSource = false
        }

        // The pill sits on whichever plate holds Toki Pona; the script follows that text.
        let sitelen = model.tokiPonaScript == .sitelenPona
        let pillTitle = sitelen ? strings[.scriptLatin] : strings[.scriptSitelenPona]
        sourcePill.widget.setVisible(model.tokiPonaIsOnSource)
        targetPill.widget.setVisible(!model.tokiPonaIsOnSource)
        sourcePill.setTitle(pillTitle)
        targetPill.setTitle(pillTitle)
        sourceView.setClass("sitelen", sitelen && model.tokiPonaIsOnSource)
        targetLabel.setClass("sitelen", sitelen && !model.tokiPonaIsOnSource && !model.targetText.isEmpty)

        let phrases = model.samplePhrases
        if phrases != shownSamples {
            shownSamples = phrases
            while let child = gtk_widget_get_first_child(samples) { gtk_flow_box_remove(cast(samples), child) }
            for phrase in phrases {
                let button = gtk_button_new_with_label(phrase)!
                button.addClass("row-button")
                connect(gpointerOf(button), "clicked") { [weak self] in self?.model.useSamplePhrase(phrase) }
                gtk_flow_box_append(cast(samples), button)
            }
        }
        samplesScroll.setVisible(!phrases.isEmpty)

        setText(targetLabel, targetMessage)
        targetLabel.setClass("quiet", model.targetText.isEmpty)
        copyButton.widget.setVisible(!model.targetText.isEmpty)
        if model.notices.isEmpty == false {
            setText(notice, model.notices.joined(separator: "\n"))
            notice.setVisible(true)
        } else if textOf(notice).isEmpty {
            notice.setVisible(false)
        }
    }

    /// What the target plate says: the translation, or why there is none.
    var targetMessage: String {
        if !model.targetText.isEmpty { return model.targetText }
        if case .failed(let reason) = model.translationState { return strings(.translationFailed, reason) }
        switch model.modelState {
        case .notDownloaded: return strings[.modelNotDownloaded]
        case .downloading(let progress): return strings(.downloading, percent(progress.fraction))
        case .paused(let progress): return strings(.downloadPaused, percent(progress.fraction))
        case .verifying: return strings[.verifying]
        case .loading: return strings[.modelLoading]
        case .failed(let reason): return strings(.modelFailed, reason)
        case .ready: return model.translationState == .done ? strings[.emptyTranslation] : ""
        }
    }

    private func renderSlab() {
        switch model.slabAction {
        case .translate:
            slab.setTitle(strings[.translate])
            slab.setEnabled(!TranslationPrompt.prepare(model.sourceText).isEmpty)
        case .stop:
            slab.setTitle(strings[.stop])
            slab.setEnabled(true)
        case .download(let entry):
            slab.setTitle(strings(.downloadModel, ByteSize.text(entry.bytes)))
            slab.setEnabled(true)
        case .resumeDownload:
            let fraction = model.activeDownload?.fraction ?? {
                if case .paused(let progress) = model.modelState { return progress.fraction ?? 0 }
                return 0
            }()
            slab.setTitle(strings(.resumeDownload, percent(fraction)))
            slab.setEnabled(true)
        case .busy:
            slab.setTitle(strings[.wait])
            slab.setEnabled(false)
        case .retry:
            slab.setTitle(strings[.retry])
            slab.setEnabled(true)
        }
    }

    private func adaptLayout() {
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_default_size(cast(window), &width, &height)
        let wide = Double(width) >= Tokens.Window.wideLayout
        gtk_orientable_set_orientation(
            OpaquePointer(plates),
            wide ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL)
    }

    func percent(_ fraction: Double?) -> String {
        "\(Int(((fraction ?? 0) * 100).rounded(.down)))%"
    }

    // MARK: - For tests and screenshots

    /// Types into the source plate through its text buffer, as the keyboard does.
    public func type(_ text: String) {
        gtk_text_buffer_insert_at_cursor(sourceBuffer, text, -1)
    }

    /// The text the target plate shows now.
    public var targetPlateText: String { textOf(targetLabel) }

    /// The notice under the plates, when one is shown.
    public var noticeText: String? { notice.isVisible ? textOf(notice) : nil }

    /// The text the source plate shows now.
    public var sourcePlateText: String { sourceBufferText }

    /// Whether the target plate draws its text in sitelen pona.
    public var targetShowsSitelenPona: Bool { targetLabel.hasClass("sitelen") }

    /// Whether the source plate draws its text in sitelen pona.
    public var sourceShowsSitelenPona: Bool { sourceView.hasClass("sitelen") }

    /// The slab's title now.
    public var slabTitle: String { gtk_button_get_label(cast(slab.widget)).map { String(cString: $0) } ?? "" }

    /// Presses a button the way a click does (GTK's own activation).
    public func activate(_ control: Control) {
        let widget: Widget
        switch control {
        case .slab: widget = slab.widget
        case .knob: widget = knob.widget
        case .sourcePill: widget = sourcePill.widget
        case .targetPill: widget = targetPill.widget
        case .downloadToggle: widget = downloadToggle.widget
        case .place(let place): widget = place == .main ? slab.widget : (placeButtons[place]?.widget ?? slab.widget)
        }
        gtk_widget_activate(widget)
    }

    public enum Control {
        case slab, knob, sourcePill, targetPill, downloadToggle
        case place(Place)
    }

    /// Widgets filled with jelo that are on screen now.
    public var visibleJeloSurfaces: [String] {
        window.descendants.filter { $0.hasClass("jelo") && $0.isMapped && gtk_widget_get_child_visible($0) != 0 }.map { widget in
            String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)))
        }
    }

    /// The text of every label on screen now.
    public var visibleTexts: [String] {
        window.descendants.filter { widget in
            widget.isMapped
                && String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)))
                    == "GtkLabel"
        }.map(textOf)
    }

    /// Whether the progress line is showing, and how full.
    public var progressLineFraction: Double? { progressLine.widget.isMapped ? progressLine.fraction : nil }

    /// The text of every history row shown now.
    public var historyRows: [String] { pages.historyRowTexts }

    /// Saves the window as a PNG.
    public func saveScreenshot(to path: String) throws {
        var error = [CChar](repeating: 0, count: 256)
        guard ilotoki_gtk_save_png(window, path, &error, error.count) else {
            throw ScreenshotError(message: String(cString: error))
        }
    }

    public struct ScreenshotError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { "Could not save the screenshot: \(message)" }
    }
}

/// The language at the top of a plate: "toki pona" on the Toki Pona side, a choice of
/// English, Русский, Tiếng Việt on the other.
@MainActor
final class LanguageChooser {
    let widget: Widget
    private let fixed: Widget
    private let dropdown: Widget
    private var syncing = false
    var onChange: (@MainActor (Language) -> Void)?

    init(strings: UIStrings) {
        widget = box(GTK_ORIENTATION_HORIZONTAL, spacing: 0)
        fixed = label(Language.tokiPona.endonym.uppercased(), classes: ["language"])
        gtk_label_set_wrap(cast(fixed), 0)
        let names = Language.others.map { strdup($0.endonym) } + [nil]
        dropdown = names.withUnsafeBufferPointer { buffer in
            gtk_drop_down_new_from_strings(UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UnsafePointer<CChar>?.self))
        }
        names.forEach { free($0) }
        dropdown.addClass("language")
        append(widget, fixed)
        append(widget, dropdown)
        connectWithArgument(gpointerOf(dropdown), "notify::selected") { [weak self] in
            guard let self, !self.syncing else { return }
            let index = Int(gtk_drop_down_get_selected(cast(self.dropdown)))
            if Language.others.indices.contains(index) { self.onChange?(Language.others[index]) }
        }
    }

    func show(_ language: Language, other: Language) {
        fixed.setVisible(language == .tokiPona)
        dropdown.setVisible(language != .tokiPona)
        if let index = Language.others.firstIndex(of: other), Int(gtk_drop_down_get_selected(cast(dropdown))) != index {
            syncing = true
            gtk_drop_down_set_selected(cast(dropdown), guint(index))
            syncing = false
        }
    }
}
