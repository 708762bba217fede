import IloTokiCore
import IloTokiDesign
import IloTokiEngineLive
import SwiftUI

#if !canImport(UIKit)
    import AppKit
#endif

/// ilo toki on iPhone, iPad and Mac: one `TranslatorModel` over the user's store and the live
/// engine (Metal on a device and on a Mac, the CPU on the simulator), drawn by SwiftUI.
@main
struct IloTokiApp: App {
    /// The app model, or why it could not start (a catalog file that cannot be read).
    @State private var start: Result<TranslatorModel, StartFailure>
    @State private var background = BackgroundDownloads()
    /// The notification once a downloaded model is ready (kept for the app's life).
    @State private var readyNotifier: ReadyNotifier?
    @Environment(\.scenePhase) private var scenePhase
    #if !canImport(UIKit)
        @NSApplicationDelegateAdaptor(Termination.self) private var termination
    #endif
    private let strings = UIStrings(language: Platform.preferredLanguage)

    init() {
        Platform.registerBundledFonts()
        let environment = ProcessInfo.processInfo.environment
        do {
            let model = try LiveApp.model(
                directories: .standard(environment: environment), environment: environment,
                isFontInstalled: Platform.isFontInstalled)
            // lipu Linku's words, a resource of the app (scripts/fetch-words.sh).
            if let words = Bundle.main.url(forResource: "linku-words", withExtension: "json") {
                model.perform(.useWordList(path: words.path))
            }
            _start = State(initialValue: .success(model))
            _readyNotifier = State(initialValue: ReadyNotifier(model: model, strings: strings, isInFront: Platform.isInFront))
            Termination.model = model
            MemoryWarnings.follow(model)
            SharedModel.model = model
        } catch {
            _start = State(initialValue: .failure(StartFailure(message: error.localizedDescription)))
        }
    }

    var body: some Scene {
        WindowGroup {
            switch start {
            case .success(let model):
                RootView(model: model, strings: strings)
                    .task {
                        await model.launch()
                        Platform.excludeFromBackup(model.store.directories.home)
                    }
            case .failure(let failure):
                StartFailureView(message: failure.message)
            }
        }
        .onChange(of: scenePhase) { _, phase in
            guard case .success(let model) = start else { return }
            // The system may end a backgrounded app without a word: what is pending is written now.
            if phase == .background { model.perform(.wentToBackground) }
            background.follow(phase, model: model)
        }
        .commands {
            CommandMenu(strings[.appName]) {
                Button(strings[.translate]) { perform(.translate) }
                    .keyboardShortcut(.return, modifiers: .command)
                Button(strings[.swap]) { perform(.swap) }
                    .keyboardShortcut("s", modifiers: [.command, .shift])
                Button(strings[.stop]) { perform(.stop) }
                    .keyboardShortcut(.escape, modifiers: [])
            }
        }
        #if !canImport(UIKit)
            .defaultSize(width: Tokens.Window.defaultWidth, height: Tokens.Window.defaultHeight)
        #endif
    }
}

extension IloTokiApp {
    /// A menu command: its outcome asks nothing of the menu (the slab's licence comes from the slab).
    @MainActor
    private func perform(_ action: Action) {
        if case .success(let model) = start { model.perform(action) }
    }
}

/// Why the app could not start, in words for the user.
struct StartFailure: Error {
    let message: String
}

/// What the window shows when the app cannot start: the reason, and nothing that pretends to work.
struct StartFailureView: View {
    let message: String

    var body: some View {
        Text(message)
            .font(.ui(Tokens.TypeSize.body))
            .padding(Tokens.Spacing.large)
            .frame(maxWidth: .infinity, maxHeight: .infinity)
    }
}

/// Writes what is pending when the app quits. On a Mac `applicationWillTerminate` is the last
/// word; on iOS and iPadOS an app goes to the background before it is ended, and the scene's
/// phase says so (`.wentToBackground`).
@MainActor
final class Termination: NSObject {
    static var model: TranslatorModel?
}

#if !canImport(UIKit)
    extension Termination: NSApplicationDelegate {
        func applicationWillTerminate(_ notification: Notification) {
            Termination.model?.willTerminate()
        }

        func applicationDidFinishLaunching(_ notification: Notification) {
            ServicesProvider.register()
        }
    }
#endif
