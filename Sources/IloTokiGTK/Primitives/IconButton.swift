import CGtk
import CGtkSupport
import Foundation
import IloTokiDesign

/// A square button showing only an icon; it always has an accessible name.
final class IconButton {
    let widget: Widget
    let icon: IconView

    init(_ name: IconName, label: String, flat: Bool = false, action: @escaping @MainActor () -> Void) {
        widget = gtk_button_new()
        icon = IconView(name)
        gtk_button_set_child(cast(widget), icon.widget)
        widget.addClass("icon-button")
        if flat { widget.addClass("flat") }
        widget.accessibleLabel(label)
        connect(gpointerOf(widget), "clicked", action)
    }
}
