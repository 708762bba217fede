#if canImport(IloTokiServer)
import Foundation
import Testing

@testable import IloTokiServer

/// `ilotoki serve`'s parts that need no model: request decoding and HTML's text nodes.
@Suite struct RequestFieldsTests {
    @Test func aFormDecodesAsFlaskDoes() throws {
        let fields = try RequestFields.decode(body: Data("q=I+love+you%21%20%F0%9F%98%80&source=en&target=tok&q=second".utf8), contentType: nil)
        #expect(fields["q"] == .list(["I love you! 😀", "second"]), "a repeated name is a list, as libretranslate-aio sends an array")
        #expect(fields.text("q") == "I love you! 😀")
        #expect(fields.text("source") == "en")
        #expect(throws: APIError.self) { try RequestFields.decode(body: Data("q=%FF".utf8), contentType: "application/x-www-form-urlencoded") }
        #expect(throws: APIError.self) { try RequestFields.decode(body: Data([0x71, 0x3D, 0xFF]), contentType: nil) }
    }

    @Test func jsonGivesTextListsAndNumbersAndTheQueryFillsIn() throws {
        let body = Data(#"{"q": ["a", "b"], "source": "auto", "alternatives": 3, "format": null}"#.utf8)
        let fields = try RequestFields.decode(body: body, contentType: "application/json; charset=utf-8", query: ["api_key": "k", "source": "en"])
        #expect(fields["q"] == .list(["a", "b"]))
        #expect(fields.text("source") == "auto", "the body wins over the query")
        #expect(fields.text("alternatives") == "3")
        #expect(fields["format"] == .other)
        #expect(fields.text("api_key") == "k")
        let mixed = try RequestFields.decode(body: Data(#"{"q": [1, "a"]}"#.utf8), contentType: "application/json")
        #expect(mixed["q"] == .other)
        for bad in [#"[1, 2]"#, #"{"q": "#, "\"text\""] {
            #expect(throws: APIError(400, "Invalid JSON format")) { try RequestFields.decode(body: Data(bad.utf8), contentType: "application/json") }
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
        let html = "<p class=\"a>b\">I love <b>you</b> &amp; the cat.</p>\n<!-- a <b>comment</b> --><script>if (a < b) x();</script><br/>End"
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
#endif
