import Testing

@testable import RefreshSessions

/// A page's input that queued up (a busy server, a network that delivers in bursts) is read in one burst and
/// judged by the rate limit as it is read: the moves past the bucket are dropped, but the release that ends
/// them is applied (``RateLimiter/passRelease(at:)``), else the session stayed dragging until the next touch.
@Suite("A release the rate limit refuses")
struct RateLimitedReleaseTests {
    /// A page whose drag of `moves` moves and release (`seq` 99) arrive in one read, at one time.
    private func queuedDrag(
        moves: Int, phase: String = "end", release: ((TestTransport) -> String)? = nil
    ) throws -> (TestTransport, Connection) {
        let transport = TestTransport { $0.messagesPerSecond = 10 }  // bursts of 20
        let page = transport.open()
        transport.send(TestTransport.hello(), on: page)
        try #require(transport.welcome(page) != nil)
        transport.receive(transport.touch("start", dy: 0, seq: 1), on: page)
        for _ in 0..<moves { transport.receive(transport.touch("move", dy: -5), on: page) }
        transport.receive(release?(transport) ?? transport.touch(phase, dy: 0, seq: 99), on: page)
        transport.endOfRead()
        transport.flush()
        return (transport, page)
    }

    @Test(arguments: ["end", "cancel"])
    func theReleaseOfABurstBeyondTheBucketIsApplied(phase: String) throws {
        let (transport, page) = try queuedDrag(moves: 40, phase: phase)
        #expect(transport.errors(page) == ["rate_limited"])
        #expect(page.session?.acknowledged(member: page.member) == 99, "the release was applied")
        #expect(page.rateLimiter.refused == 22, "the moves past the bucket (hello and start took two), not the release")
    }

    @Test func moreReleasesInTheSameSecondAreRefused() throws {
        let (transport, page) = try queuedDrag(moves: 40)
        for seq in 100..<105 { transport.receive(transport.touch("end", dy: 0, seq: UInt64(seq)), on: page) }
        #expect(page.session?.acknowledged(member: page.member) == 99, "a flood of releases costs one a second")
        #expect(page.rateLimiter.refused == 27)
    }

    /// The release in another spelling than the page's (its keys in another order): the general decoder finds it.
    private func otherSpelling(_ transport: TestTransport, padding: Int = 0) -> String {
        let space = String(repeating: " ", count: padding)
        return
            #"{"seq":99,"id":0,"t":\#(Double(transport.now) / 1000),"dy":0,"dx":0,"phase":"end",\#(space)"type":"touch"}"#
    }

    @Test func aReleaseInAnotherSpellingIsApplied() throws {
        let (transport, page) = try queuedDrag(moves: 40, release: { otherSpelling($0) })
        #expect(transport.errors(page) == ["rate_limited"])
        #expect(page.session?.acknowledged(member: page.member) == 99)
    }

    /// A refused message longer than any touch (``SessionHost/longestRelease``) is not decoded: a flood of long
    /// messages costs no decoding.
    @Test func aRefusedMessageLongerThanAnyTouchIsNotReadForARelease() throws {
        let (transport, page) = try queuedDrag(
            moves: 40, release: { otherSpelling($0, padding: SessionHost.longestRelease) })
        #expect(transport.errors(page) == ["rate_limited"])
        #expect(page.session?.acknowledged(member: page.member) == 1, "still the drag's start")
        #expect(page.rateLimiter.refused == 23)
    }
}
