import Foundation
import IloTokiCore
import IloTokiLLM
import IloTokiTestSupport
import Testing

@testable import IloTokiEngineLive

/// The output head chosen by measurement with the real engine: the first translations into a
/// language alternate the heads, the choice is kept in the app's directory for that language,
/// the next load uses it without measuring again, and another target language is measured on
/// its own.
@Suite(.serialized, .exclusiveModelUse) struct HeadChoiceTests {
    static let sentence = "The river runs past the old mill and the children walk to school in the rain."

    func translate(_ engine: LLMTranslationEngine) async throws -> CompletionStats? {
        let prompt = PromptFormat.sourceTarget.translationPrompt(for: Self.sentence, direction: .englishToTokiPona)
        var last: CompletionStats?
        for try await event in engine.complete(prompt, maxTokens: 48) {
            if case .finished(let stats) = event { last = stats }
        }
        return last
    }

    @Test func theFirstTranslationsMeasureBothHeadsAndTheChoiceIsKept() async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        let home = TemporaryDirectory("head-choice")
        let file = home.file("head-calibration.json")
        let loader = LiveEngineLoader(options: LiveEngineOptions(threads: 2, head: .auto, calibrationFile: file))
        let engine = try #require(try await loader.load(path: gemma) as? LLMTranslationEngine)
        var heads: [OutputHead] = []
        var answerTokens: [OutputHead: Int] = [:]
        for _ in 0..<24 where engine.headCalibration(into: .tokiPona).choice == nil {
            let head = engine.headCalibration(into: .tokiPona).next
            heads.append(head)
            let stats = try #require(try await translate(engine))
            #expect(stats.decodedTokens >= HeadCalibration.shortestRun, "the sentence is long enough to count")
            // Counted as the answer's tokens: steps the trimmed head took again are its time.
            answerTokens[head, default: 0] += stats.generatedTokens - 1
        }
        let chosen = try #require(engine.headCalibration(into: .tokiPona).choice, "no choice after \(heads.count) translations")
        // Trimmed first, then whichever has decoded less, so both are measured alike.
        #expect(Array(heads.prefix(2)) == [.trimmed, .full])
        #expect(heads.filter { $0 == .trimmed }.count >= HeadCalibration.runsPerHead)
        #expect(heads.filter { $0 == .full }.count >= HeadCalibration.runsPerHead)
        #expect(engine.headCalibration(into: .tokiPona).trimmed.tokens >= HeadCalibration.tokensPerHead)
        #expect(engine.headCalibration(into: .tokiPona).full.tokens >= HeadCalibration.tokensPerHead)
        #expect(engine.headCalibration(into: .tokiPona).trimmed.tokens == answerTokens[.trimmed])
        #expect(engine.headCalibration(into: .tokiPona).full.tokens == answerTokens[.full])
        #expect(engine.headCalibration(into: .tokiPona).reason.hasPrefix("measured: trimmed "))
        #expect(FileManager.default.fileExists(atPath: file.path))

        // A new load of the same file on the same machine: the choice, without measuring.
        let again = try #require(try await loader.load(path: gemma) as? LLMTranslationEngine)
        #expect(again.headCalibration(into: .tokiPona).choice == chosen)
        #expect(again.headCalibration(into: .tokiPona).next == chosen)
        // Into English nothing is measured yet: its kept rows are another set, its choice its own.
        #expect(again.headCalibration(into: .english).choice == nil)
        #expect(again.headCalibration(into: .english).next == .trimmed)
        let kept = try String(contentsOf: file, encoding: .utf8)
        #expect(kept.contains("| into tok") && !kept.contains("| into en"), "the file keeps the choice under its target language")
        print("head chosen on \(CPUName.current): \(chosen.rawValue) (\(engine.headCalibration(into: .tokiPona).reason))")
    }

    /// `ilotoki serve` translates through a fed batch: a request into Toki Pona that decodes
    /// alone takes the head this machine measures for it, and such requests are the measurement.
    @Test func servedTextsDecodedAloneMeasureTheHeadIntoTokiPona() async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        let home = TemporaryDirectory("head-choice-served")
        let loader = LiveEngineLoader(
            options: LiveEngineOptions(threads: 2, head: .auto, calibrationFile: home.file("head-calibration.json"), batch: .fixed(4)))
        let engine = try #require(try await loader.load(path: gemma) as? LLMTranslationEngine)
        let prompt = PromptFormat.sourceTarget.translationPrompt(for: Self.sentence, direction: .englishToTokiPona)
        let feed = PromptFeed(stopSequences: prompt.stopSequences, maxLines: prompt.maxLines, maxTokens: 48, showsEveryPiece: false)
        let events = engine.completeAll(fedBy: feed)
        var heads: [OutputHead] = []
        var iterator = events.makeAsyncIterator()
        // One request at a time, each answered before the next comes: every one decodes alone.
        for _ in 0..<24 where engine.headCalibration(into: .tokiPona).choice == nil {
            heads.append(engine.headCalibration(into: .tokiPona).next)
            let index = try #require(feed.add(prompt, maxTokens: 48))
            var ended = false
            while !ended, let event = try await iterator.next() {
                if case .finished(let at, let stats) = event, at == index {
                    #expect(stats.decodedTokens >= HeadCalibration.shortestRun, "the sentence is long enough to count")
                    ended = true
                }
            }
            try #require(ended, "request \(index) ended")
        }
        feed.close()
        while try await iterator.next() != nil {}
        let calibration = engine.headCalibration(into: .tokiPona)
        try #require(calibration.choice != nil, "no choice after \(heads.count) served requests: \(calibration.reason)")
        #expect(Array(heads.prefix(2)) == [.trimmed, .full], "served requests alternate the heads while measuring")
        #expect(calibration.trimmed.runs >= HeadCalibration.runsPerHead && calibration.full.runs >= HeadCalibration.runsPerHead)
    }

    @Test func aHeadAskedForIsUsedAlwaysAndAModelWithoutATrimmableHeadUsesTheFullOne() async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        let full = try #require(
            try await LiveEngineLoader(options: LiveEngineOptions(head: .full)).load(path: gemma) as? LLMTranslationEngine)
        #expect(full.headCalibration(into: .tokiPona).choice == .full && full.headCalibration(into: .english).choice == .full)
        let tiny = try TestModels.require(TestModels.tiny)
        let untrimmable = try #require(
            try await LiveEngineLoader(options: LiveEngineOptions(head: .auto)).load(path: tiny) as? LLMTranslationEngine)
        #expect(untrimmable.headCalibration(into: .english).choice == .full)
        #expect(untrimmable.headCalibration(into: .english).reason.contains("cannot be trimmed"))
    }
}

/// The file the head's measurements are kept in: by key, dated, a damaged one measured again.
@Suite struct HeadCalibrationStoreTests {
    @Test func aMeasurementIsKeptByKeyForAMonthAndADamagedFileIsMeasuredAgain() throws {
        let home = TemporaryDirectory("head-store")
        let store = HeadCalibrationStore(file: home.file("head-calibration.json"))
        var calibration = HeadCalibration()
        for _ in 0..<(2 * HeadCalibration.runsPerHead) { calibration.record(calibration.next, tokens: 40, milliseconds: 800) }
        #expect(calibration.choice == .full)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        store.save(calibration, for: "cpu | model | build | threads 2", now: start)
        #expect(store.calibration(for: "cpu | model | build | threads 2", now: start.addingTimeInterval(3600)) == calibration)
        #expect(store.calibration(for: "another cpu | model | build | threads 2", now: start) == nil)
        #expect(store.calibration(for: "cpu | model | build | threads 2", now: start.addingTimeInterval(31 * 24 * 3600)) == nil)
        try Data("not json".utf8).write(to: home.file("head-calibration.json"))
        #expect(store.calibration(for: "cpu | model | build | threads 2", now: start) == nil)
    }
}
