import Foundation

/// HTML split into its markup and its text, so the text nodes are translated and the markup
/// comes back as it was (`format: "html"`). Tags, comments, declarations and the contents of
/// `<script>` and `<style>` are kept; each text node's entities are decoded for the model and
/// its translation escaped again, its leading and trailing white space kept.
enum HTMLText {
    struct Piece: Equatable {
        /// The piece as it stood in the HTML.
        let raw: String
        /// A text node with words in it (not markup, not only white space).
        let isText: Bool

        /// The node's text, entities decoded and trimmed: what is translated.
        var text: String { HTMLText.decodeEntities(raw).trimmingCharacters(in: .whitespacesAndNewlines) }

        /// The node with its text replaced by `translation` (escaped), its white space kept.
        func replacingText(with translation: String) -> String {
            let leading = raw.prefix { $0.isWhitespace }
            let trailing = raw.reversed().prefix { $0.isWhitespace }.reversed()
            return String(leading) + HTMLText.escape(translation) + String(trailing)
        }
    }

    static func pieces(of html: String) -> [Piece] {
        var pieces: [Piece] = []
        var text = ""
        var rest = Substring(html)
        func flushText() {
            guard !text.isEmpty else { return }
            let hasWords = !decodeEntities(text).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            pieces.append(Piece(raw: text, isText: hasWords))
            text = ""
        }
        while let first = rest.first {
            guard first == "<", let next = rest.dropFirst().first, next.isLetter || next == "/" || next == "!" || next == "?" else {
                text.append(first)
                rest = rest.dropFirst()
                continue
            }
            flushText()
            let end: Substring.Index
            if rest.hasPrefix("<!--") {
                end = rest.range(of: "-->").map(\.upperBound) ?? rest.endIndex
            } else {
                end = tagEnd(in: rest)
            }
            let tag = rest[..<end]
            pieces.append(Piece(raw: String(tag), isText: false))
            rest = rest[end...]
            // The contents of script and style are code, kept as they are.
            let name = tag.dropFirst().prefix { $0.isLetter || $0.isNumber }.lowercased()
            if name == "script" || name == "style", !tag.hasSuffix("/>") {
                let close = rest.range(of: "</\(name)", options: .caseInsensitive)?.lowerBound ?? rest.endIndex
                if close > rest.startIndex { pieces.append(Piece(raw: String(rest[..<close]), isText: false)) }
                rest = rest[close...]
            }
        }
        flushText()
        return pieces
    }

    /// Where a tag that begins `rest` ends: after its '>', quotes in attributes respected.
    private static func tagEnd(in rest: Substring) -> Substring.Index {
        var quote: Character?
        var index = rest.index(after: rest.startIndex)
        while index < rest.endIndex {
            let character = rest[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == ">" {
                return rest.index(after: index)
            }
            index = rest.index(after: index)
        }
        return rest.endIndex
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static let named: [Substring: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "ndash": "–", "mdash": "—",
        "hellip": "…", "laquo": "«", "raquo": "»", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "copy": "©",
    ]

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var decoded = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            decoded += rest[..<amp]
            rest = rest[amp...]
            guard let semicolon = rest.prefix(12).firstIndex(of: ";") else {
                decoded.append("&")
                rest = rest.dropFirst()
                continue
            }
            let name = rest[rest.index(after: rest.startIndex)..<semicolon]
            var value: String?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                value = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
            } else if name.hasPrefix("#") {
                value = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
            } else {
                value = named[name]
            }
            if let value {
                decoded += value
                rest = rest[rest.index(after: semicolon)...]
            } else {
                decoded.append("&")
                rest = rest.dropFirst()
            }
        }
        return decoded + rest
    }
}
