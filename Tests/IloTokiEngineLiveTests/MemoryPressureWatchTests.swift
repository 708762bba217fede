import Foundation
import IloTokiEngineLive
import IloTokiLocking
import IloTokiTestSupport
import Testing

/// Linux's pressure figures read as the device's word on its memory: short from 10 % of the
/// last 10 seconds spent waiting for memory, no longer under 1 % over 10 seconds and a minute.
@Suite struct MemoryPressureWatchTests {
    @Test func aPressureFileIsReadAndTheWordHoldsUntilThePressureIsGone() throws {
        let reading = try #require(
            MemoryPressureWatch.parse(
                "some avg10=12.50 avg60=3.10 avg300=0.70 total=123456\nfull avg10=4.00 avg60=1.00 avg300=0.20 total=2345\n"))
        #expect(reading == MemoryPressureWatch.Reading(last10Seconds: 12.5, lastMinute: 3.1))
        #expect(MemoryPressureWatch.parse("full avg10=1.00 avg60=1.00 avg300=1.00 total=1\n") == nil)
        #expect(MemoryPressureWatch.parse("") == nil)

        #expect(MemoryPressureWatch.isShort(reading, wasShort: false))
        #expect(!MemoryPressureWatch.isShort(.init(last10Seconds: 9.9, lastMinute: 9.9), wasShort: false))
        // Once short, a quieter minute is not enough: both figures must be low.
        #expect(MemoryPressureWatch.isShort(.init(last10Seconds: 0.5, lastMinute: 2.0), wasShort: true))
        #expect(!MemoryPressureWatch.isShort(.init(last10Seconds: 0.5, lastMinute: 0.9), wasShort: true))
    }

    @Test func aWatchReportsEachChangeOfItsFile() async throws {
        let home = TemporaryDirectory("pressure")
        let file = home.file("memory.pressure")
        func write(_ last10: Double, _ last60: Double) throws {
            try Data("some avg10=\(last10) avg60=\(last60) avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n".utf8)
                .write(to: file, options: .atomic)
        }
        try write(0, 0)
        let words = Locked<[Bool]>([])
        let watch = try #require(MemoryPressureWatch(file: file, every: .milliseconds(10)) { short in words.withLock { $0.append(short) } })
        defer { watch.stop() }
        try write(25, 5)
        #expect(await eventually { words.value == [true] }, "short: \(words.value)")
        try write(0.2, 0.3)
        #expect(await eventually { words.value == [true, false] }, "relieved: \(words.value)")
        #expect(MemoryPressureWatch(file: home.file("none")) { _ in } == nil, "no file, no watch")
    }
}
