import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A built command-line tool run as a real process, the way people and scripts run it.
public final class ToolProcess: @unchecked Sendable {
    /// What a finished run gave.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        /// Standard output as raw bytes.
        public let stdoutData: Data
    }

    /// The directory of the build that made the running tests (`swift build --show-bin-path`):
    /// the tools built with them are beside them, whatever the configuration or triple.
    public static let binDirectory: URL = {
        #if os(Linux)
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #else
            // On Apple platforms tests run inside <bin>/<package>PackageTests.xctest/Contents/MacOS.
            Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent()
                ?? TestModels.repositoryRoot.appendingPathComponent(".build/debug")
        #endif
    }()

    /// A tool built beside the tests, e.g. `ilotoki`.
    public static func executable(_ name: String) -> URL {
        binDirectory.appendingPathComponent(name)
    }

    private let process = Process()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let stdinPipe = Pipe()
    private let output = OutputCollector()

    /// Starts `executable` with `arguments`; the environment is exactly `environment` plus PATH and HOME.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String], wrapper: [String] = []) throws {
        var env = environment
        let inherited = ProcessInfo.processInfo.environment
        env["PATH"] = env["PATH"] ?? inherited["PATH"]
        env["HOME"] = env["HOME"] ?? inherited["HOME"]
        if wrapper.isEmpty {
            process.executableURL = executable
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = wrapper + [executable.path] + arguments
        }
        process.environment = env
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        process.standardInput = stdinPipe
        let collector = output
        stdoutPipe.fileHandleForReading.readabilityHandler = { handle in collector.add(handle.availableData, error: false) }
        stderrPipe.fileHandleForReading.readabilityHandler = { handle in collector.add(handle.availableData, error: true) }
        try Self.withEndingSignalsUnblocked { try process.run() }
    }

    /// Runs `body` (a spawn) with SIGTERM, SIGINT and SIGHUP unblocked on this thread. A child
    /// starts with its parent thread's signal mask, and the test runner's threads block those
    /// signals: a child started from one would ignore the SIGTERM that ends it and outlive the
    /// test (a session bus, a notification server).
    private static func withEndingSignalsUnblocked<T>(_ body: () throws -> T) rethrows -> T {
        #if canImport(Glibc)
            var ending = sigset_t()
            sigemptyset(&ending)
            for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&ending, number) }
            var previous = sigset_t()
            pthread_sigmask(SIG_UNBLOCK, &ending, &previous)
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        #endif
        return try body()
    }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// Writes to the process's standard input.
    public func write(_ data: Data) {
        stdinPipe.fileHandleForWriting.write(data)
    }

    /// Closes standard input (end of file).
    public func closeInput() {
        try? stdinPipe.fileHandleForWriting.close()
    }

    /// Standard output so far.
    public var stdoutSoFar: String { output.text(error: false) }

    /// Standard error so far.
    public var stderrSoFar: String { output.text(error: true) }

    /// Waits until standard output so far satisfies `condition` (what a test waits for: a
    /// line, a piece of a translation).
    /// - Throws: `Timeout` naming what it saw, when it did not come within `timeout` or the
    ///   process ended first.
    public func waitForStdout(timeout: Duration = .seconds(60), _ condition: (String) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(stdoutSoFar) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw Timeout(description: "standard output never came to what was awaited; it is \"\(stdoutSoFar.suffix(200))\", "
                    + "standard error \"\(stderrSoFar.suffix(200))\"")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    public struct Timeout: Error, CustomStringConvertible {
        public let description: String
    }

    public func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end (at most `timeout`, then kills it) and returns what it gave.
    public func wait(timeout: Duration = .seconds(120)) async -> Result {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                // SIGKILL: a tool that blocks or ignores SIGTERM must not hang the tests.
                kill(process.processIdentifier, SIGKILL)
                break
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        process.waitUntilExit()
        stdoutPipe.fileHandleForReading.readabilityHandler = nil
        stderrPipe.fileHandleForReading.readabilityHandler = nil
        output.add(stdoutPipe.fileHandleForReading.readDataToEndOfFile(), error: false)
        output.add(stderrPipe.fileHandleForReading.readDataToEndOfFile(), error: true)
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(status: status, stdout: output.text(error: false), stderr: output.text(error: true), stdoutData: output.data(error: false))
    }

    /// Runs a tool to the end with `input` on standard input (at most `timeout`, then kills it).
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], input: Data = Data(), wrapper: [String] = [],
        timeout: Duration = .seconds(120)
    ) async throws -> Result {
        let tool = try ToolProcess(executable, arguments, environment: environment, wrapper: wrapper)
        tool.write(input)
        tool.closeInput()
        return await tool.wait(timeout: timeout)
    }

    private final class OutputCollector: @unchecked Sendable {
        private let lock = NSLock()
        private var stdout = Data()
        private var stderr = Data()

        func add(_ data: Data, error: Bool) {
            lock.lock()
            defer { lock.unlock() }
            if error { stderr.append(data) } else { stdout.append(data) }
        }

        func data(error: Bool) -> Data {
            lock.lock()
            defer { lock.unlock() }
            return error ? stderr : stdout
        }

        func text(error: Bool) -> String { String(decoding: data(error: error), as: UTF8.self) }
    }
}
