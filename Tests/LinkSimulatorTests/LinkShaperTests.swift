import Foundation
import Testing

@testable import LinkSimulator

@Suite("LinkShaper")
struct LinkShaperTests {
    @Test func aPlainDelayAddsItToEveryChunk() {
        var shaper = LinkShaper(profile: LinkProfile(name: "t", delayMs: 15), seed: 1)
        #expect(shaper.release(arrival: 0, bytes: 100).at == 15)
        #expect(shaper.release(arrival: 40, bytes: 100).at == 55)
        #expect(shaper.release(arrival: 40.5, bytes: 1).at == 55.5)
    }

    @Test func jitterStaysInItsRangeAndNeverReorders() {
        let profile = LinkProfile(name: "t", delayMs: 10, jitterMs: 30)
        var shaper = LinkShaper(profile: profile, seed: 7)
        var previous = -Double.infinity
        var sawHeldBehind = false
        var sawOwnTime = false
        for i in 0..<2000 {
            let arrival = Double(i) * 2
            let release = shaper.release(arrival: arrival, bytes: 50).at
            #expect(release >= previous, "chunk \(i) overtook the one before it")
            #expect(release >= arrival + 10)
            // Its own draw, or held behind the chunk before it, which drew a longer delay (TCP's order).
            #expect(release <= max(previous, arrival + 40))
            if release == previous { sawHeldBehind = true } else { sawOwnTime = true }
            previous = release
        }
        #expect(sawHeldBehind && sawOwnTime)
    }

    @Test func jitterSpreadsOverItsWholeRange() {
        var shaper = LinkShaper(profile: LinkProfile(name: "t", delayMs: 0, jitterMs: 20), seed: 3)
        // Chunks far apart are never held behind each other: each release is its own draw.
        let extras = (0..<1000).map { i in shaper.release(arrival: Double(i) * 1000, bytes: 1).at - Double(i) * 1000 }
        #expect(extras.allSatisfy { (0...20).contains($0) })
        #expect(extras.min()! < 1 && extras.max()! > 19)
        let mean = extras.reduce(0, +) / Double(extras.count)
        #expect(abs(mean - 10) < 1)
    }

    @Test func theSameSeedGivesTheSameLinkAndAnotherSeedAnother() {
        let profile = LinkProfile.congested
        func run(_ seed: UInt64) -> [Double] {
            var shaper = LinkShaper(profile: profile, seed: seed)
            return (0..<500).map { shaper.release(arrival: Double($0) * 16, bytes: 120).at }
        }
        #expect(run(42) == run(42))
        #expect(run(42) != run(43))
        let seeds = LinkShaper.seeds(for: 42, connection: 1)
        #expect(seeds.toUpstream != seeds.toClient)
        #expect(LinkShaper.seeds(for: 42, connection: 1) == seeds)
        #expect(LinkShaper.seeds(for: 42, connection: 2) != seeds)
    }

    @Test func aLossHoldsTheDirectionForAnRTOAndEverythingBehindIt() {
        // Every chunk starts a loss, no burst: each costs exactly one RTO.
        let profile = LinkProfile(name: "t", delayMs: 10, lossProbability: 1, retransmissionTimeoutMs: 220)
        #expect(LinkProfile(name: "t", delayMs: 10).retransmissionTimeoutMs == 220)
        var shaper = LinkShaper(profile: profile, seed: 1)
        let first = shaper.release(arrival: 0, bytes: 10)
        #expect(first.at == 230 && first.lossHoldMs == 220)

        // One loss among clean chunks: the ones right behind it wait for it (head-of-line blocking).
        var mixed = LinkShaper(
            profile: LinkProfile(name: "t", delayMs: 10, lossProbability: 0.05, retransmissionTimeoutMs: 200), seed: 9)
        var releases: [LinkShaper.Release] = []
        for i in 0..<400 { releases.append(mixed.release(arrival: Double(i) * 16, bytes: 100)) }
        guard let lost = releases.firstIndex(where: { $0.lossHoldMs > 0 }) else {
            Issue.record("no loss in 400 chunks at 5%")
            return
        }
        let lostAt = Double(lost) * 16
        #expect(releases[lost].at >= lostAt + 210)
        // The next chunk arrived 16 ms later and would have left at +26 ms: it waits for the lost one.
        #expect(releases[lost + 1].at == releases[lost].at || releases[lost + 1].lossHoldMs > 0)
    }

    @Test func aBurstDoublesTheTimeoutForEachLostRetransmission() {
        // Continuation 0.5: holds are sums rto·(1 + 2 + 4 + …), one term per lost transmission.
        let profile = LinkProfile(
            name: "t", delayMs: 0, lossProbability: 1, lossBurstContinuation: 0.5, retransmissionTimeoutMs: 200)
        var shaper = LinkShaper(profile: profile, seed: 5)
        var lengths: [Int: Int] = [:]
        for i in 0..<2000 {
            let hold = shaper.release(arrival: Double(i) * 100_000, bytes: 1).lossHoldMs
            // hold = 200 · (2^k − 1) for a burst of k
            let k = Int(log2(hold / 200 + 1).rounded())
            #expect(abs(200 * (pow(2, Double(k)) - 1) - hold) < 1e-6)
            lengths[k, default: 0] += 1
        }
        // Geometric with continuation 0.5: about half are single losses, a quarter pairs.
        #expect((850...1150).contains(lengths[1] ?? 0))
        #expect((380...620).contains(lengths[2] ?? 0))
    }

    @Test func aStallHoldsWhatFallsInItUntilItsEndInOrder() {
        let profile = LinkProfile(
            name: "t", delayMs: 5, jitterMs: 3, stalls: StallSchedule(periodMs: 1000, durationMs: 200))
        var shaper = LinkShaper(profile: profile, seed: 2)
        var previous = -Double.infinity
        var heldToEnd = 0
        for i in 0..<300 {
            let arrival = Double(i) * 10  // 0 … 2990 ms: two stall windows, [1000, 1200) and [2000, 2200)
            let release = shaper.release(arrival: arrival, bytes: 80)
            #expect(release.at >= previous)
            #expect(!(1000..<1200).contains(release.at) && !(2000..<2200).contains(release.at))
            if release.stalled { #expect(release.at == 1200 || release.at == 2200) }
            if release.at == 1200 || release.at == 2200 { heldToEnd += 1 }
            previous = release.at
        }
        // About 20 chunks per stall (those due inside the window): all released at its end, in order.
        #expect((38...42).contains(heldToEnd))
    }

    @Test func aLimitedRateSpacesChunksByTheirSize() {
        // 8 000 bit/s: 1 000 bytes take 1 s on the wire.
        var shaper = LinkShaper(profile: LinkProfile(name: "t", delayMs: 10, bitsPerSecond: 8000), seed: 1)
        #expect(shaper.release(arrival: 0, bytes: 1000).at == 1010)
        #expect(shaper.release(arrival: 0, bytes: 500).at == 1510)  // queued behind the first
        #expect(shaper.release(arrival: 5000, bytes: 100).at == 5110)  // the wire was idle again
    }

    @Test func anEndOfStreamTravelsLikeAnEmptyChunk() {
        var shaper = LinkShaper(profile: LinkProfile(name: "t", delayMs: 20), seed: 1)
        _ = shaper.release(arrival: 0, bytes: 10)
        #expect(shaper.release(arrival: 1, bytes: 0).at == 21)
    }
}
