import Foundation

/// A child's log file (its stderr, ``ChildProcess``), read as it grows.
struct LogFile {
    let path: String

    /// Waits until the file holds a line containing `text`; `false` after `timeout` seconds without one.
    func waitForLine(containing text: String, timeout: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let contents = try? String(contentsOfFile: path, encoding: .utf8),
                contents.split(separator: "\n").contains(where: { $0.contains(text) })
            {
                return true
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
