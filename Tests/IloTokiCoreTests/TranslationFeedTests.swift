import Foundation
import IloTokiCore
import IloTokiTestSupport
import Testing

/// Texts that come while others are translated (`Translator.openTranslation`, what `ilotoki
/// serve` translates its requests with): a text added later joins the running ones and may end
/// first, a text given up stops and says no more, and what cannot be translated fails on its own.
@Suite struct TranslationFeedTests {
    static let direction = TranslationDirection(from: .english, to: .tokiPona)!

    /// "Long." streams 2,000 pieces, at least a millisecond apart (what a test checks takes a few
    /// steps, so a loaded machine cannot let it end first); every other sentence, one word.
    static func engine(parallel: Int) -> ScriptedEngine {
        ScriptedEngine(parallelCompletions: parallel, delay: .milliseconds(1)) { source in
            source == "Long." ? Array(repeating: " a", count: 2000) : [" " + source.lowercased().filter(\.isLetter)]
        }
    }

    static func text(_ text: String) -> TextToTranslate { TextToTranslate(text, direction: direction, keepsInHistory: false) }

    /// Each text's final text or failure, in the order they ended.
    struct Ends {
        var order: [Int] = []
        var texts: [Int: String] = [:]
        var failures: [Int: any Error] = [:]
        var updatesAfterGivingUp = 0
    }

    @Test(arguments: [4, 1])
    func aTextAddedWhileAnotherIsTranslatedJoinsItAndEndsFirst(parallel: Int) async throws {
        let translator = Translator(engine: Self.engine(parallel: parallel), format: .sourceTarget)
        let (updates, feed) = translator.openTranslation()
        let long = try #require(feed.add(Self.text("Long.")))
        var ends = Ends()
        var short: Int?
        for try await update in updates {
            switch update {
            case .progress(let index, let progress):
                if short == nil { short = feed.add(Self.text("Short one. And two.")) }
                if progress.isFinal {
                    ends.order.append(index)
                    ends.texts[index] = progress.text
                }
            case .failed(let index, let error):
                ends.order.append(index)
                ends.failures[index] = error
            }
            if ends.order.count == 2 { feed.close() }
        }
        let added = try #require(short)
        #expect(ends.failures.isEmpty)
        #expect(ends.texts[added] == "shortone andtwo")
        #expect(ends.texts[long] == String(String(repeating: " a", count: 2000).dropFirst()))
        if parallel > 1 {
            #expect(ends.order == [added, long], "the text added later joined the long one and ended first")
        } else {
            // One at a time: the text added later waits for the one being translated.
            #expect(ends.order == [long, added])
        }
    }

    @Test func aTextGivenUpSaysNoMoreAndTheOthersEnd() async throws {
        let engine = Self.engine(parallel: 4)
        let translator = Translator(engine: engine, format: .sourceTarget)
        let (updates, feed) = translator.openTranslation()
        let given = try #require(feed.add(Self.text("Long.")))
        let kept = try #require(feed.add(Self.text("Long.")))
        var ends = Ends()
        var gaveUp = false
        for try await update in updates {
            switch update {
            case .progress(let index, let progress):
                if index == given, gaveUp { ends.updatesAfterGivingUp += 1 }
                if index == given, !gaveUp {
                    feed.giveUp(given)
                    gaveUp = true
                    #expect(feed.count == 1)
                }
                if progress.isFinal {
                    ends.order.append(index)
                    feed.close()
                }
            case .failed(let index, _):
                ends.order.append(index)
            }
        }
        #expect(ends.updatesAfterGivingUp == 0)
        #expect(ends.order == [kept])
        #expect(feed.count == 0)
    }

    @Test func whatCannotBeTranslatedFailsOnItsOwn() async throws {
        let translator = Translator(engine: Self.engine(parallel: 4), format: .sourceTarget)
        let (updates, feed) = translator.openTranslation()
        let empty = try #require(feed.add(Self.text("   \n ")))
        let invalid = try #require(feed.add(Self.text("a\0b")))
        let good = try #require(feed.add(Self.text("Good.")))
        var ends = Ends()
        for try await update in updates {
            switch update {
            case .progress(let index, let progress) where progress.isFinal:
                ends.texts[index] = progress.text
                feed.close()
            case .progress: break
            case .failed(let index, let error): ends.failures[index] = error
            }
        }
        #expect(ends.failures[empty] as? TranslationError == .emptyText)
        #expect(ends.failures[invalid] as? TranslationError == .invalidText)
        #expect(ends.texts[good] == "good")
        // Once closed, a text is refused, not lost: the caller is told at once.
        #expect(feed.add(Self.text("Late.")) == nil)
    }
}
