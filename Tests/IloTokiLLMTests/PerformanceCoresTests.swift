import Foundation
import IloTokiLLM
import IloTokiTestSupport
import Testing

/// `PerformanceCores.count` over fake sysfs trees.
@Suite struct PerformanceCoresTests {
    /// Writes a fake `devices/system/cpu` tree: one entry per CPU with its maximum frequency
    /// (kHz; `nil` leaves cpufreq out) and, optionally, its SMT sibling list.
    func sysfs(_ frequencies: [Int?], siblings: [String]? = nil, online: String? = nil) -> TemporaryDirectory {
        let root = TemporaryDirectory("sysfs")
        let cpu = root.url.appendingPathComponent("devices/system/cpu")
        let manager = FileManager.default
        try? manager.createDirectory(at: cpu, withIntermediateDirectories: true)
        try? (online ?? "0-\(frequencies.count - 1)\n").write(to: cpu.appendingPathComponent("online"), atomically: true, encoding: .utf8)
        for (index, frequency) in frequencies.enumerated() {
            let dir = cpu.appendingPathComponent("cpu\(index)")
            if let frequency {
                try? manager.createDirectory(at: dir.appendingPathComponent("cpufreq"), withIntermediateDirectories: true)
                try? "\(frequency)\n".write(to: dir.appendingPathComponent("cpufreq/cpuinfo_max_freq"), atomically: true, encoding: .utf8)
            }
            try? manager.createDirectory(at: dir.appendingPathComponent("topology"), withIntermediateDirectories: true)
            let sibling = siblings?[index] ?? "\(index)"
            try? "\(sibling)\n".write(to: dir.appendingPathComponent("topology/thread_siblings_list"), atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test func pixel6LeavesOutTheFourLittleCores() {
        // 4 × Cortex-A55 1.8 GHz, 2 × A76 2.25 GHz, 2 × X1 2.8 GHz.
        let tree = sysfs([1_803_000, 1_803_000, 1_803_000, 1_803_000, 2_253_000, 2_253_000, 2_802_000, 2_802_000])
        #expect(PerformanceCores.count(sysfsRoot: tree.path, allowedCPUs: 64) == 4)
    }

    @Test func equalCoresAreAllUsed() {
        let tree = sysfs(Array(repeating: 2_000_000, count: 6))
        #expect(PerformanceCores.count(sysfsRoot: tree.path, allowedCPUs: 64) == 6)
    }

    @Test func withoutCpufreqEveryOnlineCoreIsUsed() {
        let tree = sysfs([nil, nil, nil])
        #expect(PerformanceCores.count(sysfsRoot: tree.path, allowedCPUs: 64) == 3)
    }

    @Test func onlyOnlineCoresCount() {
        let tree = sysfs([nil, nil, nil, nil], online: "0-1\n")
        #expect(PerformanceCores.count(sysfsRoot: tree.path, allowedCPUs: 64) == 2)
    }

    @Test func moreThanEightCoresGiveEight() {
        let tree = sysfs(Array(repeating: 3_000_000, count: 16))
        #expect(PerformanceCores.count(sysfsRoot: tree.path, allowedCPUs: 64) == 8)
    }

    @Test func favouredCoresWithinTenPercentAreOneGroup() {
        // x86 "favoured cores" boost a few per cent higher than their siblings.
        let tree = sysfs([4_200_000, 4_400_000, 4_200_000, 4_500_000])
        #expect(PerformanceCores.count(sysfsRoot: tree.path, allowedCPUs: 64) == 4)
    }

    @Test func smtSiblingsCountOnce() {
        let tree = sysfs(Array(repeating: 3_000_000, count: 8), siblings: ["0,4", "1,5", "2,6", "3,7", "0,4", "1,5", "2,6", "3,7"])
        #expect(PerformanceCores.count(sysfsRoot: tree.path, allowedCPUs: 64) == 4)
    }

    @Test func neverMoreThanTheAffinityMaskAllows() {
        let tree = sysfs(Array(repeating: 3_000_000, count: 8))
        #expect(PerformanceCores.count(sysfsRoot: tree.path, allowedCPUs: 3) == 3)
    }

    @Test func aMissingTreeStillGivesAtLeastOne() {
        #expect(PerformanceCores.count(sysfsRoot: "/nonexistent-sysfs", allowedCPUs: 1) == 1)
    }

    @Test func theRealMachineGivesACountWithinItsCPUs() {
        let count = PerformanceCores.count
        #expect(count >= 1)
        #expect(count <= min(8, ProcessInfo.processInfo.activeProcessorCount))
    }
}
