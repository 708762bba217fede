import CGtk
import CGtkSupport
import Foundation
import IloTokiCore
import IloTokiDesign

/// A Toki Pona word's dictionary entry under the plates (`MainScreen.WordCard`): its sitelen
/// pona glyph, the word and how widely it is used, lipu Linku's definition, the words to see
/// also (each looks itself up), the credit, and a close button.
@MainActor
final class WordCardView {
    let widget: Widget
    private let glyph = label("", classes: ["sitelen", "word-glyph"])
    private let word = label("", classes: ["plate-text"])
    private let usage = label("", classes: ["quiet"])
    private let definition = label("")
    private let seeAlsoTitle = label("", classes: ["quiet"])
    private let seeAlso: Widget
    private let credit = label("", classes: ["quiet"])
    private let close: IconButton
    private let perform: @MainActor (Action) -> Void
    private(set) var shown: MainScreen.WordCard?

    /// - Parameter closeLabel: what a screen reader calls the close button before a card says it.
    init(closeLabel: String, perform: @escaping @MainActor (Action) -> Void) {
        self.perform = perform
        close = IconButton(.close, label: closeLabel, flat: true) { perform(.closeWord) }
        seeAlso = gtk_flow_box_new()
        gtk_flow_box_set_selection_mode(cast(seeAlso), GTK_SELECTION_NONE)
        gtk_flow_box_set_column_spacing(cast(seeAlso), 8)
        gtk_flow_box_set_max_children_per_line(cast(seeAlso), 6)
        gtk_label_set_wrap(cast(definition), 1)
        gtk_label_set_selectable(cast(definition), 1)
        gtk_label_set_wrap(cast(credit), 1)

        let top = box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        append(top, glyph)
        let names = box(GTK_ORIENTATION_VERTICAL, spacing: 2)
        append(names, word)
        append(names, usage)
        names.expand(horizontally: true, vertically: false)
        gtk_widget_set_valign(names, GTK_ALIGN_CENTER)
        append(top, names)
        append(top, close.widget)
        let content = box(GTK_ORIENTATION_VERTICAL, spacing: Int32(Tokens.Spacing.small))
        append(content, top)
        append(content, definition)
        append(content, seeAlsoTitle)
        append(content, seeAlso)
        append(content, credit)
        widget = Plate(content).widget
        widget.addClass("word-card")
        widget.setVisible(false)
    }

    /// Presses the close button, or a "see also" word's button, as a click does (tests).
    func press(seeAlso word: String?) {
        guard let word else {
            gtk_widget_activate(close.widget)
            return
        }
        var child = gtk_widget_get_first_child(seeAlso)
        while let flowChild = child {
            if let button = gtk_flow_box_child_get_child(cast(flowChild)), let title = gtk_button_get_label(cast(button)),
                String(cString: title) == word
            {
                gtk_widget_activate(button)
                return
            }
            child = gtk_widget_get_next_sibling(flowChild)
        }
    }

    func show(_ card: MainScreen.WordCard?) {
        guard card != shown else { return }
        shown = card
        widget.setVisible(card != nil)
        guard let card else { return }
        setText(glyph, card.glyph ?? "")
        glyph.setVisible(card.glyph != nil)
        setText(word, card.word)
        setText(usage, card.usage)
        usage.setVisible(!card.usage.isEmpty)
        setText(definition, card.definition)
        setText(seeAlsoTitle, card.seeAlsoTitle)
        seeAlsoTitle.setVisible(!card.seeAlso.isEmpty)
        while let child = gtk_widget_get_first_child(seeAlso) { gtk_flow_box_remove(cast(seeAlso), child) }
        for other in card.seeAlso {
            gtk_flow_box_append(cast(seeAlso), rowButton(other) { [perform] in perform(.lookUpWord(word: other)) })
        }
        seeAlso.setVisible(!card.seeAlso.isEmpty)
        setText(credit, card.credit)
        close.widget.accessibleLabel(card.closeLabel)
        widget.accessibleLabel(card.word)
    }
}
