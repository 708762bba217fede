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

    private let process: Process
    private let stdinPipe: Pipe
    // Standard output and error are each read by a thread of its own (PipeReader), never by a
    // dispatch source.
    private let stdoutReader: PipeReader
    private let stderrReader: PipeReader

    /// Starts `executable` with `arguments`; the environment is exactly `environment` plus PATH and HOME.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String], wrapper: [String] = []) throws {
        var env = environment
        let inherited = ProcessInfo.processInfo.environment
        env["PATH"] = env["PATH"] ?? inherited["PATH"]
        env["HOME"] = env["HOME"] ?? inherited["HOME"]
        let process = Process()
        if wrapper.isEmpty {
            process.executableURL = executable
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = wrapper + [executable.path] + arguments
        }
        process.environment = env
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        let stdinPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        process.standardInput = stdinPipe
        try Self.withEndingSignalsUnblocked { try process.run() }
        // Only once the child runs: `run` has closed our copies of the pipes' write ends, so
        // each read ends when the child (and whatever inherited its descriptors) closes them.
        let name = executable.lastPathComponent
        self.process = process
        self.stdinPipe = stdinPipe
        stdoutReader = PipeReader(stdoutPipe.fileHandleForReading, name: "\(name) stdout")
        stderrReader = PipeReader(stderrPipe.fileHandleForReading, name: "\(name) stderr")
    }

    /// A child still running when its test lets go of it is killed, so that neither it nor the
    /// threads reading its pipes outlive the test.
    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
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

    /// Writes to the process's standard input. A child that has closed its standard input (or
    /// ended) gets nothing more; the test process is not killed by SIGPIPE for it.
    public func write(_ data: Data) {
        Self.writeWithoutSIGPIPE(stdinPipe.fileHandleForWriting.fileDescriptor, data)
    }

    /// Closes standard input (end of file).
    public func closeInput() {
        try? stdinPipe.fileHandleForWriting.close()
    }

    /// Standard output so far.
    public var stdoutSoFar: String { String(decoding: stdoutReader.data, as: UTF8.self) }

    /// Standard error so far.
    public var stderrSoFar: String { String(decoding: stderrReader.data, as: UTF8.self) }

    /// Waits until standard output so far satisfies `condition` (what a test waits for: a
    /// line, a piece of a translation).
    /// - Throws: `Timeout` naming what it saw, when it did not come within `timeout` or the
    ///   process ended first.
    public func waitForStdout(timeout: Duration = .seconds(60), _ condition: (String) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(stdoutSoFar) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw Timeout(
                    description: "standard output never came to what was awaited; it is \"\(stdoutSoFar.suffix(200))\", "
                        + "standard error \"\(stderrSoFar.suffix(200))\"")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until standard error so far satisfies `condition` (a server's "listening on" line).
    /// - Throws: `Timeout` as `waitForStdout` does.
    public func waitForStderr(timeout: Duration = .seconds(60), _ condition: (String) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(stderrSoFar) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw Timeout(description: "standard error never came to what was awaited; it is \"\(stderrSoFar.suffix(400))\"")
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
    /// The default is long (10 min): a process that ends returns at once, and one translating
    /// with Gemma on a loaded machine (the stress script, CI beside other jobs) may take minutes;
    /// only a process that hangs waits it out.
    public func wait(timeout: Duration = .seconds(600)) async -> Result {
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
        // What the child wrote is in the pipes; the reads end once every writer has closed them.
        // A grandchild that inherited a pipe (a daemon the tool started) may hold it open: what
        // came until then is kept, and the reader ends with it.
        for reader in [stdoutReader, stderrReader] { _ = await reader.end(timeout: .seconds(10) * testTimeScale) }
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        let stdout = stdoutReader.data
        return Result(
            status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderrReader.data, as: UTF8.self),
            stdoutData: stdout)
    }

    /// Runs a tool to the end with `input` on standard input (at most `timeout`, then kills it).
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], input: Data = Data(), wrapper: [String] = [],
        timeout: Duration = .seconds(600)
    ) async throws -> Result {
        let tool = try ToolProcess(executable, arguments, environment: environment, wrapper: wrapper)
        tool.write(input)
        tool.closeInput()
        return await tool.wait(timeout: timeout)
    }

    /// Writes all of `data` to `descriptor` (a pipe), stopping quietly when its reader has
    /// gone (EPIPE). SIGPIPE is blocked on this thread meanwhile and a pending one taken back,
    /// so the write reports EPIPE instead of killing the test process; the child's own
    /// disposition of SIGPIPE is left as it was (an ignored signal would be inherited).
    static func writeWithoutSIGPIPE(_ descriptor: Int32, _ data: Data) {
        #if canImport(Glibc)
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            var previous = sigset_t()
            pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
            defer {
                var pending = sigset_t()
                sigpending(&pending)
                if sigismember(&pending, SIGPIPE) == 1, sigismember(&previous, SIGPIPE) == 0 {
                    var immediately = timespec(tv_sec: 0, tv_nsec: 0)
                    _ = sigtimedwait(&pipeSignal, nil, &immediately)
                }
                pthread_sigmask(SIG_SETMASK, &previous, nil)
            }
        #endif
        writeAll(descriptor, data)
    }
}

/// Writes every byte of `data` to `descriptor`, until an error other than EINTR.
private func writeAll(_ descriptor: Int32, _ data: Data) {
    data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            let count = write(descriptor, base + done, buffer.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            done += count
        }
    }
}
