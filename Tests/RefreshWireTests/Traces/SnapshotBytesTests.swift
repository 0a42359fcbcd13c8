import RefreshKit
import RefreshSessions
import Testing

@testable import RefreshWire

/// A session's snapshot is coded as it was before the model kept parts of itself apart (a scroll's wheel, command and
/// timed-move members, the configuration its preset shares, the layout's ids in the items: docs/PERFORMANCE.md,
/// "Memory per connected session"): a snapshot one process stored is one another takes over (docs/SCALING.md). The
/// bytes of snapshots taken while each of those parts is held are pinned by a digest of them.
@Suite struct SnapshotBytesTests {
    /// FNV-1a, 64 bits, of `snapshot`'s coded tree, in hexadecimal: the tree the snapshot's bytes hold (after their
    /// magic and version), with a dictionary by edge (the configuration's edges: an array of each edge and its value)
    /// in the edges' order, which a dictionary is not coded in (its order changes from process to process).
    static func digest(_ snapshot: SessionSnapshot) throws -> String {
        let edges = Edge.allCases.map { SnapshotValue.string($0.rawValue) }
        func canonical(_ value: SnapshotValue) -> SnapshotValue {
            switch value {
            case .array(let elements):
                let pairs = stride(from: 0, to: elements.count - 1, by: 2).map { (elements[$0], elements[$0 + 1]) }
                guard !elements.isEmpty, elements.count % 2 == 0, pairs.allSatisfy({ edges.contains($0.0) }) else {
                    return .array(elements.map(canonical))
                }
                let sorted = pairs.sorted { edges.firstIndex(of: $0.0)! < edges.firstIndex(of: $1.0)! }
                return .array(sorted.flatMap { [$0.0, canonical($0.1)] })
            case .object(let members):
                return .object(members.map { SnapshotValue.Member(key: $0.key, value: canonical($0.value)) })
            default: return value
            }
        }
        var bytes: [UInt8] = []
        canonical(try SnapshotEncoder().encode(snapshot)).write(into: &bytes)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// A momentum stream of `count` wheel events 16 ms apart from `dy`, each 0.85 of the one before.
    static func momentum(_ driver: inout SessionDriver, dy first: Double, count: Int, t: inout Double) throws {
        var dy = first
        for _ in 0..<count {
            driver.wait(milliseconds: 16)
            t += 16
            try driver.receive(#"{"type":"wheel","dx":0,"dy":\#(dy),"mode":0,"t":\#(t)}"#)
            dy *= 0.85
        }
    }

    /// A finger's pull of `dy` in 12 moves, 16 ms apart, lifted unless `hold`.
    static func drag(_ driver: inout SessionDriver, dy: Double, t: inout Double, hold: Bool = false) throws {
        try driver.receive(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":\#(t),"id":1}"#)
        for _ in 0..<12 {
            driver.wait(milliseconds: 16)
            t += 16
            try driver.receive(#"{"type":"touch","phase":"move","dx":0,"dy":\#(dy / 12),"t":\#(t),"id":1}"#)
        }
        guard !hold else { return }
        driver.wait(milliseconds: 16)
        t += 16
        try driver.receive(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":\#(t),"id":1}"#)
    }

    /// The held rows measured at heights that vary (ids from the model's items).
    static func measure(_ driver: inout SessionDriver, seq: Int) throws {
        let rows = driver.traced.model.pager.items.enumerated().map { #"["\#($1.id)",\#(40 + ($0 * 37) % 90)]"# }
        try driver.receive(#"{"type":"measure","seq":\#(seq),"width":390,"rows":[\#(rows.joined(separator: ","))]}"#)
    }

    /// Which of the scroll model's wheel, command and timed-move members `model` holds, by their coded keys.
    static func held(_ model: ListModel) throws -> [String] {
        guard case .object(let members) = try SnapshotEncoder().encode(model.scroll) else { return [] }
        let keys = ["wheel", "swallowedWheel", "commandTarget", "horizontalTiming", "verticalTiming"]
        return members.map(\.key).filter(keys.contains)
    }

    /// Each state's name, what it holds and its snapshot's digest.
    static func snapshots() throws -> [String] {
        var found: [String] = []
        func take(_ name: String, _ driver: SessionDriver) throws {
            let model = driver.traced.model
            let layout = model.rowLayout
            let rows = "\(layout.placeholdersAbove)+\(layout.heldRowCount)+\(layout.placeholdersBelow)"
            let measured = model.pager.measuredHeights.count
            found.append(
                "\(name) \(try held(model)) \(rows) \(measured) \(try digest(driver.traced.snapshot()))")
        }
        var t = 1000.0
        var wheel = try SessionDriver(seed: 3, start: 6_000_000_000)
        try wheel.receive(#"{"type":"wheel","dx":0,"dy":30,"mode":0,"t":\#(t)}"#)
        try take("wheel", wheel)
        try wheel.receive(#"{"type":"command","name":"scrollBy","amount":300,"animated":false}"#)
        try Self.momentum(&wheel, dy: -60, count: 30, t: &t)
        try take("swallowed", wheel)
        var command = try SessionDriver(seed: 4, start: 6_000_000_000)
        try command.receive(#"{"type":"command","name":"scrollBy","amount":400}"#)
        command.wait(milliseconds: 100)
        try take("command", command)
        for preset in ["jh", "ht", "ms"] {
            var timed = try SessionDriver(preset: preset, seed: 5, start: 6_000_000_000)
            t = 1000
            try Self.drag(&timed, dy: 320, t: &t)
            timed.wait(milliseconds: 60)
            try take("\(preset) start", timed)
            timed.wait(milliseconds: 2500)
            try take("\(preset) end", timed)
        }
        var rows = try SessionDriver(seed: 6, start: 6_000_000_000)
        t = 1000
        for round in 0..<12 {
            try Self.measure(&rows, seq: round + 1)
            try Self.drag(&rows, dy: -900, t: &t)
            rows.wait(milliseconds: 1500)
        }
        try take("rows", rows)
        try rows.receive(#"{"type":"configure","insets":{"top":44,"bottom":34}}"#)
        try take("configured", rows)
        return found
    }

    /// The digests at fe52311, before any of those parts was kept apart.
    @Test func snapshotsAreCodedAsTheyWere() throws {
        #expect(
            try Self.snapshots() == [
                #"wheel ["wheel"] 0+20+0 0 7c540b2aedde774f"#,
                #"swallowed ["swallowedWheel"] 0+20+0 0 ca24250e393cfbbf"#,
                #"command ["commandTarget"] 0+20+0 0 1447c7204eae9ae5"#,
                #"jh start ["verticalTiming"] 0+20+0 0 d8fe6fed7eeeb466"#,
                #"jh end [] 0+23+0 0 8f993a01eea4c601"#,
                #"ht start ["verticalTiming"] 0+20+0 0 4f300408af3093df"#,
                #"ht end [] 0+23+0 0 79f6264ed2a51839"#,
                #"ms start [] 0+20+0 0 a6c82da9cfdfe36c"#,
                #"ms end [] 0+23+0 0 9d79fedfe892ce7f"#,
                #"rows [] 160+40+0 40 7c2c4dc1b620ca69"#,
                #"configured ["commandTarget"] 160+40+0 40 d630c7c8664456f3"#,
            ])
    }
}
