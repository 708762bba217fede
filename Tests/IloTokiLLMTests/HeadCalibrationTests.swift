import Testing

@testable import IloTokiLLM

/// The choice of the output head by measurement (`HeadCalibration`), case by case, and the
/// CPU's name it is kept under.
@Suite struct HeadCalibrationTests {
    typealias Sample = HeadCalibration.Sample

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let trimmed: Sample
        let full: Sample
        let choice: OutputHead?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "nothing measured yet", trimmed: Sample(), full: Sample(), choice: nil),
        Case(name: "one head measured only", trimmed: Sample(runs: 4, tokens: 200, milliseconds: 4000), full: Sample(), choice: nil),
        Case(
            name: "too few runs of one head", trimmed: Sample(runs: 2, tokens: 100, milliseconds: 2000),
            full: Sample(runs: 3, tokens: 100, milliseconds: 3000), choice: nil),
        Case(
            name: "too few tokens of one head", trimmed: Sample(runs: 3, tokens: 20, milliseconds: 400),
            full: Sample(runs: 3, tokens: 100, milliseconds: 3000), choice: nil),
        Case(
            name: "the trimmed head clearly faster (a VNNI Xeon)", trimmed: Sample(runs: 3, tokens: 64, milliseconds: 64 * 15),
            full: Sample(runs: 3, tokens: 64, milliseconds: 64 * 20), choice: .trimmed),
        Case(
            name: "the trimmed head slower (an AVX2 EPYC with AVX-512 off)", trimmed: Sample(runs: 3, tokens: 64, milliseconds: 64 * 34.2),
            full: Sample(runs: 3, tokens: 64, milliseconds: 64 * 33.0), choice: .full),
        Case(
            name: "the trimmed head faster by less than the margin", trimmed: Sample(runs: 3, tokens: 64, milliseconds: 64 * 19.8),
            full: Sample(runs: 3, tokens: 64, milliseconds: 64 * 20), choice: .full),
        Case(
            name: "the trimmed head faster by exactly the margin", trimmed: Sample(runs: 3, tokens: 100, milliseconds: 100 * 19.4),
            full: Sample(runs: 3, tokens: 100, milliseconds: 100 * 20), choice: .trimmed),
        // Short answers into Toki Pona, as measured on an AVX2 EPYC under load (14 and 22 ms a
        // token), one trimmed translation slowed to 66 by the machine: all tokens together
        // would give 31 ms and keep the full head; the median gives the trimmed head its 14.
        Case(
            name: "one slowed translation does not decide",
            trimmed: Sample(runs: 3, tokens: 24, milliseconds: 8 * 14 + 8 * 14 + 8 * 66, rates: [14, 14, 66]),
            full: Sample(runs: 3, tokens: 24, milliseconds: 24 * 22, rates: [22, 22, 22]), choice: .trimmed),
        Case(
            name: "a tie keeps the full head", trimmed: Sample(runs: 3, tokens: 96, milliseconds: 1920),
            full: Sample(runs: 3, tokens: 96, milliseconds: 1920), choice: .full),
    ]

    @Test(arguments: cases) func theDecisionFollowsTheFigures(_ c: Case) {
        #expect(HeadCalibration.decide(trimmed: c.trimmed, full: c.full) == c.choice)
    }

    /// Where the model does not stay in memory (its checks stream), the trimmed head is chosen
    /// without measuring: llama.cpp's head would read the whole file every token. Where it
    /// cannot be trimmed, llama.cpp's head; otherwise the heads are measured.
    @Test func shortOfMemoryTheTrimmedHeadIsChosenWithoutMeasuring() {
        var info = ModelInfo(
            architecture: "gemma3", description: "gemma3 270M", contextLength: 512, trainedContextLength: 32768, vocabularySize: 262_144,
            threads: 2, modelBytes: 253_113_024, parameters: 268_098_176)
        info.trimmedHead = true
        #expect(HeadCalibration.start(asked: nil, info: info).isFresh)
        info.trimmedHeadCheckStreams = "a memory limit of 300 MiB for a file of 241 MiB (O_DIRECT)"
        let short = HeadCalibration.start(asked: nil, info: info)
        #expect(short.choice == .trimmed && short.next == .trimmed)
        #expect(HeadCalibration.start(asked: .full, info: info).choice == .full)
        info.trimmedHead = false
        #expect(HeadCalibration.start(asked: nil, info: info).choice == .full)
    }

    @Test func measuringAlternatesTheHeadsThenKeepsTheChoice() {
        var calibration = HeadCalibration()
        var used: [OutputHead] = []
        for _ in 0..<8 {
            let head = calibration.next
            used.append(head)
            // The full head decodes 30 ms a token, the trimmed one 20: the trimmed head wins.
            calibration.record(head, tokens: 8, milliseconds: head == .trimmed ? 8 * 20 : 8 * 30)
        }
        #expect(used == [.trimmed, .full, .trimmed, .full, .trimmed, .full, .trimmed, .trimmed])
        #expect(calibration.choice == .trimmed)
        #expect(calibration.reason.contains("1.500×") && calibration.reason.contains("so it is used"), "\(calibration.reason)")
        // Once chosen, nothing more is recorded.
        calibration.record(.full, tokens: 1000, milliseconds: 1)
        #expect(calibration.full.tokens == 24)
    }

    @Test func shortOrStoppedGenerationsDoNotCount() {
        var calibration = HeadCalibration()
        calibration.record(.trimmed, tokens: 2, milliseconds: 40)
        calibration.record(.trimmed, tokens: 30, milliseconds: 0)
        #expect(calibration.trimmed == Sample())
        #expect(calibration.next == .trimmed)
    }

    @Test func aFixedChoiceIsNeverMeasured() {
        var calibration = HeadCalibration.fixed(.full, because: "the model's head cannot be trimmed")
        calibration.record(.trimmed, tokens: 100, milliseconds: 100)
        #expect(calibration.next == .full && calibration.trimmed == Sample())
    }

    @Test func theCPUIsNamedAsTheSystemNamesIt() {
        #expect(CPUName.name(inCPUInfo: "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t: avx2\n") == "AMD EPYC 7B13")
        #expect(CPUName.name(inCPUInfo: "processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd05\n") == "arm 0x41/0xd05")
        #expect(CPUName.name(inCPUInfo: "Hardware\t: Qualcomm Technologies, Inc SM8550\n") == "Qualcomm Technologies, Inc SM8550")
        #expect(CPUName.name(inCPUInfo: "") == "unknown")
        #expect(!CPUName.current.isEmpty)
    }
}
