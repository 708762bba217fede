import Foundation
import IloTokiCore
import IloTokiDownloadLive
import IloTokiLLM

/// Start-up, written once for every front end (the desktop app, the Mac and phone apps, the
/// Android bridge, the command line): the store over the user's directories and the catalog
/// the environment names, the live engine, the mirror.
public enum LiveApp {
    /// The app model a front end holds.
    /// - Parameters:
    ///   - directories: where the models, settings and history live.
    ///   - environment: `ILOTOKI_CATALOG` (another catalog file) and `HF_ENDPOINT` (a mirror), `HF_TOKEN` (a token for the Hub).
    ///   - engine: how the engine runs.
    ///   - isFontInstalled: whether a font family can be drawn with on this device.
    ///   - watchesMemoryPressure: follow Linux's memory pressure figures for as long as the model
    ///     lives (`MemoryPressureWatch`): for a front end that stays (the desktop app, `ilotoki
    ///     serve`, the interactive session) on a platform that gives no word of its own. The
    ///     phone apps pass their platform's word instead (iOS's memory warning, Android's
    ///     onTrimMemory), which a watch beside it would undo; a one-shot command ends first.
    /// - Throws: `CatalogError` for a catalog file that cannot be read: said to the user, never
    ///   replaced by the built-in catalog behind their back.
    @MainActor
    public static func model(
        directories: AppDirectories, environment: [String: String], engine: LiveEngineOptions = LiveEngineOptions(),
        isFontInstalled: @escaping @MainActor (String) -> Bool = { _ in true }, watchesMemoryPressure: Bool = false
    ) throws -> TranslatorModel {
        writeEngineLog(directories: directories, echo: engine.showsEngineLog)
        let store = ModelStore(directories: directories, catalog: try ModelCatalog.forEnvironment(environment))
        var engine = engine
        if engine.calibrationFile == nil, store.homeProblem == nil {
            engine.calibrationFile = directories.home.appendingPathComponent("head-calibration.json")
        }
        let loader = LiveEngineLoader(options: engine)
        let model = TranslatorModel(
            store: store, engineLoader: loader, downloader: ModelDownloader(checkingWith: loader),
            access: HubAccess.from(environment: environment),
            isFontInstalled: isFontInstalled)
        if watchesMemoryPressure {
            _ = MemoryPressureWatch { [weak model] short in model?.setShortOfMemory(short) }
        }
        return model
    }

    /// Sends llama.cpp's own lines to the app's `llama.log` (and, with `echo`, to standard
    /// error too): what `model` does for every front end, and what a command that loads a
    /// model without the app model calls first.
    public static func writeEngineLog(directories: AppDirectories, echo: Bool) {
        EngineLog.write(to: directories.engineLogFile, echo: echo)
    }
}
