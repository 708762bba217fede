import CGtk
import CGtkSupport

/// A GTK widget pointer.
public typealias Widget = UnsafeMutablePointer<GtkWidget>

/// Views a widget as one of its GTK classes (`GtkButton *`, `GtkLabel *`, …).
@inline(__always)
func cast<T>(_ widget: Widget) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: T.self)
}

/// Views a widget as one of its GTK classes whose C structure is private (`GtkButton *`,
/// `GtkLabel *`, … are opaque to Swift).
@inline(__always)
func cast(_ widget: Widget) -> OpaquePointer {
    OpaquePointer(widget)
}

/// Views a GTK object as a widget.
@inline(__always)
func asWidget<T>(_ pointer: UnsafeMutablePointer<T>) -> Widget {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GtkWidget.self)
}

@inline(__always)
func gpointerOf<T>(_ pointer: UnsafeMutablePointer<T>) -> gpointer {
    UnsafeMutableRawPointer(pointer)
}

@inline(__always)
func gpointerOf(_ pointer: OpaquePointer) -> gpointer {
    UnsafeMutableRawPointer(pointer)
}

/// A Swift closure handed to GTK as a signal handler's user data; GTK releases it with the handler.
final class Handler: @unchecked Sendable {  // created and called on the main thread only
    let action: @MainActor () -> Void
    init(_ action: @escaping @MainActor () -> Void) { self.action = action }

    var retained: gpointer { Unmanaged.passRetained(self).toOpaque() }

    static func from(_ data: gpointer?) -> Handler? {
        data.map { Unmanaged<Handler>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Releases a retained handler: as a signal's closure notifier, and as a destroy notifier.
    static let release: GClosureNotify = { data, _ in destroy(data) }
    static let destroy: GDestroyNotify = { data in
        if let data { Unmanaged<Handler>.fromOpaque(data).release() }
    }
}

/// GTK calls back on the main thread, which is where the main actor runs.
private let twoArgumentTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
    let handler = Handler.from(data)
    MainActor.assumeIsolated { handler?.action() }
}

private let threeArgumentTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
    let handler = Handler.from(data)
    MainActor.assumeIsolated { handler?.action() }
}

private let fourArgumentTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?) -> Void = { _, _, _, data in
    let handler = Handler.from(data)
    MainActor.assumeIsolated { handler?.action() }
}

/// Connects a handler to a signal whose C signature is `(instance, user_data)`: "clicked",
/// "changed", "activate", "destroy" …
@discardableResult
func connect(_ instance: gpointer, _ signal: String, _ action: @escaping @MainActor () -> Void) -> gulong {
    ilotoki_gtk_connect(
        instance, signal, unsafeBitCast(twoArgumentTrampoline, to: GCallback.self), Handler(action).retained, Handler.release)
}

/// Connects a handler to a signal whose C signature is `(instance, argument, user_data)`:
/// "notify::…", "toggled" on some widgets …
@discardableResult
func connectWithArgument(_ instance: gpointer, _ signal: String, _ action: @escaping @MainActor () -> Void) -> gulong {
    ilotoki_gtk_connect(
        instance, signal, unsafeBitCast(threeArgumentTrampoline, to: GCallback.self), Handler(action).retained, Handler.release)
}

/// Connects a handler to a signal whose C signature is `(instance, first, second, user_data)`:
/// "mark-set" of a text buffer …
@discardableResult
func connectWithTwoArguments(_ instance: gpointer, _ signal: String, _ action: @escaping @MainActor () -> Void) -> gulong {
    ilotoki_gtk_connect(
        instance, signal, unsafeBitCast(fourArgumentTrampoline, to: GCallback.self), Handler(action).retained, Handler.release)
}

private let shortcutTrampoline: GtkShortcutFunc = { _, _, data in
    let handler = Handler.from(data)
    MainActor.assumeIsolated { handler?.action() }
    return 1
}

/// A keyboard shortcut, e.g. "<Control>Return", anywhere in `widget`'s window; `beforeFocus`
/// takes the key before the focused widget (a text view) can.
func addShortcut(_ widget: Widget, _ trigger: String, beforeFocus: Bool = false, _ action: @escaping @MainActor () -> Void) {
    ilotoki_gtk_add_shortcut(widget, trigger, beforeFocus ? 1 : 0, shortcutTrampoline, Handler(action).retained, Handler.destroy)
}

/// `child` in a vertically scrolling window that takes the space it is given.
func scroller(_ child: Widget) -> Widget {
    let scroll = gtk_scrolled_window_new()!
    gtk_scrolled_window_set_child(cast(scroll), child)
    gtk_scrolled_window_set_policy(cast(scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    scroll.expand(horizontally: true, vertically: true)
    return scroll
}

// MARK: - Small conveniences

extension UnsafeMutablePointer where Pointee == GtkWidget {
    func addClass(_ name: String) { gtk_widget_add_css_class(self, name) }
    func removeClass(_ name: String) { gtk_widget_remove_css_class(self, name) }
    func setClass(_ name: String, _ on: Bool) { on ? addClass(name) : removeClass(name) }
    func hasClass(_ name: String) -> Bool { gtk_widget_has_css_class(self, name) != 0 }
    var isVisible: Bool { gtk_widget_get_visible(self) != 0 }
    func setVisible(_ visible: Bool) { gtk_widget_set_visible(self, visible ? 1 : 0) }
    var isMapped: Bool { gtk_widget_get_mapped(self) != 0 }

    func margins(_ top: Int32, _ end: Int32, _ bottom: Int32, _ start: Int32) {
        gtk_widget_set_margin_top(self, top)
        gtk_widget_set_margin_end(self, end)
        gtk_widget_set_margin_bottom(self, bottom)
        gtk_widget_set_margin_start(self, start)
    }

    func expand(horizontally: Bool, vertically: Bool) {
        gtk_widget_set_hexpand(self, horizontally ? 1 : 0)
        gtk_widget_set_vexpand(self, vertically ? 1 : 0)
    }

    func accessibleLabel(_ label: String) { ilotoki_gtk_set_accessible_label(self, label) }
    /// What a screen reader says after the name: the control's state.
    func accessibleDescription(_ description: String) { ilotoki_gtk_set_accessible_description(self, description) }

    /// The widget and everything inside it, depth first.
    var descendants: [Widget] {
        var result: [Widget] = [self]
        var child = gtk_widget_get_first_child(self)
        while let current = child {
            result += current.descendants
            child = gtk_widget_get_next_sibling(current)
        }
        return result
    }
}

/// An empty box that takes the free width of a row.
func spacer() -> Widget {
    let space = box(GTK_ORIENTATION_HORIZONTAL, spacing: 0)
    space.expand(horizontally: true, vertically: false)
    return space
}

func box(_ orientation: GtkOrientation, spacing: Int32 = 0) -> Widget {
    gtk_box_new(orientation, spacing)
}

func append(_ container: Widget, _ child: Widget) {
    gtk_box_append(cast(container), child)
}

func label(_ text: String, classes: [String] = []) -> Widget {
    let widget = gtk_label_new(text)!
    gtk_label_set_wrap(cast(widget), 1)
    gtk_label_set_wrap_mode(cast(widget), PANGO_WRAP_WORD_CHAR)
    gtk_label_set_xalign(cast(widget), 0)
    classes.forEach(widget.addClass)
    return widget
}

func setText(_ widget: Widget, _ text: String) {
    let current = String(cString: gtk_label_get_text(cast(widget)))
    if current != text { gtk_label_set_text(cast(widget), text) }
}

func textOf(_ widget: Widget) -> String {
    String(cString: gtk_label_get_text(cast(widget)))
}
