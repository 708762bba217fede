import CGtk
import CGtkSupport
import Foundation
import IloTokiCore
import IloTokiDesign

/// The main page: the source plate above, the target plate below, the knob on their seam, the
/// line for notices and the slab. It draws `MainScreen` and sends every action to the model.
@MainActor
final class MainPage {
    let widget: Widget
    let plates: Widget
    let sourcePlate: Plate
    let targetPlate: Plate
    let sourcePill: Pill
    let targetPill: Pill
    let sourceView: Widget
    let targetLabel: Widget
    /// The thin bar under the target plate's text while a long text translates.
    let translationBar: Widget
    /// What a screen reader calls the bar now.
    private(set) var translationBarLabel = ""
    let knob: SwapKnob
    let slab: Slab
    let notice: Widget
    private let perform: @MainActor (Action) -> Void
    private let sourceLanguage: LanguageChooser
    private let targetLanguage: LanguageChooser
    private let sourceBuffer: UnsafeMutablePointer<GtkTextBuffer>
    private let samples: Widget
    private let samplesScroll: Widget
    private let copyButton: IconButton
    private var syncingSource = false
    private var shownKeyboard: MainScreen.Keyboard?
    private var shownSourceWords: [String] = []
    private var shownTargetWords: [String] = []
    /// The word whose entry is shown, so a selection that stays on it asks nothing again.
    private var lookedUp: String?
    let wordCard: WordCardView
    /// The first-run hint: where the translator comes from, and the button that dismisses it.
    let hint: Widget
    let hintText: Widget
    private let hintButton: Widget
    var hintDismissButton: Widget { hintButton }
    private var shownSamples: [String] = []

    /// - Parameters:
    ///   - screen: what the page shows first (the languages its choosers offer).
    ///   - perform: performs an action of the page's controls (the window's `perform`).
    init(_ screen: MainScreen, strings: UIStrings, perform: @escaping @MainActor (Action) -> Void) {
        self.perform = perform
        wordCard = WordCardView(closeLabel: strings[.closeWord], perform: perform)
        let choices = screen.source.languageChoices.isEmpty ? screen.target.languageChoices : screen.source.languageChoices
        sourceLanguage = LanguageChooser(choices: choices)
        targetLanguage = LanguageChooser(choices: choices)
        sourcePill = Pill { perform(.flipScript) }
        targetPill = Pill { perform(.flipScript) }
        sourceView = gtk_text_view_new()
        sourceBuffer = gtk_text_view_get_buffer(cast(sourceView))
        gtk_text_view_set_wrap_mode(cast(sourceView), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(cast(sourceView), 0)
        sourceView.addClass("plate-text")
        sourceView.expand(horizontally: true, vertically: true)
        sourceView.accessibleLabel(screen.source.textLabel)
        samples = gtk_flow_box_new()
        gtk_flow_box_set_selection_mode(cast(samples), GTK_SELECTION_NONE)
        gtk_flow_box_set_max_children_per_line(cast(samples), 2)
        targetLabel = label("", classes: ["plate-text"])
        gtk_label_set_selectable(cast(targetLabel), 1)
        gtk_widget_set_valign(targetLabel, GTK_ALIGN_START)
        targetLabel.expand(horizontally: true, vertically: true)
        translationBar = gtk_progress_bar_new()
        translationBar.addClass("translation-bar")
        translationBar.setVisible(false)
        copyButton = IconButton(.copy, label: screen.copyLabel, flat: true) { perform(.copy) }
        knob = SwapKnob(label: screen.swapLabel) { perform(.swap) }
        slab = Slab { perform(.pressSlab) }
        notice = label("", classes: ["quiet"])
        notice.margins(0, 16, 8, 16)
        hintText = label("", classes: ["quiet"])
        gtk_label_set_wrap(cast(hintText), 1)
        hintText.expand(horizontally: true, vertically: false)
        hintButton = gtk_button_new_with_label("")
        hintButton.addClass("row-button")
        gtk_widget_set_valign(hintButton, GTK_ALIGN_CENTER)
        connect(gpointerOf(hintButton), "clicked") { perform(.dismissFirstRunHint) }
        hint = box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        append(hint, hintText)
        append(hint, hintButton)
        hint.margins(0, 16, 8, 16)
        hint.setVisible(false)

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
        append(targetContent, translationBar)
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
        // A word's entry rises over the lower plate, as a sheet: the plates keep their size,
        // and the knob stays on top.
        gtk_widget_set_valign(wordCard.widget, GTK_ALIGN_END)
        gtk_overlay_add_overlay(cast(overlay), wordCard.widget)
        gtk_overlay_add_overlay(cast(overlay), knob.widget)
        overlay.expand(horizontally: true, vertically: true)
        overlay.margins(8, 16, 8, 12)

        widget = box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        append(widget, overlay)
        append(widget, hint)
        append(widget, notice)
        slab.widget.margins(4, 20, 20, 16)
        append(widget, slab.widget)

        connect(gpointerOf(sourceBuffer), "changed") { [weak self] in
            guard let self, !self.syncingSource else { return }
            perform(.setSourceText(text: self.sourceText))
        }
        // A Toki Pona word selected (a double click selects one) shows its dictionary entry.
        connectWithTwoArguments(gpointerOf(sourceBuffer), "mark-set") { [weak self] in
            guard let self, !self.syncingSource else { return }
            self.lookUp(self.selectedSourceText, on: self.shownSourceWords)
        }
        connectWithArgument(gpointerOf(targetLabel), "notify::selection-bound") { [weak self] in
            guard let self else { return }
            self.lookUp(self.selectedTargetText, on: self.shownTargetWords)
        }
        sourceLanguage.onChange = { perform(.setOtherLanguage(language: $0)) }
        targetLanguage.onChange = { perform(.setOtherLanguage(language: $0)) }
    }

    /// What the input method is asked for while the source plate's text is typed (on-screen
    /// keyboards such as Phosh's read these). GTK has no hint for an ASCII keyboard or for a
    /// keyboard's language: the Toki Pona plate asks for lowercase without spelling or
    /// completion, the other for sentence capitals, spelling and completion.
    static func inputHints(_ keyboard: MainScreen.Keyboard) -> GtkInputHints {
        var hints =
            keyboard.corrects
            ? GTK_INPUT_HINT_SPELLCHECK.rawValue | GTK_INPUT_HINT_WORD_COMPLETION.rawValue : GTK_INPUT_HINT_NO_SPELLCHECK.rawValue
        hints |= keyboard.capitalizesSentences ? GTK_INPUT_HINT_UPPERCASE_SENTENCES.rawValue : GTK_INPUT_HINT_LOWERCASE.rawValue
        return GtkInputHints(rawValue: hints)
    }

    /// What is selected in the source plate (empty without a selection).
    var selectedSourceText: String {
        var start = GtkTextIter()
        var end = GtkTextIter()
        guard gtk_text_buffer_get_selection_bounds(sourceBuffer, &start, &end) != 0,
            let text = gtk_text_buffer_get_text(sourceBuffer, &start, &end, 0)
        else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// What is selected in the target plate (empty without a selection).
    var selectedTargetText: String {
        var start: Int32 = 0
        var end: Int32 = 0
        guard gtk_label_get_selection_bounds(cast(targetLabel), &start, &end) != 0, end > start,
            let text = gtk_label_get_text(cast(targetLabel))
        else { return "" }
        let characters = Array(String(cString: text))
        guard end <= characters.count else { return "" }
        return String(characters[Int(start)..<Int(end)])
    }

    /// Looks up a selection that is one of the plate's dictionary words (Core lists them);
    /// any other selection is just a selection.
    private func lookUp(_ selection: String, on words: [String]) {
        let word = selection.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters)).lowercased()
        guard !word.isEmpty, words.contains(word), word != lookedUp else { return }
        lookedUp = word
        perform(.lookUpWord(word: word))
    }

    /// The text in the source plate's buffer.
    var sourceText: String {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_bounds(sourceBuffer, &start, &end)
        guard let text = gtk_text_buffer_get_text(sourceBuffer, &start, &end, 0) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Selects characters `range` of the source plate's text, as a double click on a word does.
    func selectSource(_ range: Range<Int>) {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(sourceBuffer, &start, Int32(range.lowerBound))
        gtk_text_buffer_get_iter_at_offset(sourceBuffer, &end, Int32(range.upperBound))
        gtk_text_buffer_select_range(sourceBuffer, &start, &end)
    }

    /// Types into the source plate through its text buffer, as the keyboard does.
    func type(_ text: String) {
        gtk_text_buffer_insert_at_cursor(sourceBuffer, text, -1)
    }

    func render(_ screen: MainScreen) {
        sourceLanguage.show(screen.source)
        targetLanguage.show(screen.target)
        if sourceText != screen.source.text {
            syncingSource = true
            gtk_text_buffer_set_text(sourceBuffer, screen.source.text, -1)
            syncingSource = false
        }
        for (pill, plate) in [(sourcePill, screen.source), (targetPill, screen.target)] {
            pill.widget.setVisible(plate.pill != nil)
            if let title = plate.pill { pill.setTitle(title) }
            pill.widget.accessibleLabel(plate.pillLabel)
            pill.widget.accessibleDescription(plate.scriptName)
        }
        sourceView.setClass("sitelen", screen.source.inSitelenPona)
        wordCard.show(screen.word)
        hint.setVisible(screen.hint != nil)
        if let shown = screen.hint {
            setText(hintText, shown.text)
            gtk_button_set_label(cast(hintButton), shown.dismissTitle)
        }
        lookedUp = screen.word?.word
        // A word selected before the words it belongs to were known is looked up now, once this
        // redraw is over (an action performed while drawing would not be drawn).
        if screen.source.dictionaryWords != shownSourceWords || screen.target.dictionaryWords != shownTargetWords {
            shownSourceWords = screen.source.dictionaryWords
            shownTargetWords = screen.target.dictionaryWords
            Task { @MainActor [weak self] in
                guard let self else { return }
                self.lookUp(self.selectedSourceText, on: self.shownSourceWords)
                self.lookUp(self.selectedTargetText, on: self.shownTargetWords)
            }
        }
        if screen.source.keyboard != shownKeyboard {
            shownKeyboard = screen.source.keyboard
            gtk_text_view_set_input_hints(cast(sourceView), Self.inputHints(screen.source.keyboard))
            gtk_text_view_set_input_purpose(cast(sourceView), GTK_INPUT_PURPOSE_FREE_FORM)
        }
        targetLabel.setClass("sitelen", screen.target.inSitelenPona)

        if screen.source.samplePhrases != shownSamples {
            shownSamples = screen.source.samplePhrases
            while let child = gtk_widget_get_first_child(samples) { gtk_flow_box_remove(cast(samples), child) }
            for phrase in shownSamples {
                let button = gtk_button_new_with_label(phrase)!
                button.addClass("row-button")
                connect(gpointerOf(button), "clicked") { [perform] in perform(.useSample(phrase: phrase)) }
                gtk_flow_box_append(cast(samples), button)
            }
        }
        samplesScroll.setVisible(!shownSamples.isEmpty)

        setText(targetLabel, screen.target.text)
        targetLabel.setClass("quiet", screen.target.isMessage)
        copyButton.widget.setVisible(screen.target.canCopy)
        // A GtkProgressBar is a progress bar to AT-SPI: its value is the fraction, its name the label.
        translationBar.setVisible(screen.translationBar != nil)
        if let bar = screen.translationBar {
            gtk_progress_bar_set_fraction(cast(translationBar), max(0, min(1, bar.fraction)))
            if bar.label != translationBarLabel {
                translationBar.accessibleLabel(bar.label)
                translationBarLabel = bar.label
            }
        }
        setText(notice, screen.notice ?? "")
        notice.setVisible(screen.notice != nil)
        slab.setTitle(screen.slab.title)
        slab.setEnabled(screen.slab.isEnabled)
    }

    /// Plates side by side on a wide window, stacked on a phone.
    func setWide(_ wide: Bool) {
        gtk_orientable_set_orientation(OpaquePointer(plates), wide ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL)
    }
}
