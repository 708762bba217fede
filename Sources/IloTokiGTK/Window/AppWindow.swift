import CGtk
import CGtkSupport
import Foundation
import IloTokiCore
import IloTokiDesign
import Observation

/// The app's window: the header, the main page and the other places, drawing the values Core
/// derives from the app model (`MainScreen`, the pages) and sending actions back to it. How
/// GTK draws is decided here; what the screen says is decided in Core.
@MainActor
public final class AppWindow {
    /// The places of the app (Core's); none of them interrupts a translation.
    public typealias Place = IloTokiCore.Place

    public let window: Widget
    public let model: TranslatorModel
    let strings: UIStrings
    private let provider: UnsafeMutablePointer<GtkCssProvider>
    private var appliedCSS = ""

    private(set) var header: Header!
    private(set) var main: MainPage!
    private let stack: Widget
    private(set) var pages: Pages!
    public private(set) var place: Place = .main

    /// Where to write what the window shows after every redraw (`--report`): how scripts and
    /// tests that drive the real app with xdotool see the result.
    public var reportFile: String?
    private var licenceSheet: LicenceSheet?
    /// The application, for its notifications (nil: a window of the tests, without one).
    private let application: UnsafeMutablePointer<GtkApplication>?

    /// Builds the window for `application` over `model`.
    /// - Parameter application: the application the window belongs to; `nil` gives a plain
    ///   window (tests drive one without running an application).
    public init(application: UnsafeMutablePointer<GtkApplication>?, model: TranslatorModel, strings: UIStrings) {
        self.model = model
        self.strings = strings
        self.application = application
        window = application.map { gtk_application_window_new($0) } ?? gtk_window_new()
        gtk_window_set_title(cast(window), strings[.appName])
        gtk_window_set_default_size(cast(window), Int32(Tokens.Window.defaultWidth), Int32(Tokens.Window.defaultHeight))
        gtk_widget_set_size_request(window, Int32(Tokens.Window.minimumWidth), 560)
        window.addClass("ilotoki")
        provider = gtk_css_provider_new()
        ilotoki_gtk_install_css(provider)
        stack = gtk_stack_new()

        let screen = MainScreen(model: model, strings: strings)
        header = Header(
            screen.header, strings: strings, toggleDownload: { [weak self] in self?.perform(.toggleDownload) },
            showPlace: { [weak self] place in self?.show(place) })
        main = MainPage(screen, strings: strings) { [weak self] action in self?.perform(action) }

        gtk_stack_set_transition_type(cast(stack), GTK_STACK_TRANSITION_TYPE_NONE)
        // Each place asks only for its own size: a long list elsewhere must not make the
        // window taller than a phone's screen.
        gtk_stack_set_vhomogeneous(cast(stack), 0)
        gtk_stack_set_hhomogeneous(cast(stack), 0)
        gtk_stack_add_named(cast(stack), main.widget, Place.main.rawValue)
        pages = Pages(window: self, places: screen.header.places)
        for link in screen.header.places {
            gtk_stack_add_named(cast(stack), pages.widget(for: link.place), link.place.rawValue)
        }

        let layout = box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        append(layout, header.widget)
        append(layout, stack)
        gtk_window_set_child(cast(window), layout)

        addShortcut(window, "<Control>Return", beforeFocus: true) { [weak self] in self?.perform(.translate) }
        addShortcut(window, "<Control>KP_Enter", beforeFocus: true) { [weak self] in self?.perform(.translate) }
        addShortcut(window, "<Control><Shift>s", beforeFocus: true) { [weak self] in self?.perform(.swap) }
        addShortcut(window, "Escape") { [weak self] in
            guard let self else { return }
            if self.place != .main { self.show(.main) } else { self.perform(.stop) }
        }
        observe()
        adaptLayout()
        connectWithArgument(gpointerOf(window), "notify::default-width") { [weak self] in self?.adaptLayout() }
        // The report says whether typing reaches the source plate (tests wait for it).
        connectWithArgument(gpointerOf(window), "notify::is-active") { [weak self] in self?.writeReport() }
        // Typing starts on the source plate, as in any translator.
        gtk_window_set_focus(cast(window), main.sourceView)
    }

    /// Shows one of the app's places.
    public func show(_ place: Place) {
        self.place = place
        // What the command line changed while the app ran appears when a list is shown.
        if place == .history || place == .models { model.perform(.refresh) }
        gtk_stack_set_visible_child_name(cast(stack), place.rawValue)
        if place == .main { gtk_widget_grab_focus(main.sourceView) }
        render()
    }

    /// Performs an action of the window's controls, and does what its outcome asks of this
    /// front end: the licence sheet, the clipboard, the main screen. A failure shows under
    /// the plates (`notice`), where the model notes what its work could not do.
    func perform(_ action: Action) {
        switch model.perform(action) {
        case .done, .added: break
        case .showLicence(let offer):
            let sheet = LicenceSheet(parent: window, strings: strings) { [weak self] accepted in
                self?.licenceSheet = nil
                guard accepted else { return }
                self?.perform(.acceptLicenceAndDownload(id: offer.entry.id))
            }
            licenceSheet = sheet
            sheet.present()
        case .copy(let text), .share(let text):
            // A desktop has no share sheet (the window offers none): the clipboard is its share.
            gdk_clipboard_set_text(gdk_display_get_clipboard(gdk_display_get_default()), text)
        case .failed(let reason):
            pages.showFailure(reason)
        case .showMain:
            show(.main)
        }
    }

    /// A downloaded model has loaded: while the window is not in front, one desktop
    /// notification says so (GNotification; clicking it brings the window forward). The
    /// notice is handled either way, so it is never given twice.
    private func tellReady(_ notice: MainScreen.ReadyNotice) {
        Task { @MainActor in self.perform(.readyNoticeHandled) }
        guard let application, gtk_window_is_active(cast(window)) == 0 else { return }
        guard let notification = g_notification_new(notice.title) else { return }
        g_notification_set_body(notification, notice.body)
        if let icon = g_themed_icon_new(IloTokiApp.applicationID) {
            g_notification_set_icon(notification, icon)
            g_object_unref(UnsafeMutableRawPointer(icon))
        }
        g_application_send_notification(
            UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self), "ready", notification)
        g_object_unref(UnsafeMutableRawPointer(notification))
        notificationsSent += 1
    }

    /// Desktop notifications sent (the report shows the count).
    private(set) var notificationsSent = 0

    // MARK: - Drawing the model

    /// Draws the model, and again whenever anything it read changes.
    private func observe() {
        withObservationTracking {
            render()
        } onChange: { [weak self] in
            // Fires once, before the change: draw on the next turn, then track again.
            Task { @MainActor in self?.observe() }
        }
    }

    func render() {
        let screen = MainScreen(model: model, strings: strings, systemPrefersDark: AppWindow.systemPrefersDark)
        applyStyle(screen.appearance)
        header.render(screen.header, place: place)
        main.render(screen)
        main.targetPlate.setBackground(jelo: place == .main)
        pages.render(place)
        if let notice = screen.readyNotice { tellReady(notice) }
        writeReport()
    }

    private func applyStyle(_ appearance: Appearance) {
        let palette: Palette = appearance == .dark ? .dark : .light
        let css = Stylesheet.css(palette: palette, sitelenPonaFont: model.settings.sitelenPonaFamily(isInstalled: Fonts.has))
        guard css != appliedCSS else { return }
        appliedCSS = css
        gtk_css_provider_load_from_data(provider, css, -1)
    }

    private static var systemPrefersDark: Bool {
        guard let settings = gtk_settings_get_default() else { return false }
        var value = GValue()
        g_value_init(&value, GType(5 << 2))  // G_TYPE_BOOLEAN
        g_object_get_property(
            UnsafeMutableRawPointer(settings).assumingMemoryBound(to: GObject.self), "gtk-application-prefer-dark-theme", &value)
        defer { g_value_unset(&value) }
        return g_value_get_boolean(&value) != 0
    }

    private func adaptLayout() {
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_default_size(cast(window), &width, &height)
        main.setWide(Double(width) >= Tokens.Window.wideLayout)
    }
}
