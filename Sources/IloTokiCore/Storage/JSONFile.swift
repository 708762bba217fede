import Foundation

/// The app's small JSON files (settings, history, sideloaded models).
enum JSONFile {
    /// What reading a file gave.
    struct Read<Value> {
        /// The decoded value; `nil` when the file is missing or was unusable.
        var value: Value?
        /// Set when the file was corrupt or unreadable: what happened and where the old file went.
        var problem: String?
    }

    /// Reads and decodes `url`. A file that cannot be read or decoded is moved aside (to
    /// `<name>.corrupt-<time>`), never deleted, so nothing is lost and the app still starts.
    static func read<Value: Decodable>(_ type: Value.Type, from url: URL) -> Read<Value> {
        guard FileManager.default.fileExists(atPath: url.path) else { return Read(value: nil, problem: nil) }
        let failure: String
        do {
            let data = try Data(contentsOf: url)
            return Read(value: try decoder.decode(Value.self, from: data), problem: nil)
        } catch let error as DecodingError {
            failure = "it is damaged (\(describe(error)))"
        } catch {
            failure = "it cannot be read (\(error.localizedDescription))"
        }
        let aside = url.deletingLastPathComponent().appendingPathComponent(
            "\(url.lastPathComponent).corrupt-\(Int(Date().timeIntervalSince1970))")
        do {
            try FileManager.default.moveItem(at: url, to: aside)
            return Read(value: nil, problem: "\(url.lastPathComponent) was set aside because \(failure); the old file is \(aside.path).")
        } catch {
            return Read(value: nil, problem: "\(url.path) is ignored because \(failure), and it could not be moved aside.")
        }
    }

    /// Encodes `value` and writes it atomically with user-only permissions.
    static func write<Value: Encodable>(_ value: Value, to url: URL) throws {
        try AtomicFile.replace(url, with: try encoder.encode(value))
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            context.debugDescription
        @unknown default:
            "\(error)"
        }
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
