import Foundation
import IloTokiTestSupport
import Testing

@testable import IloTokiCore

/// `Action` and `ActionOutcome` as the bridge carries them, and `perform`'s contract: it never
/// waits for long work, `run` does, and a failure is a notice unless someone waited for it.
@MainActor
@Suite struct ActionTests {
    static let entry = CatalogEntry(
        id: "current", displayName: "Current", quantization: "Q8_0",
        url: URL(string: "https://huggingface.co/x/current/resolve/main/current.gguf")!, bytes: 4,
        format: .sourceTarget, deprecated: false, sha256: nil)
    let app = ScriptedApp("actions", catalog: ModelCatalog(entries: [entry]))

    @Test(arguments: Action.Kind.allCases) func everyActionCrossesTheBridgeAsJSONAndBack(_ kind: Action.Kind) throws {
        let action = Action.example(of: kind)
        #expect(action.kind == kind)
        let json = try ScreenJSON.encode(action)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Array(object.keys) == [kind.rawValue], "the case's name is the JSON key: \(json)")
        #expect(try JSONDecoder().decode(Action.self, from: Data(json.utf8)) == action)
    }

    @Test(arguments: ActionOutcome.Kind.allCases) func everyOutcomeCrossesTheBridgeAsJSONAndBack(_ kind: ActionOutcome.Kind) throws {
        let outcome = ActionOutcome.example(of: kind)
        #expect(outcome.kind == kind)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(ActionOutcome.self, from: Data(ScreenJSON.encode(outcome).utf8)) == outcome)
    }

    @Test(arguments: TranslatorModel.SlabAction.Kind.allCases) func everySlabActionHasAnExample(_ kind: TranslatorModel.SlabAction.Kind) {
        #expect(TranslatorModel.SlabAction.example(of: kind).kind == kind)
    }

    @Test func theJSONOfAnActionIsWhatTheKotlinSideWrites() throws {
        let use = try JSONDecoder().decode(Action.self, from: Data(#"{"use": {"id": "current"}}"#.utf8))
        #expect(use == .use(id: "current"))
        #expect(try JSONDecoder().decode(Action.self, from: Data(#"{"pressSlab": {}}"#.utf8)) == .pressSlab)
        for bad in [#"{"use": {}}"#, #"{"explode": {}}"#, #"{"setTheme": {"theme": "purple"}}"#, "[]", ""] {
            #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode(Action.self, from: Data(bad.utf8)) }
        }
    }

    @Test func performReturnsAtOnceWhileALoadGoesOnAndRunWaitsForIt() async throws {
        try app.install(Self.entry)
        let gate = AsyncGate()
        let model = app.model(engine: ScriptedEngine { _ in [" mi"] }) { _ in await gate.wait() }
        model.prepare()
        #expect(model.perform(.use(id: "current")) == .done)
        #expect(await eventually { model.modelState == .loading })
        #expect(model.isWorking)
        await gate.open()
        await model.settled()
        #expect(model.modelState == .ready && !model.isWorking)
    }

    @Test func aFailureOfWorkNobodyWaitedForBecomesANotice() async throws {
        let model = app.model(engine: ScriptedEngine { _ in [] })
        model.prepare()
        let missing = app.home.url.appendingPathComponent("missing.gguf").path
        #expect(model.perform(.importModel(ModelImport(path: missing, format: .sourceTarget))) == .done)
        await model.settled()
        try #require(model.notices.count == 1)
        #expect(model.notices[0].contains("missing.gguf"))
        // The same failure, waited for, is returned instead.
        model.perform(.dismissNotice(index: 0))
        guard case .failed(let reason) = await model.run(.importModel(ModelImport(path: missing, format: .sourceTarget))) else {
            Issue.record("expected a failure")
            return
        }
        #expect(reason.contains("missing.gguf") && model.notices.isEmpty)
    }

    /// The models page's form is the model's state: the format chosen, and why the last file
    /// was refused, shown by every front end from the page and cleared by the next try.
    @Test func theAddModelFormsFormatAndRefusalAreThePages() async throws {
        let model = app.model(engine: ScriptedEngine { _ in [] })
        model.prepare()
        #expect(ModelsPage(model: model, strings: UIStrings(language: .english)).chosenFormat == .sourceTarget)
        model.perform(.setImportFormat(format: .queryAnswer))
        var page = ModelsPage(model: model, strings: UIStrings(language: .english))
        #expect(page.chosenFormat == .queryAnswer && page.importError == nil)
        let missing = app.home.url.appendingPathComponent("missing.gguf").path
        _ = await model.run(.importModel(ModelImport(path: missing, format: page.chosenFormat)))
        page = ModelsPage(model: model, strings: UIStrings(language: .english))
        #expect(page.importError?.contains("missing.gguf") == true)
        #expect(try ScreenJSON.encode(page).contains("\"chosenFormat\":\"queryAnswer\""))
        model.perform(.importModel(ModelImport(path: missing, format: .queryAnswer)))
        #expect(ModelsPage(model: model, strings: UIStrings(language: .english)).importError == nil, "a new try clears the last refusal")
        await model.settled()
    }

    @Test func actionsOnWhatDoesNotExistAreRefusedInWords() {
        let model = app.model(engine: ScriptedEngine { _ in [] })
        model.prepare()
        for action in [Action.use(id: "nope"), .delete(id: "nope"), .download(id: "nope"), .reuse(id: UUID()), .copy] {
            guard case .failed(let reason) = model.perform(action) else {
                Issue.record("\(action) was not refused")
                continue
            }
            #expect(!reason.isEmpty)
        }
        #expect(model.perform(.setOtherLanguage(language: .tokiPona)) != .done)
    }

    @Test func reusingAHistoryEntryAsksForTheMainScreenOnEveryFrontEnd() async throws {
        try app.install(Self.entry)
        let model = app.model(engine: ScriptedEngine { _ in [" mi", " moku"] })
        await model.launch()
        model.perform(.setDirection(direction: .englishToTokiPona))
        model.perform(.setSourceText(text: "I eat"))
        model.perform(.pressSlab)
        #expect(await eventually { model.translationState == .done })
        let entry = try #require(model.history.entries.first)
        model.perform(.setSourceText(text: "something else"))
        #expect(model.perform(.reuse(id: entry.id)) == .showMain)
        #expect(model.sourceText == "I eat" && model.targetText == "mi moku")
    }

    @Test func goingToTheBackgroundWritesWhatIsPending() async throws {
        let model = app.model(engine: ScriptedEngine { _ in [] })
        model.prepare()
        model.perform(.setTheme(theme: .dark))
        model.perform(.wentToBackground)
        await model.settled()
        let settings = try Data(contentsOf: app.directories.settingsFile)
        #expect(String(decoding: settings, as: UTF8.self).contains("dark"))
    }
}
