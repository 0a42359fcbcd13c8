import Foundation
import PageFixtures
import RefreshKit
import Testing

/// A fixture of the page's node tests (`web/test/fixtures/NAME`) that the engine writes: the page's ports of
/// an engine law (web/js) are checked against it, so the numbers they must give come from the engine and not
/// from a hand-copied table. A test builds the file's text from what the engine computes and calls
/// ``check(_:named:)``, which fails when the committed file differs; `REFRESHKIT_WRITE_FIXTURES=1` rewrites it
/// (as `web/test/fixtures/segments.json` is written, Tests/RefreshWireTests/TimedSegmentFixtureTests.swift).
enum PageFixture {
    /// Writes `text` when REFRESHKIT_WRITE_FIXTURES is set, then expects the committed file to be `text`
    /// (``PageFixtures``).
    static func check(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(
            try PageFixtures.committed(text, named: name) == text,
            "\(PageFixtures.differs(name, filter: "thePageFixture"))", sourceLocation: sourceLocation)
    }

    /// A double as JSON: Swift's shortest digits that read back as the same double (as JSON.parse reads
    /// them); JSON has no infinities or NaN, so those are the strings "Infinity", "-Infinity" and "NaN"
    /// (web/test/fixtures.js reads them back).
    static func number(_ value: Double) -> String {
        if value.isNaN { return "\"NaN\"" }
        if value.isInfinite { return value < 0 ? "\"-Infinity\"" : "\"Infinity\"" }
        return "\(value)"
    }

    /// `[n,n,…]`.
    static func numbers(_ values: [Double]) -> String {
        "[" + values.map(number).joined(separator: ",") + "]"
    }

    /// `[x,y,w,h]`.
    static func rect(_ rect: Rect) -> String {
        numbers([rect.origin.x, rect.origin.y, rect.size.width, rect.size.height])
    }

    /// `{"key":[…],…}` with one row per line, the keys in the order given.
    static func object(_ members: [(key: String, rows: [String])]) -> String {
        let body = members.map { member in
            "\"\(member.key)\":[\n" + member.rows.joined(separator: ",\n") + "\n]"
        }
        return "{" + body.joined(separator: ",\n") + "}\n"
    }
}
