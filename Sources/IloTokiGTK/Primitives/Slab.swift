import CGtk
import CGtkSupport
import Foundation
import IloTokiDesign

/// The slab: the primary action at the foot of the screen.
final class Slab {
    let widget: Widget

    init(action: @escaping @MainActor () -> Void) {
        widget = gtk_button_new_with_label("")
        widget.addClass("slab")
        connect(gpointerOf(widget), "clicked", action)
    }

    func setTitle(_ title: String) {
        let current = gtk_button_get_label(cast(widget)).map { String(cString: $0) }
        if current != title { gtk_button_set_label(cast(widget), title) }
    }

    func setEnabled(_ enabled: Bool) { gtk_widget_set_sensitive(widget, enabled ? 1 : 0) }
}
