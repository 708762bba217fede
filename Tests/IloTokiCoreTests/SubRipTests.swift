import IloTokiCore
import Testing

@Suite struct SubRipTests {
    static let file =
        "\u{FEFF}1\r\n00:00:01,000 --> 00:00:03,500\r\nHello, my friend!\r\n\r\n2\r\n00:00:04,000 --> 00:00:07,250 X1:10\r\nThe little child plays\r\nin the garden.\r\n\r\n3\r\n00:00:08,000 --> 00:00:09,000\r\nWhere is the water?\r\n"

    @Test func aFileReadsIntoCuesAndIsWrittenBackAsItWas() throws {
        let subtitles = try SubRip(parsing: Self.file)
        try #require(subtitles.cues.count == 3)
        #expect(
            subtitles.cues[1]
                == SubRip.Cue(
                    number: "2", timing: "00:00:04,000 --> 00:00:07,250 X1:10", lines: ["The little child plays", "in the garden."]))
        #expect(subtitles.cues[1].text == "The little child plays in the garden.")
        #expect(subtitles.lineEnding == "\r\n")
        #expect(
            subtitles.rendered() == String(Self.file.dropFirst()) + "\r\n",
            "the same text, less the byte order mark, a blank line after the last cue")
    }

    @Test func cuesWithoutNumbersAndExtraBlankLinesAreRead() throws {
        let subtitles = try SubRip(
            parsing: "\n\n00:00:01,000 --> 00:00:02,000\nmi moku.\n\n\n\n00:00:03,000 --> 00:00:04,000\nsina lape.\n")
        #expect(subtitles.cues.map(\.number) == ["", ""])
        #expect(subtitles.cues.map(\.text) == ["mi moku.", "sina lape."])
        #expect(subtitles.rendered() == "00:00:01,000 --> 00:00:02,000\nmi moku.\n\n00:00:03,000 --> 00:00:04,000\nsina lape.\n\n")
    }

    @Test func aFileThatIsNotSubtitlesIsRefusedByLine() {
        #expect(throws: SubRipError.notSubRip(line: 1)) { try SubRip(parsing: "Dear friend,\nhow are you?\n") }
        #expect(throws: SubRipError.noCues) { try SubRip(parsing: "\n\n") }
    }

    @Test func aTranslationGoesBackOnAsManyLinesAsTheCueHad() {
        #expect(SubRip.lines("jan lili li musi lon ma kasi", count: 2) == ["jan lili li musi", "lon ma kasi"])
        #expect(SubRip.lines("toki!", count: 2) == ["toki!"])
        #expect(SubRip.lines("one two three four five six", count: 3) == ["one two", "three four", "five six"])
        #expect(SubRip.lines("a b", count: 1) == ["a b"])
        #expect(SubRip.lines("", count: 2) == [])
    }
}
