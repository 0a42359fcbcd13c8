import Testing

@testable import RefreshServer

@Suite struct FailedImagesTests {
    let broken = ImageEndpoint.Response(status: 502, contentType: "application/json", body: [], code: "source_failed")

    @Test func aFailureIsAnsweredAgainUntilItExpires() {
        var failed = FailedImages(seconds: 30, maxCount: 10)
        failed.remember(broken, for: "https://a.example/1.png", at: 0)
        #expect(failed.answer(for: "https://a.example/1.png", at: 29_999_999) == broken)
        #expect(failed.answer(for: "https://a.example/1.png", at: 30_000_000) == nil)
        #expect(failed.count == 0)
    }

    @Test func theTableIsBoundedTheSoonestToExpireGoingFirst() {
        var failed = FailedImages(seconds: 30, maxCount: 2)
        failed.remember(broken, for: "a", at: 0)
        failed.remember(broken, for: "b", at: 1)
        failed.remember(broken, for: "c", at: 2)
        #expect(failed.count == 2)
        #expect(failed.answer(for: "a", at: 3) == nil)
        #expect(failed.answer(for: "c", at: 3) == broken)
    }

    @Test func noRetryTimeRemembersNothing() {
        var failed = FailedImages(seconds: 0, maxCount: 10)
        failed.remember(broken, for: "a", at: 0)
        #expect(failed.answer(for: "a", at: 0) == nil)
    }
}
