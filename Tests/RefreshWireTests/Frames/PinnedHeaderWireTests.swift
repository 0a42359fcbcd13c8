import RefreshKit
import Testing

@testable import RefreshWire

/// A frame's `pinned` header on the wire (docs/PROTOCOL.md, "frame"): written after `feed`, only when there is one;
/// a delta carries it whole when it came, `null` when it went, else the members whose written text changed, and
/// applied it rebuilds the frame.
@Suite struct PinnedHeaderWireTests {
    static func frame(_ pinned: PinnedSection?, seed: UInt64 = 3) -> Frame {
        var g = SeededGenerator(seed: seed)
        var frame = RandomValues.frame(&g)
        frame.pinned = pinned
        return frame
    }

    @Test func aFrameWritesItsPinnedHeaderAfterTheFeed() throws {
        let text = encoded { $0.encode(Self.frame(PinnedSection(section: "Monday \"28\"", y: 44.12345)), into: &$1) }
        #expect(text.contains(#"},"pinned":{"section":"Monday \"28\"","y":44.123}"#), "\(text)")
        let none = encoded { $0.encode(Self.frame(nil), into: &$1) }
        #expect(!none.contains("pinned"))
    }

    @Test(
        arguments: [
            (nil, PinnedSection(section: "Today", y: 0), #","pinned":{"section":"Today","y":0}"#),
            (PinnedSection(section: "Today", y: 0), nil, #","pinned":null"#),
            (PinnedSection(section: "Today", y: 0), PinnedSection(section: "Today", y: -7.5), #","pinned":{"y":-7.5}"#),
            (
                PinnedSection(section: "Today", y: 0), PinnedSection(section: "Yesterday", y: 0),
                #","pinned":{"section":"Yesterday"}"#
            ),
            (PinnedSection(section: "Today", y: 12), PinnedSection(section: "Today", y: 12.0001), ""),
        ] as [(PinnedSection?, PinnedSection?, String)])
    func aDeltaCarriesWhatChanged(before: PinnedSection?, after: PinnedSection?, expected: String) throws {
        let base = Self.frame(before)
        var frame = base
        frame.pinned = after
        frame.sequence += 1
        let text = encoded { $0.encodeDelta(frame, from: base, into: &$1) }
        if expected.isEmpty {
            #expect(!text.contains("pinned"), "\(text)")
        } else {
            #expect(text.contains(expected), "\(text)")
        }
        let baseJSON = try JSONValue.message { $0.encode(base, into: &$1) }
        try expectReconstructs(frame, from: base, baseJSON: baseJSON)
    }

    /// A frame's `Codable` form (snapshots, docs/TRACE.md) has `pinned` only when a header is, and reads back the same;
    /// a header with an empty name is none.
    @Test func aFrameCodesItsHeaderOnlyWhenThereIsOne() throws {
        for pinned in [nil, PinnedSection(section: "Today", y: -3.25)] {
            let frame = Self.frame(pinned)
            let tree = try SnapshotEncoder().encode(frame)
            #expect(try SnapshotDecoder().decode(Frame.self, from: tree) == frame)
            guard case .object(let members) = tree else {
                Issue.record("a frame codes as an object: \(tree)")
                continue
            }
            #expect(members.contains { $0.key == "pinned" } == (pinned != nil))
        }
        #expect(Self.frame(PinnedSection(section: "", y: 10)).pinned == nil)
    }

    /// A frame's digest (docs/TRACE.md, "digest") is what it was for a frame without a header, and tells headers
    /// apart.
    @Test func theDigestSeesTheHeader() {
        func digest(_ frame: Frame) -> FrameDigest {
            var digest = FrameDigest(kind: .values)
            digest.add(frame)
            return digest
        }
        let plain = Self.frame(nil)
        let today = Self.frame(PinnedSection(section: "Today", y: 0))
        let pushed = Self.frame(PinnedSection(section: "Today", y: -3))
        #expect(digest(plain) != digest(today))
        #expect(digest(today) != digest(pushed))
        #expect(digest(today) == digest(Self.frame(PinnedSection(section: "Today", y: 0.0001))))
    }
}
