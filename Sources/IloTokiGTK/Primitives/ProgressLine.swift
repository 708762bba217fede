import CGtk
import CGtkSupport
import Foundation
import IloTokiDesign

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
