import Foundation
import RefreshFeeds
import RefreshKit
import Testing

@testable import RefreshServer

@Suite struct FeedPostEndpointTests {
    private func decode(_ text: String) -> FeedPostEndpoint.Decoded {
        FeedPostEndpoint.decode(Array(text.utf8))
    }

    private func refusal(_ text: String) -> (Int32, String)? {
        guard case .refused(let response) = decode(text) else { return nil }
        let object = try? JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: [String: String]]
        return (response.status, object?["error"]?["code"] ?? "?")
    }

    @Test func aPostHasTextAndAnOptionalAuthorTitleLinkAndSection() {
        #expect(decode(#"{"text":"Hi","section":"Today"}"#) == .post(.init(text: "Hi", section: "Today")))
        #expect(decode(#"{"text":"Hi","author":"Ann"}"#) == .post(.init(text: "Hi", author: "Ann")))
        #expect(decode(#"{"text":"Hi"}"#) == .post(.init(text: "Hi", author: nil)))
        #expect(decode(#"{"text":"Hi","author":null}"#) == .post(.init(text: "Hi", author: nil)))
        #expect(
            decode(#"{"text":"Hi","title":"Hello","url":"https://example.test/hi"}"#)
                == .post(.init(text: "Hi", title: "Hello", url: "https://example.test/hi")))
    }

    @Test(arguments: [
        ("nope", "bad_json"), ("[1]", "bad_json"), (#"{"text":1}"#, "bad_field"), (#"{"text":" \n"}"#, "bad_field"),
        (#"{"text":"a","colour":"b"}"#, "bad_field"), (#"{"text":"a","author":3}"#, "bad_field"),
        (#"{"text":"a","url":[]}"#, "bad_field"), (#"{"text":"a","url":"javascript:alert(1)"}"#, "bad_field"),
        (#"{"text":"a","url":"data:text/html,x"}"#, "bad_field"), (#"{"text":"a","url":"http:///x"}"#, "bad_field"),
        (#"{"text":"a","url":"//evil.example/"}"#, "bad_field"), (#"{"text":"a","url":"https://a b"}"#, "bad_field"),
        (#"{"text":"a","section":{}}"#, "bad_field"),
    ])
    func aBadBodyIsA400(body: String, code: String) throws {
        let (status, found) = try #require(refusal(body))
        #expect(status == 400 && found == code)
    }

    @Test func aBodyOverTheLimitIsA413() throws {
        let body = #"{"text":""# + String(repeating: "x", count: FeedPostEndpoint.maxBodyBytes) + #""}"#
        let (status, code) = try #require(refusal(body))
        #expect(status == 413 && code == "too_large")
    }

    @Test func theItemIsAnsweredInTheWiresShape() {
        let item = FeedItem(id: "42", text: "Hello", author: "Ann", timeMicros: 1_732_480_000_123_500)
        let response = FeedPostEndpoint.response(for: .success(item))
        #expect(response.status == 201 && response.contentType == "application/json")
        #expect(response.body == #"{"id":"42","text":"Hello","author":"Ann","time":1732480000123.5}"#)
    }

    @Test func theSourcesRefusalsMapToStatuses() {
        #expect(FeedPostEndpoint.response(for: .failure(.readOnly(path: "f.db"))).status == 409)
        #expect(FeedPostEndpoint.response(for: .failure(.locked(path: "f.db"))).status == 503)
        #expect(FeedPostEndpoint.response(for: .failure(.oversized(what: "text", limit: 9))).status == 413)
        #expect(FeedPostEndpoint.response(for: .failure(.rejected("the text is empty"))).status == 400)
    }
}
