import Foundation
import IloTokiCore
import IloTokiDesign

// Prints the Kotlin mirror of the contract between Core and the Android app: `Action`,
// `ActionOutcome`, the screen values and the UI string keys (scripts/generate-android-contract.sh
// writes it to android/…/Contract.kt, and test.sh checks that it is current). The shapes are
// learnt from real values: every action's and outcome's example, and the screens of a scripted
// app taken through the states that fill every optional field.

@MainActor
func screens() async throws -> [any Encodable] {
    let current = CatalogEntry(
        id: "current", displayName: "Current", quantization: "Q8_0",
        url: URL(fileURLWithPath: "/catalog/current.gguf"), bytes: 8, format: .sourceTarget, deprecated: false,
        sha256: String(repeating: "0", count: 64))
    let old = CatalogEntry(
        id: "old", displayName: "Old", quantization: "Q6_K", url: URL(fileURLWithPath: "/catalog/old.gguf"), bytes: 8,
        format: .queryAnswer, deprecated: true, sha256: nil)
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ilotoki-contract-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let downloader = ScriptedDownloader()
    let model = TranslatorModel(
        store: ModelStore(directories: AppDirectories(home: home), catalog: ModelCatalog(entries: [current, old])),
        engineLoader: ScriptedEngineLoader { _ in Demo.engine() }, downloader: downloader, availableMemory: { 1 << 40 },
        isFontInstalled: { $0 != "missing-font" })
    let strings = UIStrings(language: .english)
    var values: [any Encodable] = []
    func take() {
        values.append(MainScreen(model: model, strings: strings))
        values.append(ModelsPage(model: model, strings: strings))
        values.append(HistoryPage(model: model, strings: strings))
        values.append(SettingsPage(model: model, strings: strings))
        values.append(AboutPage(model: model, strings: strings))
    }
    func until(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        guard condition() else { throw SchemaError(description: "the scripted app did not reach the state it was taken to") }
    }

    await model.launch()
    take()
    model.perform(.acceptLicence)
    model.perform(.download(id: "current"))
    downloader.progress(bytes: 4)
    try await until { model.activeDownload?.fraction == 0.5 }
    take()
    try downloader.install(contents: Data("GGUF1234".utf8))
    try await until { model.modelState == .ready }
    // A long text under way: the progress bar under the target plate.
    model.perform(.setSourceText(text: "mi olin e sina. jan li moku e kili. tenpo suno ni li pona. toki! sina pona lukin."))
    model.perform(.pressSlab)
    try await until {
        model.translationState == .translating && (model.translationChunks?.total ?? 0) >= MainScreen.sentencesForProgressBar
    }
    values.append(MainScreen(model: model, strings: strings))
    try await until { model.translationState == .done }
    model.perform(.setSourceText(text: "mi olin e sina."))
    model.perform(.pressSlab)
    try await until { model.translationState == .done }
    let added = home.appendingPathComponent("added.gguf")
    try Data("GGUF".utf8).write(to: added)
    _ = await model.run(.importModel(ModelImport(path: added.path, format: .queryAnswer)))
    model.perform(.copy)
    let words = home.appendingPathComponent("words.json")
    try Data(#"{"words": [{"word": "olin", "definition": "love", "seeAlso": ["pona"], "usage": "core", "ucsur": "U+F1939"}]}"#.utf8)
        .write(to: words)
    model.perform(.useWordList(path: words.path))
    model.perform(.lookUpWord(word: "olin"))
    model.perform(.setSitelenPonaFont(family: "missing-font"))
    take()
    model.perform(.setKeepHistory(on: false))
    model.perform(.filterHistory(onlyOlin: true))
    take()
    return values
}

@MainActor
func contract() async throws -> String {
    let schema = Schema()
    for kind in Action.Kind.allCases { schema.learn(Action.example(of: kind)) }
    for kind in ActionOutcome.Kind.allCases { schema.learn(ActionOutcome.example(of: kind)) }
    for kind in TranslatorModel.SlabAction.Kind.allCases { schema.learn(TranslatorModel.SlabAction.example(of: kind)) }
    for value in try await screens() { schema.learn(value) }
    try schema.check()
    // The enums' constants by their Swift case names.
    func cases<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> [(String, String)] where E.RawValue == String {
        E.allCases.map { (String(describing: $0), $0.rawValue) }
    }
    let named: [String: [(String, String)]] = [
        "Language": cases(Language.self), "PromptFormat": cases(PromptFormat.self), "AppSettings.Theme": cases(AppSettings.Theme.self),
        "Place": cases(Place.self), "Appearance": cases(Appearance.self), "IconName": cases(IconName.self), "UIText": cases(UIText.self),
    ]
    var enumerations: [String: [(name: String, raw: String)]] = [:]
    for name in Set(schema.enumerations.keys).union(["UIText"]) {
        guard let constants = named[name] else { throw SchemaError(description: "the contract names no constants for the enum \(name)") }
        enumerations[name] = constants.map { (name: $0.0, raw: $0.1) }
    }
    let header = """
        // Generated by scripts/generate-android-contract.sh from Sources/IloTokiCore: do not edit.
        package org.ilotoki.android

        import org.json.JSONArray
        import org.json.JSONException
        import org.json.JSONObject

        // The contract between Core and the Android app, in the JSON NativeBridge carries: every
        // Action (NativeBridge.perform takes its toJson()), every ActionOutcome, the screen values
        // (MainScreen and the pages, from NativeBridge.screen) and the keys of the UI strings.
        """
    return KotlinWriter(schema: schema, enumerations: enumerations).file(header: header)
}

do {
    print(try await contract(), terminator: "")
} catch {
    FileHandle.standardError.write(Data("ilotoki-contract: \(error)\n".utf8))
    exit(1)
}
