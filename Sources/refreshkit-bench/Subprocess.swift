import Foundation
import Synchronization

/// A child process whose stdout is collected as it arrives (so a chatty child never blocks on a full pipe)
/// and whose stderr goes to a log file.
final class Subprocess: Sendable {
    let name: String
    private let process: Process
    private let output = OutputBuffer()

    init(name: String, executable: String, arguments: [String], workingDirectory: String, log: String) throws {
        self.name = name
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory)
        let pipe = Pipe()
        process.standardOutput = pipe
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        process.standardInput = FileHandle.nullDevice
        self.process = process
        pipe.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                return
            }
            output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var stdout: String { output.text.withLock { $0 } }
    var exitCode: Int32 { process.terminationStatus }

    /// Waits until stdout contains a line matching `pattern` (first capture group returned) or the time is up.
    func waitForLine(matching pattern: String, timeout: Double) -> String? {
        let regex = try? NSRegularExpression(pattern: pattern)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = stdout
            let range = NSRange(text.startIndex..., in: text)
            if let match = regex?.firstMatch(in: text, range: range), match.numberOfRanges > 1,
                let captured = Range(match.range(at: 1), in: text)
            {
                return String(text[captured])
            }
            if !process.isRunning { return nil }
            usleep(20_000)
        }
        return nil
    }

    /// Waits for the process to exit by itself, at most `timeout` s, then kills it.
    @discardableResult
    func wait(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return false
        }
        usleep(50_000)  // let the last stdout bytes arrive
        return true
    }

    /// SIGTERM, then SIGKILL after `grace` seconds.
    func stop(grace: Double = 5) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        wait(timeout: grace)
    }
}

/// What a child wrote on stdout so far (appended from the pipe's reader thread).
final class OutputBuffer: Sendable {
    let text = Mutex("")
}
