import Foundation
import IloTokiLocking

/// Translated files waiting to be downloaded (`/translate_file` answers with a link to one):
/// kept in memory only, never on disk, each for `lifetime`, and at most `capacity` bytes of
/// them (the oldest go first).
public final class TranslatedFiles: Sendable {
    public struct File: Sendable {
        public let name: String
        public let data: Data
        let stored: ContinuousClock.Instant
    }

    private let files = Locked<[(id: String, file: File)]>([])
    let capacity: Int
    let lifetime: Duration

    public init(capacity: Int = 64 << 20, lifetime: Duration = .seconds(3600)) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// Keeps `data` as the file `name`; returns the name it is downloaded by
    /// (`<random id>.<name>`, as LibreTranslate's links are).
    public func store(_ data: Data, name: String) -> String {
        let id = UUID().uuidString.lowercased()
        files.withLock { files in
            files.append((id, File(name: name, data: data, stored: .now)))
            let now = ContinuousClock.now
            files.removeAll { now - $0.file.stored > lifetime }
            while files.count > 1, files.reduce(0, { $0 + $1.file.data.count }) > capacity { files.removeFirst() }
        }
        return "\(id).\(name)"
    }

    /// The file a download link names, if it is still kept.
    public func file(named link: String) -> File? {
        let id = String(link.prefix { $0 != "." })
        let now = ContinuousClock.now
        return files.withLock { files in files.first { $0.id == id && now - $0.file.stored <= lifetime }?.file }
    }
}
