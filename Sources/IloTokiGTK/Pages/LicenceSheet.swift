import CGtk
import CGtkSupport
import Foundation
import IloTokiCore

/// The model licence, shown before the first download: a modal card in the «sitelen» look.
@MainActor
final class LicenceSheet {
    private let dialog: Widget
    private let completion: @MainActor (Bool) -> Void
    private var answered = false

    init(parent: Widget, strings: UIStrings, completion: @escaping @MainActor (Bool) -> Void) {
        self.completion = completion
        dialog = gtk_window_new()
        let window: UnsafeMutablePointer<GtkWindow> = cast(dialog)
        gtk_window_set_transient_for(window, cast(parent))
        gtk_window_set_modal(window, 1)
        gtk_window_set_title(window, strings[.licenceTitle])
        gtk_window_set_default_size(window, 380, -1)
        dialog.addClass("ilotoki")
        let content = box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        content.margins(16, 16, 16, 16)
        append(content, label(strings[.licenceTitle], classes: ["title"]))
        append(content, label(ModelCatalog.modelLicence.summary))
        append(content, label(ModelCatalog.modelLicence.url.absoluteString, classes: ["quiet"]))
        let buttons = box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        let cancel = gtk_button_new_with_label(strings[.cancel])!
        cancel.addClass("row-button")
        let accept = gtk_button_new_with_label(strings[.licenceAccept])!
        accept.addClass("slab")
        accept.expand(horizontally: true, vertically: false)
        append(buttons, cancel)
        append(buttons, accept)
        append(content, buttons)
        gtk_window_set_child(window, content)
        connect(gpointerOf(cancel), "clicked") { [weak self] in self?.finish(false) }
        connect(gpointerOf(accept), "clicked") { [weak self] in self?.finish(true) }
    }

    func present() { gtk_window_present(cast(dialog)) }

    private func finish(_ accepted: Bool) {
        guard !answered else { return }
        answered = true
        gtk_window_destroy(cast(dialog))
        completion(accepted)
    }
}
