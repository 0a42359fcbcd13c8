import RefreshAccess
import Testing

@testable import RefreshServer

@Suite struct HTTPEndpointsTests {
    let endpoints = HTTPEndpoints()

    @Test func otherPathsAreLeftToTheStaticFiles() {
        #expect(endpoints.respond(to: .init(path: "/", text: nil)) == nil)
        #expect(endpoints.respond(to: .init(path: "/qr.svg/", text: "x")) == nil)
        #expect(endpoints.respond(to: .init(path: "/index.html", text: "x")) == nil)
    }

    @Test func theQRCodeIsAnSVGOfTheSymbolInItsQuietZone() throws {
        let response = try #require(endpoints.respond(to: .init(path: "/qr.svg", text: "http://10.0.0.2:8080")))
        #expect(response.status == 200 && response.contentType == "image/svg+xml" && response.refusal == nil)
        let code = try #require(QRCode("http://10.0.0.2:8080"))
        let side = code.size + 8
        #expect(response.body.contains(#"viewBox="0 0 \#(side) \#(side)""#))
        #expect(response.body.hasPrefix("<svg ") && response.body.hasSuffix("</svg>\n"))
        #expect(!response.body.contains("10.0.0.2"), "the text is in the modules, never in the markup")
    }

    @Test(arguments: [nil, ""]) func aMissingTextIsABadRequest(text: String?) throws {
        let response = try #require(endpoints.respond(to: .init(path: "/qr.svg", text: text)))
        #expect(response.status == 400 && response.refusal?.contains("needs ?text=") == true)
    }

    @Test func anOverlongTextIsABadRequest() throws {
        let text = String(repeating: "a", count: QRCode.maxTextBytes + 1)
        let response = try #require(endpoints.respond(to: .init(path: "/qr.svg", text: text)))
        #expect(response.status == 400 && response.body.contains("at most \(QRCode.maxTextBytes) bytes"))
    }

    @Test func metricsAreForLoopbackAndTheNamedOnly() throws {
        var endpoints = HTTPEndpoints()
        let page = { "refreshkit_inputs_total 3\n" }
        let local = try #require(
            endpoints.respond(to: .init(path: "/metrics", client: .init(peer: "::1")), metrics: page))
        #expect(local.status == 200 && local.body == page())
        #expect(local.contentType == "text/plain; version=0.0.4; charset=utf-8")
        var asked = false
        let remote = try #require(
            endpoints.respond(to: .init(path: "/metrics", client: .init(peer: "10.0.0.5"))) {
                asked = true
                return page()
            })
        #expect(remote.status == 403 && remote.refusal != nil && !asked, "the page is not even written")
        endpoints.metricsAllow = try AddressAllowList.parse(["10.0.0.0/8"]).get()
        #expect(
            endpoints.respond(to: .init(path: "/metrics", client: .init(peer: "10.0.0.5")), metrics: page)?.status
                == 200)
    }
}
