import CGtk
import CGtkSupport
import Foundation
import IloTokiCore

/// What tests, screenshots and the `--report` file read of the window, and the controls they press.
extension AppWindow {
    /// Types into the source plate through its text buffer, as the keyboard does.
    public func type(_ text: String) { main.type(text) }

    /// Selects characters `range` of the source plate's text, as a double click on a word does.
    public func selectSource(_ range: Range<Int>) { main.selectSource(range) }

    /// The word whose dictionary entry is on screen, and what the entry says.
    public var shownWordEntry: MainScreen.WordCard? { main.wordCard.widget.isMapped ? main.wordCard.shown : nil }

    /// Presses a "see also" word of the entry shown, or (nil) its close button.
    public func pressWordEntry(seeAlso word: String?) { main.wordCard.press(seeAlso: word) }

    /// The text the target plate shows now.
    public var targetPlateText: String { textOf(main.targetLabel) }

    /// The notice under the plates, when one is shown.
    public var noticeText: String? { main.notice.isVisible ? textOf(main.notice) : nil }

    /// The text the source plate shows now.
    public var sourcePlateText: String { main.sourceText }

    /// Whether the target plate draws its text in sitelen pona.
    public var targetShowsSitelenPona: Bool { main.targetLabel.hasClass("sitelen") }

    /// Whether the source plate draws its text in sitelen pona.
    public var sourceShowsSitelenPona: Bool { main.sourceView.hasClass("sitelen") }

    /// The input hints the source plate gives the input method, by GTK's names for them.
    public var sourceInputHints: Set<String> {
        let hints = gtk_text_view_get_input_hints(cast(main.sourceView)).rawValue
        let names: [(GtkInputHints, String)] = [
            (GTK_INPUT_HINT_SPELLCHECK, "spellcheck"), (GTK_INPUT_HINT_NO_SPELLCHECK, "no-spellcheck"),
            (GTK_INPUT_HINT_WORD_COMPLETION, "word-completion"), (GTK_INPUT_HINT_LOWERCASE, "lowercase"),
            (GTK_INPUT_HINT_UPPERCASE_SENTENCES, "uppercase-sentences"),
        ]
        return Set(names.filter { hints & $0.0.rawValue != 0 }.map(\.1))
    }

    /// The slab's title now.
    public var slabTitle: String { gtk_button_get_label(cast(main.slab.widget)).map { String(cString: $0) } ?? "" }

    /// Presses a button the way a click does (GTK's own activation).
    public func activate(_ control: Control) {
        let widget: Widget
        switch control {
        case .slab: widget = main.slab.widget
        case .knob: widget = main.knob.widget
        case .sourcePill: widget = main.sourcePill.widget
        case .targetPill: widget = main.targetPill.widget
        case .downloadToggle: widget = header.downloadToggle.widget
        case .dismissHint: widget = main.hintDismissButton
        case .place(let place): widget = place == .main ? main.slab.widget : (header.placeButtons[place]?.widget ?? main.slab.widget)
        }
        gtk_widget_activate(widget)
    }

    public enum Control {
        case slab, knob, sourcePill, targetPill, downloadToggle, dismissHint
        case place(Place)
    }

    /// Widgets filled with jelo that are on screen now.
    public var visibleJeloSurfaces: [String] {
        window.descendants.filter { $0.hasClass("jelo") && $0.isMapped && gtk_widget_get_child_visible($0) != 0 }.map(typeName)
    }

    /// The title of every button on screen now.
    public var visibleButtonTitles: [String] {
        window.descendants.filter { $0.isMapped && typeName($0) == "GtkButton" }.compactMap { button in
            gtk_button_get_label(cast(button)).map { String(cString: $0) }
        }
    }

    /// The text of every label on screen now.
    public var visibleTexts: [String] {
        window.descendants.filter { $0.isMapped && typeName($0) == "GtkLabel" }.map(textOf)
    }

    /// Whether the progress line is showing, and how full.
    public var progressLineFraction: Double? { header.progressLine.widget.isMapped ? header.progressLine.fraction : nil }

    /// The text of every history row shown now.
    public var historyRows: [String] { pages.historyRowTexts }

    /// The bar under the target plate while a long text translates: its fraction and its
    /// accessible name; `nil` while it is hidden.
    public var translationBar: (fraction: Double, label: String)? {
        guard main.translationBar.isVisible else { return nil }
        return (gtk_progress_bar_get_fraction(cast(main.translationBar)), main.translationBarLabel)
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
            "notifications": String(notificationsSent),
            "slabCentre": slabCentre,
            // Keys typed now reach the source plate: the window is active and the plate has the focus.
            "typing": String(gtk_window_is_active(cast(window)) != 0 && gtk_widget_has_focus(main.sourceView) != 0),
        ]
    }

    /// Where the slab's centre is in the window, "x,y" (for xdotool's click).
    private var slabCentre: String {
        let slab = main.slab.widget
        var x = 0.0
        var y = 0.0
        guard
            gtk_widget_translate_coordinates(
                slab, window, Double(gtk_widget_get_width(slab)) / 2, Double(gtk_widget_get_height(slab)) / 2, &x, &y) != 0
        else { return "" }
        return "\(Int(x)),\(Int(y))"
    }

    func writeReport() {
        guard let reportFile, let data = try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]) else { return }
        let temporary = reportFile + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return }
        _ = rename(temporary, reportFile)
    }

    /// Saves the window as a PNG.
    public func saveScreenshot(to path: String) throws {
        var error = [CChar](repeating: 0, count: 256)
        guard ilotoki_gtk_save_png(window, path, &error, error.count) else {
            throw ScreenshotError(message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    public struct ScreenshotError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { "Could not save the screenshot: \(message)" }
    }

    private func typeName(_ widget: Widget) -> String {
        String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)))
    }
}
