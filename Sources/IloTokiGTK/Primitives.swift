import CGtk
import CGtkSupport
import Foundation
import IloTokiDesign

// The «sitelen» primitives for GTK, one place each. Every screen is built from these and the
// stylesheet; none of them knows about translating.

/// Draws an icon from its shapes (rectangles, triangles, circles on the 100 × 100 grid) with
/// Cairo, in the widget's CSS text colour, so it is ink on paper and ink on jelo alike.
final class IconView {
    let widget: Widget
    private let box: IconBox

    private final class IconBox {
        var icon: Icon
        init(_ icon: Icon) { self.icon = icon }
    }

    init(_ name: IconName, size: Int32 = 24) {
        widget = gtk_drawing_area_new()
        box = IconBox(Icon.named(name))
        gtk_drawing_area_set_content_width(cast(widget), size)
        gtk_drawing_area_set_content_height(cast(widget), size)
        widget.addClass("icon")
        let data = Unmanaged.passRetained(box).toOpaque()
        gtk_drawing_area_set_draw_func(cast(widget), IconView.draw, data) { data in
            if let data { Unmanaged<IconBox>.fromOpaque(data).release() }
        }
    }

    func set(_ name: IconName) {
        box.icon = Icon.named(name)
        gtk_widget_queue_draw(widget)
    }

    private static let draw: GtkDrawingAreaDrawFunc = { area, cairo, width, height, data in
        guard let area, let cairo, let data else { return }
        let icon = Unmanaged<IconBox>.fromOpaque(data).takeUnretainedValue().icon
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(asWidget(area)), &color)
        cairo_set_source_rgba(cairo, Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha))
        let scale = Double(min(width, height)) / Icon.gridSize
        cairo_save(cairo)
        cairo_translate(cairo, (Double(width) - Icon.gridSize * scale) / 2, (Double(height) - Icon.gridSize * scale) / 2)
        cairo_scale(cairo, scale, scale)
        for shape in icon.shapes { IconView.draw(shape, cairo) }
        cairo_restore(cairo)
    }

    static func draw(_ shape: IconShape, _ cairo: OpaquePointer) {
        switch shape {
        case .rectangle(let x, let y, let width, let height, let rotation):
            cairo_save(cairo)
            cairo_translate(cairo, x + width / 2, y + height / 2)
            cairo_rotate(cairo, rotation * .pi / 180)
            cairo_rectangle(cairo, -width / 2, -height / 2, width, height)
            cairo_fill(cairo)
            cairo_restore(cairo)
        case .frame(let x, let y, let width, let height, let lineWidth):
            cairo_set_line_width(cairo, lineWidth)
            cairo_rectangle(cairo, x + lineWidth / 2, y + lineWidth / 2, width - lineWidth, height - lineWidth)
            cairo_stroke(cairo)
        case .triangle(let a, let b, let c):
            cairo_move_to(cairo, a.x, a.y)
            cairo_line_to(cairo, b.x, b.y)
            cairo_line_to(cairo, c.x, c.y)
            cairo_close_path(cairo)
            cairo_fill(cairo)
        case .circle(let x, let y, let radius):
            cairo_new_sub_path(cairo)
            cairo_arc(cairo, x, y, radius, 0, 2 * .pi)
            cairo_fill(cairo)
        case .ring(let x, let y, let radius, let lineWidth):
            cairo_new_sub_path(cairo)
            cairo_set_line_width(cairo, lineWidth)
            cairo_arc(cairo, x, y, radius, 0, 2 * .pi)
            cairo_stroke(cairo)
        }
    }
}

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

/// A plate: an outlined, shadowed surface that takes a background (paper or jelo) rather than
/// defining variants.
final class Plate {
    let widget: Widget

    init(_ content: Widget) {
        widget = box(GTK_ORIENTATION_VERTICAL, spacing: Int32(Tokens.Spacing.small))
        widget.addClass("plate")
        append(widget, content)
    }

    /// Jelo marks the target of the translation; anything else stands on paper.
    func setBackground(jelo: Bool) { widget.setClass("jelo", jelo) }
}

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

/// The 12 dp line under the header while a download runs.
final class ProgressLine {
    let widget: Widget

    init() {
        widget = gtk_progress_bar_new()
        widget.addClass("progress-line")
        widget.setVisible(false)
    }

    func show(fraction: Double?) {
        guard let fraction else {
            widget.setVisible(false)
            return
        }
        widget.setVisible(true)
        gtk_progress_bar_set_fraction(cast(widget), max(0, min(1, fraction)))
    }

    var fraction: Double { gtk_progress_bar_get_fraction(cast(widget)) }
}
