import CGtk
import CGtkSupport
import Foundation
import IloTokiCore
import IloTokiDesign
import IloTokiEngineLive

/// The GTK application: `ilotoki-gtk`.
///
/// Its `main` stays synchronous: GTK's own loop runs the show, and serves the dispatch main
/// queue (where Swift's main actor runs), so async work reaches the screen.
public enum IloTokiApp {
    /// Command-line options, mostly for screenshots.
    public struct Options: Sendable {
        /// Save a PNG of the window here, then quit.
        public var screenshot: String?
        public var width = Int32(420)
        public var height = Int32(820)
        public var theme: AppSettings.Theme?
        public var sitelenPona = false
        /// A scripted model with canned translations (screenshots, trying the app without a model).
        public var demo = false
        /// With `demo`: no model is installed.
        public var demoWithoutModel = false
        /// With `demo`: the newest model downloads while the one on the device answers.
        public var demoStandIn = false
        public var place: AppWindow.Place = .main
        public var text: String?
        /// Write what the window shows to this file after every redraw.
        public var report: String?
        /// Write the icon sheet, every icon and the app icon as SVG into this directory, and quit.
        public var exportIcons: String?
        public var direction: TranslationDirection?
        /// A GGUF file to translate with instead of the installed model (not with `demo`).
        public var modelFile: String?
        public var format = PromptFormat.sourceTarget
        /// A Toki Pona word whose dictionary entry is shown once the window is up (screenshots).
        public var word: String?
        /// Text to translate: it goes to the running window (started if none runs), its
        /// direction detected.
        public var translate: String?
        /// Translate what is highlighted now, in any app (the primary selection): for a
        /// keyboard shortcut.
        public var selection = false

        /// Whether this start joins the running app (a unique application): not for a
        /// screenshot, nor for a session with a model file of its own.
        public var joinsTheRunningApp: Bool { screenshot == nil && modelFile == nil }

        public init() {}

        public static func parse(_ arguments: [String]) throws -> Options {
            var options = Options()
            var words = arguments[...]
            func value(_ name: String) throws -> String {
                guard let next = words.popFirst() else { throw UsageError(message: "\(name) needs a value") }
                return next
            }
            while let word = words.popFirst() {
                switch word {
                case "--screenshot": options.screenshot = try value(word)
                case "--size":
                    let parts = try value(word).split(separator: "x").compactMap { Int32($0) }
                    guard parts.count == 2 else { throw UsageError(message: "--size takes WIDTHxHEIGHT") }
                    (options.width, options.height) = (parts[0], parts[1])
                case "--theme":
                    guard let theme = AppSettings.Theme(rawValue: try value(word)) else {
                        throw UsageError(message: "--theme takes light, dark or system")
                    }
                    options.theme = theme
                case "--sitelen-pona": options.sitelenPona = true
                case "--demo": options.demo = true
                case "--demo-without-model":
                    options.demo = true
                    options.demoWithoutModel = true
                case "--demo-stand-in":
                    options.demo = true
                    options.demoStandIn = true
                case "--place":
                    guard let place = AppWindow.Place(rawValue: try value(word)) else {
                        throw UsageError(message: "--place takes main, history, models, settings or about")
                    }
                    options.place = place
                case "--text": options.text = try value(word)
                case "--model": options.modelFile = try value(word)
                case "--format":
                    guard let format = PromptFormat(name: try value(word)) else {
                        throw UsageError(message: "--format takes \(PromptFormat.names)")
                    }
                    options.format = format
                case "--report": options.report = try value(word)
                case "--word": options.word = try value(word)
                case "--translate": options.translate = try value(word)
                case "--selection": options.selection = true
                case "--export-icons": options.exportIcons = try value(word)
                case "--direction":
                    let codes = try value(word).split(separator: "-").compactMap { Language(code: String($0)) }
                    guard codes.count == 2, let direction = TranslationDirection(from: codes[0], to: codes[1]) else {
                        throw UsageError(message: "--direction takes e.g. tok-en or ru-tok")
                    }
                    options.direction = direction
                case "--help", "-h":
                    throw UsageError(message: Options.help)
                default:
                    throw UsageError(message: "unknown option \(word)\n\(Options.help)")
                }
            }
            return options
        }

        static let help = """
            Usage: ilotoki-gtk [--model FILE.gguf [--format \(PromptFormat.allCases.map(\.rawValue).joined(separator: "|"))]]
                               [--demo | --demo-without-model | --demo-stand-in] [--screenshot FILE.png] [--size WxH]
                               [--theme light|dark|system] [--sitelen-pona] [--place PLACE]
                               [--text TEXT] [--direction tok-en] [--word WORD] [--report FILE.json]
                               [--translate TEXT | --selection]

            One ilo toki runs at a time: a second start brings its window forward, and with
            --translate TEXT (or --selection: what is highlighted in any app) puts the text on
            the source plate and translates it. Not with --screenshot or --model, which start a
            window of their own.
            """
    }

    public struct UsageError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The application id: also the name of the .desktop file, the icon and the metadata.
    public static let applicationID = "org.ilotoki.IloToki"

    /// Runs the app; returns the exit status.
    @MainActor
    public static func run(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 2
        }
        if let directory = options.exportIcons {
            do {
                try IconExport.write(to: URL(fileURLWithPath: directory))
                return 0
            } catch {
                FileHandle.standardError.write(Data("ilotoki-gtk: \(error.localizedDescription)\n".utf8))
                return 1
            }
        }
        // Fonts before the first widget: Pango builds its font map once.
        Fonts.loadAppFonts(environment: environment)
        // A unique application: a later start hands its arguments to the running one over
        // D-Bus ("command-line") and ends. The demo has an id of its own, so it never talks to
        // the real app. Without a session bus, GLib runs every start on its own.
        var flags = G_APPLICATION_HANDLES_COMMAND_LINE.rawValue
        if !options.joinsTheRunningApp { flags |= G_APPLICATION_NON_UNIQUE.rawValue }
        let id = options.demo ? applicationID + ".Demo" : applicationID
        let application = gtk_application_new(id, GApplicationFlags(rawValue: flags))!
        // The installed icon (data/org.ilotoki.IloToki.svg, installed by scripts/install-gtk.sh).
        gtk_window_set_default_icon_name(applicationID)
        // The name a desktop's notifications and window lists show.
        g_set_application_name(UIStrings(language: .english)[.appName])
        let session = Session(options: options, environment: environment, application: application)
        // A click on a notification, or D-Bus activation.
        connect(gpointerOf(application), "activate") { session.activate() }
        let gApplication = UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self)
        ilotoki_gtk_on_command_line(gApplication, commandLineTrampoline, Unmanaged.passUnretained(session).toOpaque())
        ilotoki_gtk_serve_main_queue()
        ilotoki_gtk_quit_on_signals(gApplication)
        // GLib takes the arguments to hand them to the running app; ours are parsed above.
        var argv: [UnsafeMutablePointer<CChar>?] = ([CommandLine.arguments.first ?? "ilotoki-gtk"] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let status = g_application_run(gApplication, Int32(argv.count - 1), &argv)
        // The window may close mid-translation. History and settings reach the disk, then the
        // engine is stopped and waited for: the process's exit destroys llama.cpp's state, and
        // a decode still running then would crash it on its way out.
        session.window?.model.willTerminate()
        LiveEngineLoader.endAllWork()
        g_object_unref(gpointerOf(application))
        return status == 0 ? session.status : status
    }

    /// Makes the app model the app uses: the live one over the user's store, or a scripted
    /// demo over a temporary one.
    @MainActor
    public static func makeModel(options: Options, environment: [String: String]) throws -> TranslatorModel {
        if options.demo { return Demo.model(isFontInstalled: Fonts.has) }
        return try LiveApp.model(
            directories: .standard(environment: environment), environment: environment, isFontInstalled: Fonts.has,
            watchesMemoryPressure: true)
    }

    @MainActor
    final class Session {
        let options: Options
        let environment: [String: String]
        let application: UnsafeMutablePointer<GtkApplication>
        var window: AppWindow?
        var status: Int32 = 0
        /// Set once the first start's launch is done: text that arrives before waits for it.
        private var launched = false
        private var waiting: [Options] = []

        init(options: Options, environment: [String: String], application: UnsafeMutablePointer<GtkApplication>) {
            self.options = options
            self.environment = environment
            self.application = application
        }

        /// One start's arguments: this process's own first, then every later start's (they are
        /// parsed, and refused, in that start before they are sent). The window comes forward,
        /// and `--translate` or `--selection` text goes onto its source plate.
        func commandLine(_ arguments: [String]) -> Int32 {
            guard let incoming = try? Options.parse(arguments) else { return 2 }
            activate()
            guard window != nil else { return status }
            if launched { deliver(incoming) } else { waiting.append(incoming) }
            return 0
        }

        /// Text from `--translate` or `--selection` for the window's model.
        private func deliver(_ incoming: Options) {
            if let text = incoming.translate { window?.perform(.translateIncoming(text: text)) }
            guard incoming.selection else { return }
            let receiver = Unmanaged.passRetained(
                TextReceiver { [weak self] text in
                    guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
                    self?.window?.perform(.translateIncoming(text: text))
                })
            ilotoki_gtk_read_primary_selection(textTrampoline, receiver.toOpaque())
        }

        func activate() {
            if let window {
                gtk_window_present(cast(window.window))
                return
            }
            let model: TranslatorModel
            do {
                model = try IloTokiApp.makeModel(options: options, environment: environment)
            } catch {
                FileHandle.standardError.write(Data("ilotoki-gtk: \(error.localizedDescription)\n".utf8))
                status = 1
                g_application_quit(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self))
                return
            }
            // lipu Linku's words, where they were installed (or built, in a checkout).
            if let words = WordList.locate(environment: environment, executable: FileSystem.runningExecutable),
                case .failed(let reason) = model.perform(.useWordList(path: words.path))
            {
                FileHandle.standardError.write(Data("ilotoki-gtk: \(reason)\n".utf8))
            }
            let window = AppWindow(application: application, model: model, strings: UIStrings.forLocale(environment: environment))
            self.window = window
            window.reportFile = options.report
            gtk_window_set_default_size(cast(window.window), options.width, options.height)
            gtk_window_present(cast(window.window))
            Task { @MainActor in
                if options.demo {
                    await Demo.prepare(
                        model, theme: options.theme, direction: options.direction, text: options.text,
                        sitelenPona: options.sitelenPona, withoutModel: options.demoWithoutModel, standIn: options.demoStandIn)
                    window.show(options.place)
                    if let word = options.word { window.perform(.lookUpWord(word: word)) }
                } else {
                    await model.launch()
                    if let file = options.modelFile {
                        await model.run(.useFileForSession(path: file, format: options.format))
                    }
                    if let text = options.text { model.perform(.setSourceText(text: text)) }
                }
                self.launched = true
                for incoming in self.waiting { self.deliver(incoming) }
                self.waiting.removeAll()
                if let path = options.screenshot {
                    // Let GTK lay out and draw the last changes.
                    try? await Task.sleep(for: .milliseconds(400))
                    do {
                        try window.saveScreenshot(to: path)
                    } catch {
                        FileHandle.standardError.write(Data("ilotoki-gtk: \(error)\n".utf8))
                        self.status = 1
                    }
                    g_application_quit(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self))
                }
            }
        }
    }
}

/// Hands GLib's "command-line" arguments to the session (on the main thread: GLib's loop).
private let commandLineTrampoline: IlotokiCommandLineHandler = { argc, argv, data in
    guard let data, let argv else { return 1 }
    let session = Unmanaged<IloTokiApp.Session>.fromOpaque(data).takeUnretainedValue()
    let arguments = (0..<Int(argc)).compactMap { argv[$0].map { String(cString: $0) } }
    return MainActor.assumeIsolated { session.commandLine(Array(arguments.dropFirst())) }
}

/// What to do with the text of a selection once it is read.
@MainActor
private final class TextReceiver {
    let receive: @MainActor (String?) -> Void
    init(_ receive: @escaping @MainActor (String?) -> Void) { self.receive = receive }
}

private let textTrampoline: IlotokiTextHandler = { text, data in
    guard let data else { return }
    let value = text.map { String(cString: $0) }
    let receiver = Unmanaged<TextReceiver>.fromOpaque(data).takeRetainedValue()
    MainActor.assumeIsolated { receiver.receive(value) }
}
