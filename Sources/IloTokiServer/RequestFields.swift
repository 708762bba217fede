import Foundation

/// A request's parameters, as LibreTranslate's clients send them: a JSON object
/// (`Content-Type: application/json`) or a form (`application/x-www-form-urlencoded`, or no
/// type), together with the URL's query. Decoding never traps on any input
/// (`Tests/Fuzz/request_fields`).
public struct RequestFields: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case text(String)
        case list([String])
        /// A number, true or false, null, an object, or a list that is not all text.
        case other
    }

    public var values: [String: Value]

    public init(_ values: [String: Value] = [:]) { self.values = values }

    public subscript(name: String) -> Value? { values[name] }

    /// The value as text: a string, a number written out, or the first of a form's repeated
    /// values; `nil` when absent.
    public func text(_ name: String) -> String? {
        switch values[name] {
        case .text(let text): text
        case .list(let texts) where !texts.isEmpty && formRepeated.contains(name): texts[0]
        default: nil
        }
    }

    /// Names a form gave more than once (their values became a list).
    var formRepeated: Set<String> = []

    /// Decodes `body`; the query's values count where the body has none.
    /// - Throws: `APIError` (400) for a body that is not a JSON object, not UTF-8, or not a form.
    public static func decode(body: Data, contentType: String?, query: [String: String] = [:]) throws -> RequestFields {
        var fields = RequestFields()
        let type = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if type == "application/json" || type.hasSuffix("+json") {
            fields = try json(body)
        } else if type.isEmpty || type == "application/x-www-form-urlencoded" || type == "text/plain" {
            fields = try form(body)
        } else if type == "multipart/form-data" {
            throw APIError(400, "Invalid request: a multipart body is taken only by /translate_file")
        } else {
            throw APIError(400, "Invalid request: the body's type (\(type)) is neither JSON nor a form")
        }
        for (name, value) in query where fields.values[name] == nil { fields.values[name] = .text(value) }
        return fields
    }

    static func json(_ body: Data) throws -> RequestFields {
        guard !body.isEmpty else { return RequestFields() }
        guard String(validating: body, as: UTF8.self) != nil else {
            throw APIError(400, "Invalid request: the body is not valid UTF-8 text")
        }
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let dictionary = object as? [String: Any]
        else { throw APIError(400, "Invalid JSON format") }
        var fields = RequestFields()
        for (name, value) in dictionary {
            switch value {
            case let text as String: fields.values[name] = .text(text)
            case let list as [Any]:
                let texts = list.compactMap { $0 as? String }
                fields.values[name] = texts.count == list.count ? .list(texts) : .other
            case let number as NSNumber:
                // A number (alternatives: 3, a key sent as a number) read as a form would give it.
                fields.values[name] = .text(number.stringValue)
            default: fields.values[name] = .other
            }
        }
        return fields
    }

    static func form(_ body: Data) throws -> RequestFields {
        guard let text = String(validating: body, as: UTF8.self) else {
            throw APIError(400, "Invalid request: the body is not valid UTF-8 text")
        }
        var fields = RequestFields()
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decodeComponent(parts[0]), let value = decodeComponent(parts.count > 1 ? parts[1] : "") else {
                throw APIError(400, "Invalid request: the form is not properly encoded")
            }
            // A repeated name is a list (`q=a&q=b`: two texts, as libretranslate-aio sends an array).
            switch fields.values[name] {
            case nil: fields.values[name] = .text(value)
            case .text(let first):
                fields.values[name] = .list([first, value])
                fields.formRepeated.insert(name)
            case .list(let values): fields.values[name] = .list(values + [value])
            case .other: break
            }
        }
        return fields
    }

    /// A form component: '+' is a space, %XX a byte; `nil` when the bytes are not UTF-8.
    static func decodeComponent(_ component: Substring) -> String? {
        let spaced = component.replacingOccurrences(of: "+", with: " ")
        guard spaced.contains("%") else { return spaced }
        return spaced.removingPercentEncoding
    }
}

/// An answer of the API that is an error: `{"error": message}` with its status.
public struct APIError: Error, Equatable, Sendable {
    public let status: Int
    public let message: String
    /// Seconds to wait before trying again (429, 503).
    public var retryAfter: Int?

    public init(_ status: Int, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
    }
}
