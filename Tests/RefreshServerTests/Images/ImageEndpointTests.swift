import Foundation
import RefreshKit
import Testing

@testable import RefreshServer

@Suite struct ImageKindTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    static let avif: [UInt8] = [0, 0, 0, 24] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1avif".utf8)

    @Test func theMagicBytesNameTheKind() {
        #expect(ImageKind.sniff(Self.png) == .png)
        #expect(ImageKind.sniff([0xFF, 0xD8, 0xFF, 0xE0, 0, 0]) == .jpeg)
        #expect(ImageKind.sniff(Array("GIF89a....".utf8)) == .gif)
        #expect(ImageKind.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(ImageKind.sniff(Self.avif) == .avif)
    }

    @Test func otherBytesAreNoImage() {
        #expect(ImageKind.sniff(Array("<!doctype html>".utf8)) == nil)
        #expect(ImageKind.sniff([]) == nil)
        #expect(ImageKind.sniff(Array(Self.png.prefix(7))) == nil)
        #expect(
            ImageKind.sniff([0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 0, 0] + Array("isommp41".utf8)) == nil)
    }

    @Test func theMediaTypeIsReadWithoutItsParameters() {
        #expect(ImageKind(mediaType: "image/PNG; charset=binary") == .png)
        #expect(ImageKind(mediaType: "image/jpg") == .jpeg)
        #expect(ImageKind(mediaType: "image/svg+xml") == nil)
        #expect(ImageKind(mediaType: "text/html") == nil)
    }
}

@Suite struct ImageCacheTests {
    private func image(_ size: Int, _ fill: UInt8 = 1) -> ImageCache.Image {
        ImageCache.Image(bytes: ImageKindTests.png + [UInt8](repeating: fill, count: size - 12), kind: .png)
    }

    @Test func theLeastRecentlyUsedGoesFirstWhenTheCountIsReached() {
        var cache = ImageCache(maxCount: 2, maxBytes: 1 << 20)
        cache.keep(image(100), at: "a")
        cache.keep(image(100), at: "b")
        #expect(cache.image(at: "a") != nil)  // a is now newer than b
        cache.keep(image(100), at: "c")
        #expect(cache.image(at: "b") == nil)
        #expect(cache.image(at: "a") != nil && cache.image(at: "c") != nil)
        #expect(cache.count == 2 && cache.evictions == 1)
    }

    @Test func theBytesStayWithinTheLimit() {
        var cache = ImageCache(maxCount: 100, maxBytes: 1000)
        for index in 0..<20 { cache.keep(image(300, UInt8(index)), at: "\(index)") }
        #expect(cache.bytes <= 1000 && cache.count == 3)
        cache.keep(image(2000), at: "huge")  // larger than the whole cache: not kept
        #expect(cache.image(at: "huge") == nil && cache.bytes <= 1000)
    }

    @Test func aTagFollowsTheBytes() {
        #expect(image(100, 1).etag == image(100, 1).etag)
        #expect(image(100, 1).etag != image(100, 2).etag)
        #expect(image(100).etag.hasPrefix("\"") && image(100).etag.hasSuffix("-64\""))
    }
}

@Suite struct ImageEndpointTests {
    let limits = ImageLimits()

    private func code(_ response: ImageEndpoint.Response) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: [String: String]]
        return object?["error"]?["code"]
    }

    @Test(arguments: [nil, "", "ftp://a.example/x.png", "file:///etc/passwd", "javascript:alert(1)", "http://"])
    func anAddressThatIsNotHTTPIsA400(url: String?) throws {
        guard case .failure(let refused) = ImageEndpoint.check(url: url, limits: limits) else {
            Issue.record("\(String(describing: url)) was taken")
            return
        }
        #expect(refused.response.status == 400 && code(refused.response) == "bad_url")
    }

    @Test func aLongAddressIsA400AndAnHTTPSOneIsTaken() {
        let long = "https://a.example/" + String(repeating: "x", count: limits.maxURLBytes)
        #expect(throws: ImageEndpoint.RefusedRequest.self) { try ImageEndpoint.check(url: long, limits: limits).get() }
        #expect((try? ImageEndpoint.check(url: "HTTPS://a.example/x.png?s=1", limits: limits).get()) != nil)
    }

    @Test func anImageIsServedByItsBytesWithCachingHeaders() throws {
        let fetched = ImageEndpoint.Fetched(bytes: ImageKindTests.png, contentType: "image/png")
        let image = try ImageEndpoint.image(from: fetched, limits: limits).get()
        let response = ImageEndpoint.response(for: image, ifNoneMatch: nil)
        #expect(response.status == 200 && response.contentType == "image/png" && response.body == ImageKindTests.png)
        #expect(response.cacheControl == "public, max-age=86400" && response.etag == image.etag)
        let again = ImageEndpoint.response(for: image, ifNoneMatch: "\"other\", \(image.etag)")
        #expect(again.status == 304 && again.body.isEmpty)
    }

    @Test func theTypeMustBeAnImageTypeAndTheBytesAnImage() {
        let html = Array("<!doctype html>".utf8)
        let cases: [(ImageEndpoint.Fetched, String)] = [
            (.init(bytes: ImageKindTests.png, contentType: "text/html"), "Content-Type text/html"),
            (.init(bytes: ImageKindTests.png, contentType: nil), "Content-Type (none)"),
            (.init(bytes: html, contentType: "image/png"), "the bytes are not"),
        ]
        for (fetched, words) in cases {
            guard case .failure(let failure) = ImageEndpoint.image(from: fetched, limits: limits) else {
                Issue.record("taken: \(fetched)")
                continue
            }
            let response = ImageEndpoint.response(for: failure)
            #expect(response.status == 502 && code(response) == "not_an_image")
            #expect(response.refusal?.contains(words) == true, "\(response.refusal ?? "")")
        }
    }

    @Test func failuresAre502Or504() {
        #expect(ImageEndpoint.response(for: .sourceFailed("x answered HTTP 500")).status == 502)
        #expect(ImageEndpoint.response(for: .tooLarge(limit: 4)).status == 502)
        #expect(code(ImageEndpoint.response(for: .tooLarge(limit: 4))) == "too_large")
        #expect(ImageEndpoint.response(for: .timedOut(milliseconds: 5000)).status == 504)
        var small = limits
        small.maxImageBytes = 8
        let big = ImageEndpoint.Fetched(bytes: ImageKindTests.png, contentType: "image/png")
        #expect(throws: ImageEndpoint.FetchFailure.tooLarge(limit: 8)) {
            try ImageEndpoint.image(from: big, limits: small).get()
        }
    }

    @Test func theKnownAddressesAreBounded() {
        var known = KnownImageURLs(limit: 10)
        for index in 0..<25 { known.learn("https://a.example/\(index).png") }
        #expect(known.count <= 10)
        #expect(known.contains("https://a.example/24.png") && !known.contains("https://a.example/0.png"))
        known.learn([FeedItem(id: "1", text: "t", timeMicros: 0, image: FeedImage(url: "https://b.example/i.png"))])
        #expect(known.contains("https://b.example/i.png"))
    }
}
