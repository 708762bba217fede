import Foundation
import IloTokiLocking
import Testing

@Suite struct LockedTests {
    @Test func concurrentChangesAreNeverLost() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.value == 80_000)
    }

    @Test func exchangeReturnsWhatItReplaced() {
        let flag = Locked(false)
        #expect(flag.exchange(true) == false)
        #expect(flag.exchange(true) == true)
        flag.store(false)
        #expect(flag.value == false)
    }
}
