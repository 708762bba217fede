import Foundation

/// Small JSON files only this process writes (what a download keeps beside its `.part`,
/// which the download's lock already guards). Files that other processes share go through
/// `SharedFile`.
package enum JSONFile {
    /// What reading a file gave.
    package struct Read<Value> {
        /// The decoded value; `nil` when the file is missing or was unusable.
        package var value: Value?
        /// Set when the file was corrupt or unreadable: what happened and where the old file went.
        package var problem: String?
    }

    /// Reads and decodes `url`. A file that cannot be read or decoded is moved aside (never
    /// deleted, never overwritten), so nothing is lost and the app still starts.
    package static func read<Value: Codable & Sendable>(_ type: Value.Type, from url: URL) -> Read<Value> {
        let contents = SharedFile<Value>(url: url).readWithoutLock()
        return Read(value: contents.value, problem: contents.problem)
    }

    /// Encodes `value` and writes it atomically with user-only permissions.
    package static func write<Value: Encodable>(_ value: Value, to url: URL) throws {
        try AtomicFile.replace(url, with: try encoder.encode(value))
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

extension DecodingError {
    /// What is wrong, in one phrase for a message ("Expected to decode Bool but found a string").
    var summary: String {
        switch self {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            context.debugDescription
        @unknown default:
            "\(self)"
        }
    }
}
