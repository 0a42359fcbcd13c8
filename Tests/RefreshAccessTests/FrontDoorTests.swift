import Testing

@testable import RefreshAccess

@Suite struct FrontDoorTests {
    let door = FrontDoor(
        origins: OriginPolicy(ownHosts: ["localhost", "127.0.0.1", "192.168.1.23"], port: 8080, allowedOrigins: []),
        proxies: try! TrustedProxies.parse(["127.0.0.1"]).get())

    func write(_ type: String?, origin: String? = nil, site: String? = nil) -> CrossSiteWrites.Request {
        CrossSiteWrites.Request(contentType: type, origin: origin, fetchSite: site)
    }

    @Test func aJSONWriteFromThisMachineOrItsOwnPageIsTaken() {
        let local = ClientAddress(peer: "127.0.0.1")
        #expect(door.admitsWrite(write("application/json"), from: local) == .accept)
        #expect(door.admitsWrite(write("Application/JSON; charset=utf-8"), from: local) == .accept)
        #expect(
            door.admitsWrite(
                write("application/json", origin: "http://localhost:8080", site: "same-origin"), from: local)
                == .accept)
    }

    @Test func crossSiteWritesAreRefused() {
        let local = ClientAddress(peer: "127.0.0.1")
        for request in [
            write("application/json", origin: "http://evil.example"),
            write("application/json", origin: "null"),
            write("application/json", site: "cross-site"),
            write("application/json", origin: "http://localhost:8080", site: "cross-site"),
        ] {
            guard case .refuse(403, "cross_site", _) = door.admitsWrite(request, from: local) else {
                Issue.record("taken: \(request)")
                continue
            }
        }
    }

    @Test func formsAndPlainTextAreRefused() {
        let local = ClientAddress(peer: "127.0.0.1")
        for type in [nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
            guard case .refuse(415, "unsupported_media_type", _) = door.admitsWrite(write(type), from: local) else {
                Issue.record("taken: \(type ?? "nil")")
                continue
            }
        }
    }

    @Test func aClientBehindTheLocalProxyIsNotLocal() {
        let neighbour = door.client(peer: "127.0.0.1", forwardingHeader: "192.168.1.40")
        guard case .refuse(403, "forbidden", let message) = door.admitsWrite(write("application/json"), from: neighbour)
        else {
            Issue.record("a LAN client through the proxy may write")
            return
        }
        #expect(message.contains("192.168.1.40 via 127.0.0.1"))
        #expect(!door.admitsMetrics(from: neighbour))
        #expect(!door.admitsMetrics(from: door.client(peer: "127.0.0.1", forwardingHeader: nil)))
        #expect(door.admitsMetrics(from: door.client(peer: "127.0.0.1", forwardingHeader: "127.0.0.1")))
    }

    @Test func websocketsFromOtherSitesAreRefused() {
        #expect(door.admitsWebSocket(origin: "http://192.168.1.23:8080") == .accept)
        #expect(door.admitsWebSocket(origin: nil) == .accept)
        #expect(door.admitsWebSocket(origin: "http://evil.example") != .accept)
    }
}
