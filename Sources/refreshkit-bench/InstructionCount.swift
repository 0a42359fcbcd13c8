import Foundation

/// The engine step's cost in instructions, counted by callgrind (valgrind), when valgrind is installed.
///
/// Steps per second depend on how busy the host is (on this 2-vCPU VM the same binary has measured 1.3–2.4 M
/// from one run to the next); the instruction count of the same binary is the same on any host. The step
/// loop (`--profile-engine`) runs twice under callgrind, 20 000 and 40 000 steps, and the difference of the
/// totals ÷ 20 000 leaves start-up and set-up out.
enum InstructionCount {
    static let shortRun = 20_000
    static let longRun = 40_000

    /// Instructions per step, or nil when valgrind is not on `PATH`.
    static func perStep(bench: String, logDirectory: String) async throws -> Double? {
        guard let valgrind = executable(named: "valgrind") else { return nil }
        let short = try await total(valgrind, bench, steps: shortRun, logDirectory)
        let long = try await total(valgrind, bench, steps: longRun, logDirectory)
        return Double(long - short) / Double(longRun - shortRun)
    }

    /// The instructions callgrind counted in one run of `steps` steps.
    private static func total(_ valgrind: String, _ bench: String, steps: Int, _ logDirectory: String) async throws
        -> Int
    {
        let profile = "\(logDirectory)/callgrind.\(steps).out"
        let run = try await ChildProcess(
            name: "callgrind", executable: valgrind,
            arguments: [
                "--tool=callgrind", "--callgrind-out-file=\(profile)", bench, "--profile-engine", String(steps),
            ],
            workingDirectory: logDirectory, log: profile + ".log")
        guard await run.wait(timeout: 600), run.succeeded else {
            throw BenchError("callgrind of \(steps) engine steps failed (see \(profile).log)")
        }
        // The profile's header has `summary: <instructions>` (the only event counted by default, Ir).
        let text = try String(contentsOfFile: profile, encoding: .utf8)
        for line in text.split(separator: "\n", maxSplits: 64) where line.hasPrefix("summary:") {
            if let count = Int(line.dropFirst("summary:".count).trimmingCharacters(in: .whitespaces)) { return count }
        }
        throw BenchError("no 'summary:' line in \(profile)")
    }

    private static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
