import CGtk
import CGtkSupport
import Foundation
import IloTokiDesign

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
