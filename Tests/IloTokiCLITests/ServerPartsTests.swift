#if canImport(IloTokiServer)
    import Foundation
    import IloTokiCore
    import IloTokiTestSupport
    import Testing

    @testable import IloTokiServer

    /// `ilotoki serve`'s parts that need no model: request decoding and HTML's text nodes.
    @Suite struct RequestFieldsTests {
        @Test func aFormDecodesAsFlaskDoes() throws {
            let fields = try RequestFields.decode(
                body: Data("q=I+love+you%21%20%F0%9F%98%80&source=en&target=tok&q=second".utf8), contentType: nil)
            #expect(fields["q"] == .list(["I love you! 😀", "second"]), "a repeated name is a list, as libretranslate-aio sends an array")
            #expect(fields.text("q") == "I love you! 😀")
            #expect(fields.text("source") == "en")
            #expect(throws: APIError.self) {
                try RequestFields.decode(body: Data("q=%FF".utf8), contentType: "application/x-www-form-urlencoded")
            }
            #expect(throws: APIError.self) { try RequestFields.decode(body: Data([0x71, 0x3D, 0xFF]), contentType: nil) }
        }

        @Test func jsonGivesTextListsAndNumbersAndTheQueryFillsIn() throws {
            let body = Data(#"{"q": ["a", "b"], "source": "auto", "alternatives": 3, "format": null}"#.utf8)
            let fields = try RequestFields.decode(
                body: body, contentType: "application/json; charset=utf-8", query: ["api_key": "k", "source": "en"])
            #expect(fields["q"] == .list(["a", "b"]))
            #expect(fields.text("source") == "auto", "the body wins over the query")
            #expect(fields.text("alternatives") == "3")
            #expect(fields["format"] == .other)
            #expect(fields.text("api_key") == "k")
            let mixed = try RequestFields.decode(body: Data(#"{"q": [1, "a"]}"#.utf8), contentType: "application/json")
            #expect(mixed["q"] == .other)
            for bad in [#"[1, 2]"#, #"{"q": "#, "\"text\""] {
                #expect(throws: APIError(400, "Invalid JSON format")) {
                    try RequestFields.decode(body: Data(bad.utf8), contentType: "application/json")
                }
            }
            #expect(throws: APIError.self) { try RequestFields.decode(body: Data("x".utf8), contentType: "image/png") }
        }

        @Test func keysAreComparedWhole() {
            #expect(LibreTranslateAPI.sameInConstantTime("s3cret", "s3cret"))
            #expect(!LibreTranslateAPI.sameInConstantTime("s3cre", "s3cret"))
            #expect(!LibreTranslateAPI.sameInConstantTime("s3cret!", "s3cret"))
            #expect(!LibreTranslateAPI.sameInConstantTime("", "s3cret"))
        }

        @Test func theHostsAServerAnswersTo() {
            let hosts = ServeSettings.hosts(addresses: ["127.0.0.1", "::1"], port: 5000)
            #expect(hosts.contains("localhost:5000") && hosts.contains("127.0.0.1:5000") && hosts.contains("[::1]:5000"))
            #expect(!hosts.contains("localhost") && !hosts.contains("evil.example:5000"))
        }
    }

    @Suite struct HTMLTextTests {
        @Test func markupIsKeptAndTextNodesAreFound() {
            let html =
                "<p class=\"a>b\">I love <b>you</b> &amp; the cat.</p>\n<!-- a <b>comment</b> --><script>if (a < b) x();</script><br/>End"
            let pieces = HTMLText.pieces(of: html)
            #expect(pieces.map(\.raw).joined() == html)
            #expect(pieces.filter(\.isText).map(\.text) == ["I love", "you", "& the cat.", "End"])
            #expect(pieces.contains { $0.raw == "<!-- a <b>comment</b> -->" && !$0.isText })
            #expect(pieces.contains { $0.raw == "if (a < b) x();" && !$0.isText })
        }

        @Test func aTranslationIsEscapedAndKeepsTheNodesWhiteSpace() throws {
            let piece = try #require(HTMLText.pieces(of: "<i>  a &lt; b \n</i>").first { $0.isText })
            #expect(piece.text == "a < b")
            #expect(piece.replacingText(with: "x < y & z") == "  x &lt; y &amp; z \n")
            #expect(HTMLText.decodeEntities("&#x41;&#66;&nbsp;&bogus; & &amp") == "AB\u{A0}&bogus; & &amp")
            let plain = HTMLText.pieces(of: "a < b and 1<2")
            #expect(plain.allSatisfy { $0.isText }, "a '<' that begins no tag is text")
        }
    }

    /// Requests translated together (`ServedTranslations`) over a scripted engine that streams
    /// four prompts at once: a request that comes while another is translated joins it and is
    /// answered first, a request that goes away gives up only its own texts, and the queue's bound
    /// and the deadline answer instead of letting a request wait forever.
    @MainActor
    @Suite struct ServedTranslationsTests {
        static let entry = CatalogEntry(
            id: "served", displayName: "Served", quantization: "Q8_0",
            url: URL(string: "https://huggingface.co/x/served/resolve/main/served.gguf")!, bytes: 4,
            format: .sourceTarget, deprecated: false, sha256: nil)
        static let direction = TranslationDirection(from: .english, to: .tokiPona)!
        let app = ScriptedApp("served", catalog: ModelCatalog(entries: [entry]))

        /// "Long." streams `long` pieces, at least a millisecond apart (so it runs for at least
        /// `long` ms however loaded the machine, while what a test checks takes a few steps); every
        /// other sentence, one word.
        func served(
            long: Int = 2000, queueLimit: Int = 1024, deadline: Duration = .seconds(120), parallel: Int = 4
        ) async throws -> ServedTranslations {
            try app.install(Self.entry)
            let engine = ScriptedEngine(parallelCompletions: parallel, delay: .milliseconds(1)) { source in
                source == "Long." ? Array(repeating: " a", count: long) : [" " + source.lowercased().filter(\.isLetter)]
            }
            let model = app.model(engine: engine)
            await model.launch()
            try #require(model.modelState == .ready)
            return ServedTranslations(model: model, queueLimit: queueLimit, deadline: deadline)
        }

        static func texts(_ texts: String...) -> [TextToTranslate] { texts.map { TextToTranslate($0, direction: direction) } }

        @Test func aRequestThatComesWhileAnotherIsTranslatedJoinsItAndIsAnsweredFirst() async throws {
            let served = try await served()
            let first = Task { try await served.translate(Self.texts("Long.")) }
            #expect(await eventually { served.queued == 1 })
            try await Task.sleep(for: .milliseconds(20))
            let second = try await served.translate(Self.texts("Hello there.", "Good night."))
            #expect(served.queued == 1, "the long text is still being translated when the later request has its answer")
            #expect(try second.map { try $0.get() } == ["hellothere", "goodnight"])
            let long = try await first.value
            #expect(try long.first?.get() == String(String(repeating: " a", count: 2000).dropFirst()))
        }

        @Test func aRequestThatGoesAwayGivesUpOnlyItsOwnTexts() async throws {
            let served = try await served()
            let leaving = Task { try await served.translate(Self.texts("Long.", "Long.")) }
            let staying = Task { try await served.translate(Self.texts("Long.")) }
            #expect(await eventually { served.queued == 3 })
            leaving.cancel()
            let left = try await leaving.value
            #expect(left.allSatisfy { if case .failure(let error) = $0 { error is CancellationError } else { false } })
            #expect(served.queued == 1)
            #expect(try await staying.value.first?.get().hasPrefix("a a") == true)
            #expect(served.queued == 0)
        }

        @Test func aFullQueueAnswers429() async throws {
            let served = try await served(queueLimit: 3, parallel: 1)
            let running = Task { try await served.translate(Self.texts("Long.", "Long.")) }
            #expect(await eventually { served.queued == 2 })
            await #expect(throws: APIError.self) { try await served.translate(Self.texts("One.", "Two.")) }
            #expect(served.queued == 2, "a request refused takes no place")
            running.cancel()
            _ = try await running.value
            #expect(served.queued == 0)
        }

        @Test func aTextThatCannotStartInTimeAnswers503() async throws {
            // One at a time: a text waits behind a long one (at least 60 s) past its deadline. The
            // deadline is made short only once the long one has its first piece, so the long one is
            // past its reach however loaded the machine is (a busy main actor once kept the long
            // one's first piece from coming within a short deadline).
            let served = try await served(long: 60_000, parallel: 1)
            let running = Task { try await served.translate(Self.texts("Long.")) }
            #expect(await eventually { served.started == 1 })
            served.deadline = .seconds(3) * testTimeScale
            let late = try await served.translate(Self.texts("Late."))
            guard case .failure(let error as APIError) = late.first else {
                Issue.record("a text that never started was answered \(late)")
                return
            }
            #expect(error.status == 503)
            #expect(served.queued == 1, "the long one goes on")
            running.cancel()
            _ = try await running.value
            #expect(served.queued == 0)
        }
    }
#endif
