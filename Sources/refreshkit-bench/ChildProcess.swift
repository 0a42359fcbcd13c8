import Foundation
import Subprocess
import Synchronization

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// A child of the bench (a server, a link, the load generator, a Python driver, callgrind), run by
/// swift-subprocess: its stdout is collected as it arrives (so a chatty child never blocks on a full pipe), its
/// stderr goes to a log file, and stopping it is swift-subprocess's teardown (SIGTERM, then SIGKILL after a grace).
///
/// Why a small adapter and not `run(…)` at each use: swift-subprocess ties a running child to the body closure
/// of `run`, and the child's `Execution` must not leave that closure; the bench, though, starts a server, waits
/// for its ready line, runs a load generator against it, reads the server's `/proc` figures by pid, and only then
/// stops it, each from a different place. So each child's `run` lives in a task of its own: the body copies the
/// pid and what stdout says into shared state, which the bench's waits read, and cancelling the task is the
/// stop (swift-subprocess then runs the teardown sequence and reaps the child). swift-subprocess has no wait
/// with a time limit or for a line, so those two poll that state every 10 ms. A child counts as ended once it
/// has exited and its stdout is closed (`run` returns then): a grandchild that kept the pipe open would hold
/// `wait` to its time limit.
final class ChildProcess: Sendable {
    let name: String
    /// The file its stderr goes to.
    let log: String
    private let shared = Shared()
    private let task: Task<Void, Never>

    /// What the child's task has seen, shared with the bench's waits.
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private struct State {
        var pid: Int32?
        var stdout: [UInt8] = []
        /// How it ended: swift-subprocess's status, or why it could not run.
        var end: Result<TerminationStatus, any Error>?
    }

    /// Starts `executable` and returns once it runs (or throws why it could not start).
    /// - Parameters:
    ///   - log: the file its stderr goes to (made anew).
    ///   - grace: seconds between SIGTERM and SIGKILL when it is stopped.
    init(
        name: String, executable: String, arguments: [String], workingDirectory: String, log: String,
        grace: Double = 5
    ) async throws {
        self.name = name
        self.log = log
        let errorLog = try FileDescriptor.open(
            FilePath(log), .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite, .groupRead])
        var platform = PlatformOptions()
        platform.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: .milliseconds(Int(grace * 1000)))]
        let shared = self.shared
        task = Task {
            do {
                let result = try await run(
                    .path(FilePath(executable)), arguments: Arguments(arguments),
                    workingDirectory: FilePath(workingDirectory), platformOptions: platform,
                    input: .none, output: .sequence,
                    error: .fileDescriptor(errorLog, closeAfterSpawningProcess: true)
                ) { execution in
                    shared.state.withLock { $0.pid = execution.processIdentifier.value }
                    for try await buffer in execution.standardOutput {
                        buffer.withUnsafeBytes { bytes in shared.state.withLock { $0.stdout.append(contentsOf: bytes) }
                        }
                    }
                }
                shared.state.withLock { $0.end = .success(result.terminationStatus) }
            } catch {
                shared.state.withLock { $0.end = .failure(error) }
            }
        }
        _ = await until(timeout: 30) { $0.pid != nil || $0.end != nil ? true : nil }
        if case .failure(let error) = shared.state.withLock({ $0.pid == nil ? $0.end : nil }) {
            throw BenchError("could not start \(name) (\(executable)): \(error)")
        }
    }

    /// The child's process id (0 if it never started).
    var pid: Int32 { shared.state.withLock { $0.pid ?? 0 } }
    var isRunning: Bool { shared.state.withLock { $0.pid != nil && $0.end == nil } }
    /// What it wrote on stdout so far.
    var stdout: String { shared.state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    /// Whether it exited by itself with status 0.
    var succeeded: Bool { shared.state.withLock { (try? $0.end?.get())?.isSuccess ?? false } }
    /// How it ended, for messages: "exited(1)", "signaled(9)", "running", or the error that stopped it.
    var status: String {
        shared.state.withLock { state in
            switch state.end {
            case .none: "running"
            case .success(let status): status.description
            case .failure(let error): "\(error)"
            }
        }
    }

    /// Waits until stdout matches `pattern` and returns the match's first capture group; nil when the child
    /// ends or `timeout` seconds pass first.
    func waitForLine(matching pattern: String, timeout: Double) async -> String? {
        enum Seen {
            case captured(String)
            case ended
        }
        guard let regex = try? Regex(pattern) else { return nil }
        let seen = await until(timeout: timeout) { state -> Seen? in
            let text = String(decoding: state.stdout, as: UTF8.self)
            if let match = try? regex.firstMatch(in: text), match.count > 1, let captured = match[1].substring {
                return .captured(String(captured))
            }
            return state.end == nil ? nil : .ended
        }
        guard case .captured(let text) = seen else { return nil }
        return text
    }

    /// Waits for the child to end by itself, at most `timeout` seconds; then stops it and returns false.
    @discardableResult
    func wait(timeout: Double) async -> Bool {
        if await until(timeout: timeout, { $0.end != nil ? true : nil }) != nil { return true }
        await stop()
        return false
    }

    /// Waits until a line of its stderr (its ``log``) contains `text`; false when the child ends without one, or
    /// `timeout` seconds pass first.
    func waitForLogLine(containing text: String, timeout: Double) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while true {
            // Whether it had ended is read before the file, so that a line written just before the end is seen.
            let ended = shared.state.withLock { $0.end != nil }
            if let contents = try? String(contentsOfFile: log, encoding: .utf8),
                contents.split(separator: "\n").contains(where: { $0.contains(text) })
            {
                return true
            }
            if ended || ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Stops the child (the teardown: SIGTERM, then SIGKILL after the grace) and waits until it is reaped.
    func stop() async {
        task.cancel()
        await task.value
    }

    /// Polls the state every 10 ms until `condition` gives a value, or `timeout` seconds pass (nil).
    private func until<T>(timeout: Double, _ condition: (State) -> T?) async -> T? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while true {
            if let value = shared.state.withLock({ condition($0) }) { return value }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
