import CGtk
import CGtkSupport
import Foundation
import IloTokiCore

/// The language at the top of a plate: "toki pona" on the Toki Pona side, a choice of the
/// languages Core offers (`MainScreen.Plate.languageChoices`) on the other. What a screen
/// reader calls it, and the language it says is chosen, come from Core too.
@MainActor
final class LanguageChooser {
    let widget: Widget
    private let fixed: Widget
    private let dropdown: Widget
    /// The languages of the dropdown's rows, in order.
    private let languages: [Language]
    private var syncing = false
    var onChange: (@MainActor (Language) -> Void)?

    /// - Parameter choices: what the chooser offers (Core's, from whichever plate does not hold Toki Pona).
    init(choices: [MainScreen.LanguageChoice]) {
        languages = choices.map(\.language)
        widget = box(GTK_ORIENTATION_HORIZONTAL, spacing: 0)
        fixed = label(Language.tokiPona.endonym.uppercased(), classes: ["language"])
        gtk_label_set_wrap(cast(fixed), 0)
        let names = choices.map { strdup($0.title) } + [nil]
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
            if self.languages.indices.contains(index) { self.onChange?(self.languages[index]) }
        }
    }

    /// Draws the plate's language: fixed, or a choice showing the one chosen; names both for a
    /// screen reader, the dropdown's own button too.
    func show(_ plate: MainScreen.Plate) {
        fixed.setVisible(!plate.choosesLanguage)
        dropdown.setVisible(plate.choosesLanguage)
        setText(fixed, plate.languageTitle.uppercased())
        for control in [fixed] + dropdown.descendants.filter({ $0 == dropdown || ilotoki_gtk_is_toggle_button($0) }) {
            control.accessibleLabel(plate.languageLabel)
            control.accessibleDescription(plate.languageTitle)
        }
        if let index = plate.languageChoices.firstIndex(where: \.isChosen), Int(gtk_drop_down_get_selected(cast(dropdown))) != index {
            syncing = true
            gtk_drop_down_set_selected(cast(dropdown), guint(index))
            syncing = false
        }
    }
}
