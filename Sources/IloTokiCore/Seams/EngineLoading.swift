/// Loads a model file into a translation engine. A front end passes the live one
/// (`IloTokiEngineLive.LiveEngineLoader`) to `TranslatorModel`; tests and previews a scripted one.
public protocol EngineLoading: Sendable {
    func load(path: String) async throws -> any TranslationEngine

    /// Checks that a file is a model that can translate (its architecture is supported, its
    /// vocabulary reads) before it is added to the model list; quicker than loading it.
    /// - Throws: an error that names the file and says what is wrong with it.
    func check(path: String) async throws

    /// What runs the models, for the About page ("llama.cpp b1234").
    var backendDescription: String { get }
}

extension EngineLoading {
    /// Loads the file and lets it go: for loaders without a quicker check.
    public func check(path: String) async throws {
        _ = try await load(path: path)
    }

    public var backendDescription: String { "a scripted engine" }
}
