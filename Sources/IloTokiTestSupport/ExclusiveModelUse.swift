import Testing

/// Runs tests that evaluate a model one at a time, across every suite and test target.
///
/// ggml's worker threads spin while they wait for each other, so two models decoding at
/// once on a 2-core machine slow each other down many times over. Tests that only touch
/// files or servers still run in parallel.
public struct ExclusiveModelUse: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope is entered once around all its tests; only lock each test case.
        guard testCase != nil else { return try await function() }
        try await ModelUseLock.shared.run(function)
    }
}

extension Trait where Self == ExclusiveModelUse {
    /// The test loads and runs a model: run it while no other such test runs.
    public static var exclusiveModelUse: Self { ExclusiveModelUse() }
}

/// A FIFO lock for async code.
actor ModelUseLock {
    static let shared = ModelUseLock()

    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func run(_ body: @Sendable () async throws -> Void) async throws {
        await acquire()
        defer { release() }
        try await body()
    }

    private func acquire() async {
        if !held {
            held = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            held = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
