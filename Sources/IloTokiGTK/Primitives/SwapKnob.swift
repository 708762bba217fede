import CGtk
import CGtkSupport
import Foundation
import IloTokiDesign

/// The round knob on the seam between the plates.
final class SwapKnob {
    let widget: Widget

    init(label: String, action: @escaping @MainActor () -> Void) {
        widget = gtk_button_new()
        gtk_button_set_child(cast(widget), IconView(.swap, size: 28).widget)
        widget.addClass("knob")
        widget.accessibleLabel(label)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        connect(gpointerOf(widget), "clicked", action)
    }
}
