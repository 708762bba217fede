import Foundation
import Testing

@testable import IloTokiCore
@testable import IloTokiDownloadLive

/// The resume decision, case by case: what each response means for the bytes a download
/// already has.
@Suite struct ResumeDecisionTests {
    typealias Info = HTTPAttempt.ResponseInfo

    static func info(
        _ status: Int, start: Int64? = nil, total: Int64? = nil, etag: String? = nil, linked: String? = nil, type: String? = nil
    ) -> Info {
        var info = Info(status: status)
        info.contentRangeStart = start
        info.total = total
        info.etag = etag
        info.linkedEtag = linked
        info.contentType = type
        return info
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let info: Info
        let offset: Int64
        let sentRange: Bool
        let stored: PartMetadata
        let expectedTotal: Int64?
        let decision: HTTPAttempt.Decision
        var testDescription: String { name }
    }

    static let known = PartMetadata(etag: "\"a\"", linkedEtag: "sha-a", total: 100)

    static let cases: [Case] = [
        Case(
            name: "206 at the offset asked for appends", info: info(206, start: 40, total: 100), offset: 40, sentRange: true,
            stored: known, expectedTotal: 100, decision: .write(at: 40)),
        Case(
            name: "206 elsewhere is never appended", info: info(206, start: 30, total: 100), offset: 40, sentRange: true,
            stored: known, expectedTotal: 100, decision: .drop(.wrongOffset(30))),
        Case(
            name: "206 without a Content-Range is never appended", info: info(206), offset: 40, sentRange: true,
            stored: known, expectedTotal: 100, decision: .drop(.wrongOffset(-1))),
        Case(
            name: "206 to a request without a range is refused", info: info(206, start: 0, total: 100), offset: 0, sentRange: false,
            stored: PartMetadata(), expectedTotal: 100, decision: .drop(.wrongOffset(0))),
        Case(
            name: "200 from the start writes the whole file", info: info(200, total: 100), offset: 0, sentRange: true,
            stored: PartMetadata(), expectedTotal: 100, decision: .write(at: 0)),
        Case(
            name: "200 without a range writes from zero", info: info(200, total: 100), offset: 40, sentRange: false,
            stored: known, expectedTotal: 100, decision: .write(at: 0)),
        Case(
            name: "200 to a range with the same ETag: the server ignored Range", info: info(200, total: 100, etag: "\"a\""),
            offset: 40, sentRange: true, stored: known, expectedTotal: 100, decision: .drop(.rangeIgnored)),
        Case(
            name: "200 to a range with a new ETag: the file changed, start over", info: info(200, total: 100, etag: "\"b\""),
            offset: 40, sentRange: true, stored: known, expectedTotal: 100, decision: .write(at: 0)),
        Case(
            name: "200 with a new sha256 on the redirect: start over", info: info(200, total: 100, linked: "sha-b"),
            offset: 40, sentRange: true, stored: known, expectedTotal: 100, decision: .write(at: 0)),
        Case(
            name: "200 to a range with nothing known: the server ignored Range", info: info(200, total: 100), offset: 40,
            sentRange: true, stored: PartMetadata(), expectedTotal: 100, decision: .drop(.rangeIgnored)),
        Case(
            name: "a file of another size than the catalog's", info: info(200, total: 90), offset: 0, sentRange: true,
            stored: PartMetadata(), expectedTotal: 100, decision: .drop(.unexpectedSize(90))),
        Case(
            name: "an unknown size takes what comes", info: info(200, total: 90), offset: 0, sentRange: true,
            stored: PartMetadata(), expectedTotal: nil, decision: .write(at: 0)),
        Case(
            name: "a web page is never a model", info: info(200, total: 100, type: "text/html"), offset: 0, sentRange: true,
            stored: PartMetadata(), expectedTotal: 100, decision: .drop(.webPage)),
        Case(
            name: "416: nothing after the offset", info: info(416), offset: 100, sentRange: true, stored: known,
            expectedTotal: 100, decision: .drop(.rangeNotSatisfiable)),
        Case(
            name: "404 is a status to report", info: info(404), offset: 0, sentRange: true, stored: PartMetadata(),
            expectedTotal: 100, decision: .drop(.status(404))),
        Case(
            name: "503 is a status to report", info: info(503), offset: 40, sentRange: true, stored: known,
            expectedTotal: 100, decision: .drop(.status(503))),
    ]

    @Test(arguments: cases)
    func eachResponseIsDecidedAlone(_ row: Case) {
        #expect(
            ResumeDecision.decide(
                row.info, offset: row.offset, sentRange: row.sentRange, stored: row.stored, expectedTotal: row.expectedTotal)
                == row.decision)
    }
}
