import CGtk
import CGtkSupport
import Foundation
import IloTokiCore

/// The language at the top of a plate: "toki pona" on the Toki Pona side, a choice of
/// English, Русский, Tiếng Việt on the other.
@MainActor
final class LanguageChooser {
    let widget: Widget
    private let fixed: Widget
    private let dropdown: Widget
    private var syncing = false
    var onChange: (@MainActor (Language) -> Void)?

    init() {
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

    /// Draws the plate's language: fixed, or a choice showing `plate.otherLanguage`.
    func show(_ plate: MainScreen.Plate) {
        fixed.setVisible(!plate.choosesLanguage)
        dropdown.setVisible(plate.choosesLanguage)
        if let index = Language.others.firstIndex(of: plate.otherLanguage), Int(gtk_drop_down_get_selected(cast(dropdown))) != index {
            syncing = true
            gtk_drop_down_set_selected(cast(dropdown), guint(index))
            syncing = false
        }
    }
}
