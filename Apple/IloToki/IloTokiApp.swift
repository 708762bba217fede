import IloTokiCore
import IloTokiEngineLive
import SwiftUI

/// ilo toki on iPhone, iPad and Mac: one `TranslatorModel` over the user's store and the live
/// engine (Metal on a device and on a Mac, the CPU on the simulator), drawn by SwiftUI.
@main
struct IloTokiApp: App {
    @State private var model: TranslatorModel
    @State private var background = BackgroundDownloads()
    @Environment(\.scenePhase) private var scenePhase
    private let strings = UIStrings(language: Platform.preferredLanguage)

    init() {
        Platform.registerBundledFonts()
        let environment = ProcessInfo.processInfo.environment
        let directories = AppDirectories.standard(environment: environment)
        let catalog = (try? ModelCatalog.forEnvironment(environment)) ?? .standard
        _model = State(initialValue: TranslatorModel(
            store: ModelStore(directories: directories, catalog: catalog), engineLoader: LiveEngineLoader(),
            endpoint: ModelCatalog.mirror(in: environment)))
    }

    var body: some Scene {
        WindowGroup {
            RootView(model: model, strings: strings)
                .task {
                    await model.launch()
                    Platform.excludeFromBackup(model.store.directories.home)
                }
        }
        .onChange(of: scenePhase) { _, phase in
            background.follow(phase, model: model)
        }
        .commands {
            CommandMenu(strings[.appName]) {
                Button(strings[.translate]) { model.translateIfReady() }
                    .keyboardShortcut(.return, modifiers: .command)
                Button(strings[.swap]) { model.swap() }
                    .keyboardShortcut("s", modifiers: [.command, .shift])
                Button(strings[.stop]) { model.stopIfTranslating() }
                    .keyboardShortcut(.escape, modifiers: [])
            }
        }
        #if os(macOS)
            .defaultSize(width: Tokens.Window.defaultWidth, height: Tokens.Window.defaultHeight)
        #endif
    }
}
