import RefreshKit
import Testing

@testable import RefreshSessions

/// What the server's image endpoint asks the host (docs/FEEDS.md, "Images"): whether an address is the image of an
/// item a session holds (its fallback when the feed's answers did not show it the address: a session rebuilt by a
/// take-over).
@Suite struct SessionHostImagesTests {
    @Test func anImageIsHeldOnceASessionLoadedItsItem() throws {
        let transport = TestTransport {
            $0.feedSource = "sqlite:test.db"
            $0.feedKind = .sqlite
        }
        var feed = SessionHostFeedTests.ScriptedFeed(count: 3)
        feed.items[1].image = FeedImage(url: "https://a.example/2.png")
        let url = "https://a.example/2.png"
        #expect(!transport.host.holdsFeedImage(url), "no session yet")
        let page = transport.open()
        transport.send(TestTransport.hello(), on: page)
        try #require(transport.welcome(page) != nil)
        #expect(!transport.host.holdsFeedImage(url), "the first page not loaded yet")
        try #require(transport.answerFeed(feed.page) != nil)
        #expect(transport.host.holdsFeedImage(url))
        #expect(!transport.host.holdsFeedImage("https://a.example/other.png"))
    }
}
