import Foundation

/// The page's node-test fixtures (`web/test/fixtures/`) that the Swift tests write from what the engine and the
/// encoder produce, so that the page is tested against the server's own output, not a hand-copied one: one place
/// for where they lie and for `REFRESHKIT_WRITE_FIXTURES=1`, which writes them anew (RefreshKitTests' and
/// RefreshWireTests' golden tests).
public enum PageFixtures {
    /// `web/test/fixtures/NAME` in this checkout.
    public static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../web/test/fixtures/\(name)").standardizedFileURL
    }

    /// Writes `text` to fixture `name` when `REFRESHKIT_WRITE_FIXTURES` is set; then the committed file's text, for
    /// the test to expect equal to `text` (`nil` when there is none).
    public static func committed(_ text: String, named name: String) throws -> String? {
        let url = url(name)
        if ProcessInfo.processInfo.environment["REFRESHKIT_WRITE_FIXTURES"] != nil {
            try Data(text.utf8).write(to: url)
        }
        return try? String(contentsOf: url, encoding: .utf8)
    }

    /// What a test says when fixture `name` differs: how to write it anew, naming the test's `filter`.
    public static func differs(_ name: String, filter: String) -> String {
        "web/test/fixtures/\(name) differs from what the server computes now; if the change is meant, run "
            + "REFRESHKIT_WRITE_FIXTURES=1 swift test --filter \(filter) and node --test web/test/"
    }
}
