import IloTokiCore
import IloTokiTestSupport
import Testing

/// The phones' tick as words land: at most one per 60 ms, and only while the setting is on.
@MainActor
@Suite struct HapticTickerTests {
    @Test(arguments: [
        // (times the pieces landed in ms, which of them tick)
        ([0, 10, 59, 60, 61, 200], [true, false, false, true, false, true]),
        ([0, 60, 120, 180], [true, true, true, true]),
        ([5, 5, 5], [true, false, false]),
        ([1000], [true]),
    ])
    func atMostOneTickPer60Milliseconds(times: [Int], ticks: [Bool]) {
        var ticker = HapticTicker()
        #expect(times.map { ticker.landed(at: .milliseconds($0)) } == ticks)
        #expect(ticker.ticks == ticks.filter { $0 }.count)
    }

    @Test func wordsLandingTickWhileTheSettingIsOn() async throws {
        let app = ScriptedApp("haptics", catalog: ModelCatalog(entries: []))
        let model = app.model(engine: ScriptedEngine(delay: .milliseconds(80)) { _ in [" mi", " olin", " e", " sina"] })
        await model.launch()
        await model.run(.useFileForSession(path: "/demo/model.gguf", format: .sourceTarget))
        #expect(MainScreen(model: model, strings: UIStrings(language: .english)).haptics?.wordTicks == 0)
        model.perform(.setSourceText(text: "I love you"))
        model.perform(.translate)
        #expect(await eventually { model.translationState == .done })
        let ticks = try #require(MainScreen(model: model, strings: UIStrings(language: .english)).haptics?.wordTicks)
        // Four pieces 80 ms apart: a tick for each that adds text (on a busy machine two may
        // land closer than 60 ms and share one).
        #expect(ticks >= 1 && ticks <= 4, "\(ticks) ticks")

        model.perform(.setHaptics(on: false))
        #expect(MainScreen(model: model, strings: UIStrings(language: .english)).haptics == nil)
        let settings = SettingsPage(model: model, strings: UIStrings(language: .english))
        #expect(settings.haptics.title == "Vibrate on touch and as words arrive" && !settings.haptics.isOn)
    }
}
