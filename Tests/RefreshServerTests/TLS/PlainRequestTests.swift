import Testing

@testable import RefreshServer

/// A plain request on the TLS port is sent to the same address over https (docs/HTTPS.md, "Plain http on the TLS
/// port"): the path and query kept, encoded again, and only a plain host and port repeated from the `Host` header.
@Suite struct PlainRequestTests {
    @Test func theSameAddressOverHTTPS() {
        #expect(
            PlainRequest.redirect(path: "/", query: ["s=ab12", "k=ff"], host: "192.168.1.20:8080", fallbackHost: "x")
                == "https://192.168.1.20:8080/?s=ab12&k=ff")
        #expect(
            PlainRequest.redirect(path: "/js/a b.js", query: [], host: "[::1]:9", fallbackHost: "x")
                == "https://[::1]:9/js/a%20b.js")
        #expect(PlainRequest.redirect(path: "", query: ["flag"], host: nil, fallbackHost: "h:1") == "https://h:1/?flag")
    }

    @Test func aHostHeaderThatIsNotAHostIsNotRepeated() {
        for host in [
            "", "evil.example/path", "a b", "x\r\nSet-Cookie: y", "\"<script>", String(repeating: "a", count: 300),
        ] {
            #expect(
                PlainRequest.redirect(path: "/", query: [], host: host, fallbackHost: "localhost:8080")
                    == "https://localhost:8080/", "\(host)")
        }
    }

    @Test func queryValuesAreEncodedAgain() {
        #expect(
            PlainRequest.redirect(path: "/", query: ["text=a&b=c d", "q=é"], host: "h", fallbackHost: "x")
                == "https://h/?text=a%26b%3Dc%20d&q=%C3%A9")
    }
}
