import CGtk
import CGtkSupport
import Foundation

// The pieces the places besides the plates are built from: cards, row buttons, rows, flows
// and switches, in the «sitelen» look.

func card() -> Widget {
    let card = box(GTK_ORIENTATION_VERTICAL, spacing: 6)
    card.addClass("card")
    return card
}

@MainActor
func rowButton(_ title: String, chosen: Bool = false, action: @escaping @MainActor () -> Void) -> Widget {
    let button = gtk_button_new_with_label(title)!
    button.addClass("row-button")
    if chosen { button.addClass("chosen") }
    gtk_widget_set_halign(button, GTK_ALIGN_START)
    connect(gpointerOf(button), "clicked", action)
    return button
}

func row(_ children: [Widget]) -> Widget {
    let row = box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
    children.forEach { append(row, $0) }
    return row
}

/// Buttons that wrap onto more lines on a narrow phone.
func flow(_ children: [Widget]) -> Widget {
    let flow = gtk_flow_box_new()!
    gtk_flow_box_set_selection_mode(cast(flow), GTK_SELECTION_NONE)
    gtk_flow_box_set_column_spacing(cast(flow), 8)
    gtk_flow_box_set_row_spacing(cast(flow), 8)
    gtk_flow_box_set_homogeneous(cast(flow), 0)
    gtk_flow_box_set_max_children_per_line(cast(flow), 4)
    children.forEach { gtk_flow_box_append(cast(flow), $0) }
    return flow
}

@MainActor
func switchRow(_ title: String, on: Bool, action: @escaping @MainActor (Bool) -> Void) -> Widget {
    let text = label(title)
    text.expand(horizontally: true, vertically: false)
    let toggle = gtk_switch_new()!
    gtk_switch_set_active(cast(toggle), on ? 1 : 0)
    gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
    toggle.accessibleLabel(title)
    connectWithArgument(gpointerOf(toggle), "notify::active") {
        action(gtk_switch_get_active(cast(toggle)) != 0)
    }
    let holder = card()
    append(holder, row([text, toggle]))
    return holder
}

func padded(_ widget: Widget) -> Widget {
    widget.margins(8, 16, 8, 16)
    return widget
}
