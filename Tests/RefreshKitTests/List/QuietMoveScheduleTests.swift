import Testing

@testable import RefreshKit

/// `apply(_ touch:at:)` says when a touch left the model's schedule as it was, so that a host may keep the schedule
/// it read before; what it says must always be true.
@Suite struct QuietMoveScheduleTests {
    /// Drags of every preset, over the content and past both ends, with feed requests in flight (a slow feed that
    /// fails now and then) and pauses between them: after every touch that says so, the schedule is the one before.
    @Test(arguments: Preset.names)
    func aTouchThatSaysSoLeavesTheScheduleAsItWas(preset: String) throws {
        var model = try ListModel(
            viewport: Size(width: 390, height: 844), preset: preset, seed: 3, time: Timestamp(microseconds: 1_000_000))
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.failureRate] = 0.3
        feed[\.latencyMs] = 250
        var time: Int64 = 1_000_000
        try model.apply(.configure(ConfigurationPatch(feed: feed)), at: Timestamp(microseconds: time))
        var random = SplitMix(seed: 11)
        var (unchanged, moves) = (0, 0)
        for drag in 0..<60 {
            // Down and up in turn, some far enough to pull past an end.
            let direction: Double = drag % 2 == 0 ? 1 : -1
            let steps = 4 + Int(random.next() % 30)
            for step in 0...steps + 1 {
                time += 8_000 + Int64(random.next() % 12_000)
                let phase: TouchPhase = step == 0 ? .start : step <= steps ? .move : .end
                let dy = phase == .move ? direction * Double(random.next() % 90) : 0
                let touch = TouchInput(phase: phase, delta: Point(x: 0, y: dy), pageTime: Double(time) / 1000)
                let before = model.schedule()
                let kept = try model.apply(touch, at: Timestamp(microseconds: time))
                let after = model.schedule()
                if phase == .move { moves += 1 }
                if kept {
                    unchanged += 1
                    #expect(after.isActive == before.isActive, "\(preset): drag \(drag), step \(step)")
                    #expect(after.nextDeadline == before.nextDeadline, "\(preset): drag \(drag), step \(step)")
                }
            }
            // A failed control makes every observation look again (it may retry with the same pull): the reader
            // taps Retry, as a person would, so that the drags are not all made beside a failed footer.
            if model.controls.contains(where: { $0.state == .failed }) {
                try model.apply(.command(Command(.retry)), at: Timestamp(microseconds: time))
            }
            // A pause, ticked as a host ticks while something is due.
            let pause = time + 50_000 + Int64(random.next() % 900_000)
            while time < pause {
                time = min(pause, (model.schedule().nextDeadline?.microseconds).map { min($0, time + 16_667) } ?? pause)
                model.advance(to: Timestamp(microseconds: time))
            }
        }
        // The case is the usual one, not a rarity: most moves of a drag only move the content.
        #expect(unchanged > moves / 2, "\(preset): \(unchanged) of \(moves) moves kept the schedule")
    }
}

/// A small deterministic generator for the test's drags (SplitMix64).
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
