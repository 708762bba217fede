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
