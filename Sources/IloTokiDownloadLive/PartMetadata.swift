import Foundation
import IloTokiCore

/// What a download keeps beside its `.part` file, so a later process resumes safely.
struct PartMetadata: Codable, Equatable {
    /// The final response's ETag, sent back as `If-Range`.
    var etag: String?
    /// The `X-Linked-Etag` (sha256) the bytes so far belong to.
    var linkedEtag: String?
    /// The file's size, as the server said.
    var total: Int64?
}
