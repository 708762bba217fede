import CGtk
import CGtkSupport
import Foundation
import IloTokiCore
import IloTokiDesign

/// The header: the name, the model line with its dot, the download's control, the places, and
/// the progress line under it. It draws `MainScreen.Header`.
@MainActor
final class Header {
    let widget: Widget
    let progressLine = ProgressLine()
    let downloadToggle: IconButton
    private(set) var placeButtons: [AppWindow.Place: IconButton] = [:]
    private let modelLine: Widget
    /// "Answering until … is here", while a stand-in translates.
    private let standInLine: Widget
    private let newerModelDot: Widget

    /// - Parameters:
    ///   - header: what the header shows first (its places, in Core's order).
    ///   - toggleDownload: the download control was pressed.
    ///   - showPlace: a place's button was pressed.
    init(
        _ header: MainScreen.Header, strings: UIStrings, toggleDownload: @escaping @MainActor () -> Void,
        showPlace: @escaping @MainActor (AppWindow.Place) -> Void
    ) {
        let title = label(strings[.appName], classes: ["title"])
        modelLine = label("", classes: ["quiet"])
        gtk_label_set_ellipsize(cast(modelLine), PANGO_ELLIPSIZE_END)
        gtk_label_set_wrap(cast(modelLine), 0)
        standInLine = label("", classes: ["quiet"])
        gtk_label_set_ellipsize(cast(standInLine), PANGO_ELLIPSIZE_END)
        newerModelDot = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
        newerModelDot.addClass("dot")
        gtk_widget_set_valign(newerModelDot, GTK_ALIGN_CENTER)
        newerModelDot.accessibleLabel(strings[.newerModelAvailable])
        downloadToggle = IconButton(.pause, label: strings[.pauseDownload], flat: true, action: toggleDownload)

        let bar = box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        bar.addClass("header")
        let titles = box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        let titleRow = box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        append(titleRow, title)
        append(titleRow, newerModelDot)
        append(titles, titleRow)
        append(titles, modelLine)
        titles.expand(horizontally: true, vertically: false)
        append(bar, titles)
        append(bar, downloadToggle.widget)
        for link in header.places {
            let button = IconButton(link.icon, label: link.title, flat: true) { showPlace(link.place) }
            placeButtons[link.place] = button
            append(bar, button.widget)
        }

        widget = box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        append(widget, bar)
        // Under the bar, the width of the window: it names a model, which the bar has no room for on a phone.
        standInLine.margins(0, 12, 4, 12)
        gtk_label_set_xalign(cast(standInLine), 0)
        append(widget, standInLine)
        progressLine.widget.margins(0, 12, 6, 12)
        append(widget, progressLine.widget)
    }

    func render(_ header: MainScreen.Header, place: AppWindow.Place) {
        newerModelDot.setVisible(header.showsNewerModelDot)
        setText(modelLine, header.modelLine)
        setText(standInLine, header.standIn ?? "")
        standInLine.setVisible(header.standIn != nil)
        if let download = header.download {
            downloadToggle.widget.setVisible(true)
            downloadToggle.icon.set(download.icon)
            downloadToggle.widget.accessibleLabel(download.label)
            progressLine.show(fraction: download.fraction)
        } else {
            downloadToggle.widget.setVisible(false)
            progressLine.show(fraction: nil)
        }
        for (buttonPlace, button) in placeButtons {
            // Away from the plates, jelo marks where you are: the one active choice.
            button.widget.setClass("jelo", buttonPlace == place)
        }
    }
}
