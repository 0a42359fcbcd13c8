import Foundation
import Testing

@testable import RefreshKit

/// The drag's velocity estimators keep their samples in an inline ring and share the interval check of
/// their two axes; these tests hold them to the plain definitions.
@Suite struct FingerVelocityTests {
    /// A deterministic stream of page times: mostly 8–17 ms apart, sometimes coalesced (0–1 ms), late
    /// (60 ms), repeated or going back.
    struct Stream {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func gap() -> Double {
            switch next() {
            case ..<0.7: 8 + next() * 9
            case ..<0.8: next()
            case ..<0.85: 0
            case ..<0.9: -next() * 5
            default: 60
            }
        }
    }

    @Test func theRingKeepsTheLastTwentySamplesInOrder() {
        var stream = Stream(state: 3)
        var tracker = VelocityTracker()
        var reference: [VelocityTracker.Sample] = []
        var time = 0.0
        for _ in 0..<500 {
            time += stream.gap()
            let position = stream.next() * 100
            tracker.add(position: position, time: time)
            if let last = reference.last, time <= last.time {
                if time == last.time { reference[reference.count - 1].position = position }
            } else {
                reference.append(.init(time: time, position: position))
                if reference.count > VelocityTracker.historySize { reference.removeFirst() }
            }
            #expect(tracker.samples == reference)
        }
        // Equal samples are equal trackers, wherever they sit in the ring.
        var rebuilt = VelocityTracker()
        for sample in reference { rebuilt.add(position: sample.position, time: sample.time) }
        #expect(rebuilt == tracker)
        #expect(rebuilt.hashValue == tracker.hashValue)
        rebuilt.add(position: 0, time: time + 1)
        #expect(rebuilt != tracker)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func aDragGivesWhatTwoTrackersGive(seed: UInt64) {
        var stream = Stream(state: seed)
        var finger = FingerVelocity()
        var horizontal = VelocityTracker()
        var vertical = VelocityTracker()
        var translation = Point.zero
        var time = 1000.0
        finger.begin(at: time)
        horizontal.add(position: 0, time: time)
        vertical.add(position: 0, time: time)
        for step in 0..<3000 {
            time += stream.gap()
            translation.x += (stream.next() - 0.5) * 20
            translation.y += (stream.next() - 0.5) * 40
            // Late in one run, a non-finite position that one axis drops and the other keeps.
            var sample = translation
            if seed == 4 && step == 2000 { sample.x = .infinity }
            finger.add(sample, at: time)
            horizontal.add(position: sample.x, time: time)
            vertical.add(position: sample.y, time: time)
            let lift = time + (stream.next() < 0.1 ? 50 : 0)
            let velocity = finger.releaseVelocity(pageTime: lift, lastPageTime: time)
            #expect((-velocity.x).bitPattern == horizontal.velocity(atLift: lift).bitPattern)
            #expect((-velocity.y).bitPattern == vertical.velocity(atLift: lift).bitPattern)
        }
    }

    /// A drag's estimators decoded mid-drag (a session snapshot) go on as the originals: the newest samples they
    /// keep together are not coded, and are taken from the trackers again.
    @Test func aDecodedDragGoesOnAsTheOriginal() throws {
        var stream = Stream(state: 7)
        var live = FingerVelocity()
        var time = 1000.0
        live.begin(at: time)
        var restored = live
        var translation = Point.zero
        for step in 0..<400 {
            if step % 37 == 0 {
                let coded = try JSONEncoder().encode(restored)
                let object = try #require(JSONSerialization.jsonObject(with: coded) as? [String: Any])
                #expect(object.keys.sorted() == ["horizontal", "sameTimes", "vertical"])
                restored = try JSONDecoder().decode(FingerVelocity.self, from: coded)
                #expect(restored == live)
            }
            time += stream.gap()
            translation.x += (stream.next() - 0.5) * 20
            translation.y += (stream.next() - 0.5) * 40
            live.add(translation, at: time)
            restored.add(translation, at: time)
            let expected = live.releaseVelocity(pageTime: time, lastPageTime: time)
            let velocity = restored.releaseVelocity(pageTime: time, lastPageTime: time)
            #expect(velocity.x.bitPattern == expected.x.bitPattern && velocity.y.bitPattern == expected.y.bitPattern)
        }
    }
}
