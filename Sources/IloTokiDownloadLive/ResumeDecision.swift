import Foundation
import IloTokiCore

/// Whether a response may add to the bytes a download already has, or must start over, or
/// cannot be used: the one decision that keeps old and new bytes of a file from ever mixing.
/// A pure function of the response and what is known about the `.part` file.
enum ResumeDecision {
    /// What `info` means for the bytes already in the `.part` file.
    /// - Parameters:
    ///   - info: the response's status and headers.
    ///   - offset: the size of the `.part` file when the request was made.
    ///   - sentRange: whether the request asked for a range from `offset`.
    ///   - stored: what earlier responses said about the file (ETag, sha256, size).
    ///   - expectedTotal: the file's size, when known.
    /// - Returns: write the body at an offset (0 starts over), or drop it and why.
    static func decide(
        _ info: HTTPAttempt.ResponseInfo, offset: Int64, sentRange: Bool, stored: PartMetadata, expectedTotal: Int64?
    ) -> HTTPAttempt.Decision {
        // A model is never a web page: that is a login, or the error page of a proxy or mirror.
        if (200..<300).contains(info.status), info.contentType == "text/html" { return .drop(.webPage) }
        if (200..<300).contains(info.status), let expectedTotal, let total = info.total ?? info.linkedSize, total != expectedTotal {
            return .drop(.unexpectedSize(total))
        }
        switch info.status {
        case 206:
            guard sentRange else { return .drop(.wrongOffset(info.contentRangeStart ?? -1)) }
            guard let start = info.contentRangeStart, start == offset else {
                return .drop(.wrongOffset(info.contentRangeStart ?? -1))
            }
            return .write(at: offset)
        case 200:
            // Without a range, or from the start, the whole file is what was asked for.
            guard sentRange, offset > 0 else { return .write(at: 0) }
            // A 200 to a ranged request: the whole file. Either it changed (new ETag or new
            // sha256), and it starts over from zero, or the server ignored Range.
            let etagChanged = stored.etag != nil && info.etag != nil && info.etag != stored.etag
            let linkedChanged = stored.linkedEtag != nil && info.linkedEtag != nil && info.linkedEtag != stored.linkedEtag
            if etagChanged || linkedChanged { return .write(at: 0) }
            return .drop(.rangeIgnored)
        case 416:
            return .drop(.rangeNotSatisfiable)
        default:
            return .drop(.status(info.status))
        }
    }
}
