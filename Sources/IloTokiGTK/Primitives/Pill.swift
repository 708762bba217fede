import CGtk
import CGtkSupport
import Foundation
import IloTokiDesign

/// A small rounded toggle: the script pill on the Toki Pona plate.
final class Pill {
    let widget: Widget

    init(action: @escaping @MainActor () -> Void) {
        widget = gtk_button_new_with_label("")
        widget.addClass("pill")
        gtk_widget_set_halign(widget, GTK_ALIGN_END)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        connect(gpointerOf(widget), "clicked", action)
    }

    func setTitle(_ title: String) { gtk_button_set_label(cast(widget), title) }
}
