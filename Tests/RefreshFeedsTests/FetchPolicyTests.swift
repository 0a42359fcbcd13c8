import Foundation
import RefreshAccess
import RefreshKit
import Synchronization
import Testing

@testable import RefreshFeeds

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fetches that stay outside (docs/FEEDS.md, "What is fetched, and what is refused"): which addresses a fetch may
/// connect to, and what the pages are told when one fails. The attack itself, over real sockets against the real
/// server, is e2e/server/test_hostile_fetches.py.
@Suite("Fetches that stay outside")
struct FetchPolicyTests {
    static func ip(_ text: String) -> IPAddress { IPAddress(text)! }

    @Test("only addresses on the internet are fetched; every address inside is refused, with its scope")
    func scopes() {
        let policy = FetchPolicy.outsideOnly
        for outside in ["93.184.215.14", "1.1.1.1", "2606:4700::1111", "2a00:1450:4001::200e"] {
            #expect(policy.decide(Self.ip(outside), port: 80) == .allowed, "\(outside)")
        }
        let inside: [(String, IPAddress.Scope)] = [
            ("127.0.0.1", .loopback), ("127.0.0.2", .loopback), ("::1", .loopback), ("::ffff:127.0.0.2", .loopback),
            ("10.1.2.3", .privateNetwork), ("172.16.0.1", .privateNetwork), ("192.168.1.1", .privateNetwork),
            ("100.64.0.1", .privateNetwork), ("fd00::1", .privateNetwork), ("169.254.169.254", .linkLocal),
            ("fe80::1", .linkLocal), ("224.0.0.1", .multicast), ("ff02::1", .multicast), ("0.0.0.0", .unspecified),
            ("::", .unspecified), ("240.0.0.1", .reserved), ("192.0.2.1", .reserved), ("2001:db8::1", .reserved),
            ("64:ff9b::7f00:1", .loopback), ("2002:0a00:0001::1", .privateNetwork),
        ]
        for (address, scope) in inside {
            #expect(policy.decide(Self.ip(address), port: 80) == .refused(scope), "\(address)")
        }
    }

    @Test("--feed-allow-private reaches every address")
    func allowsPrivate() {
        let policy = FetchPolicy(allowsPrivate: true)
        for address in ["127.0.0.2", "::1", "10.0.0.1", "169.254.169.254", "0.0.0.0", "93.184.215.14"] {
            #expect(policy.decide(Self.ip(address), port: 6379) == .allowed, "\(address)")
        }
    }

    @Test("the operator's feed address as written: that address, on that port, and nothing else inside")
    func feedHostAsAnAddress() {
        let policy = FetchPolicy.outsideOnly.allowing(hostOf: "http://127.0.0.1:8000/feed.json")
        #expect(policy.feedHosts == [FetchPolicy.FeedHost(host: "127.0.0.1", port: 8000)])
        #expect(policy.decide(Self.ip("127.0.0.1"), port: 8000) == .allowed)
        #expect(policy.decide(Self.ip("::ffff:127.0.0.1"), port: 8000) == .allowed, "the same host, mapped")
        #expect(policy.decide(Self.ip("127.0.0.1"), port: 6379) == .refused(.loopback), "another port")
        #expect(policy.decide(Self.ip("127.0.0.2"), port: 8000) == .refused(.loopback), "another address")
        #expect(policy.decide(Self.ip("::1"), port: 8000) == .refused(.loopback))
        #expect(policy.decide(Self.ip("10.0.0.1"), port: 8000) == .refused(.privateNetwork))
        #expect(policy.decide(Self.ip("93.184.215.14"), port: 6379) == .allowed, "the internet stays open")
    }

    @Test("a feed host by name: the addresses it names when a connection is judged, on its port")
    func feedHostByName() {
        let policy = FetchPolicy.outsideOnly.allowing(hostOf: "http://Feeds.LAN:8080/feed.xml")
        let asked = Mutex<[String]>([])
        let resolve: (String) -> [IPAddress] = { host in
            asked.withLock { $0.append(host) }
            return host == "feeds.lan" ? [Self.ip("10.0.0.7"), Self.ip("fd00::7")] : []
        }
        #expect(policy.decide(Self.ip("10.0.0.7"), port: 8080, resolve: resolve) == .allowed)
        #expect(policy.decide(Self.ip("fd00::7"), port: 8080, resolve: resolve) == .allowed)
        #expect(policy.decide(Self.ip("10.0.0.8"), port: 8080, resolve: resolve) == .refused(.privateNetwork))
        #expect(asked.withLock { $0 } == ["feeds.lan", "feeds.lan", "feeds.lan"])
        // the name is not asked for an address on the internet, nor for a connection on another port
        #expect(policy.decide(Self.ip("10.0.0.7"), port: 22, resolve: resolve) == .refused(.privateNetwork))
        #expect(policy.decide(Self.ip("1.1.1.1"), port: 8080, resolve: resolve) == .allowed)
        #expect(asked.withLock { $0.count } == 3)
    }

    @Test(
        "a feed's host and port read from its address",
        arguments: [
            ("http://127.0.0.1:8000/feed.json", "127.0.0.1", 8000),
            ("https://Example.ORG/feed.xml", "example.org", 443),
            ("http://localhost/feed.json", "localhost", 80),
            ("http://[::1]:9/feed.json", "::1", 9),
            ("http://user:pass@10.0.0.1:81/x", "10.0.0.1", 81),
        ])
    func feedHostParsing(url: String, host: String, port: Int) {
        #expect(FetchPolicy.FeedHost(url: url) == FetchPolicy.FeedHost(host: host, port: port))
    }

    @Test("no feed host from what is not an http or https address; each host once")
    func feedHostRefusals() {
        for url in ["ftp://127.0.0.1/feed.json", "file:///etc/passwd", "feed.json", "", "http://"] {
            #expect(FetchPolicy.FeedHost(url: url) == nil, "\(url)")
            #expect(FetchPolicy.outsideOnly.allowing(hostOf: url) == .outsideOnly, "\(url)")
        }
        let twice = FetchPolicy.outsideOnly.allowing(hostOf: "http://a.test/1").allowing(hostOf: "http://A.test/2")
        #expect(twice.feedHosts.count == 1)
        #expect(FetchPolicy.FeedHost(host: "::1", port: 9).description == "[::1]:9")
    }

    @Test("the resolver: an address is itself, localhost is both loopbacks, an unknown name is nothing")
    func resolver() {
        #expect(FetchPolicy.addresses(of: "127.0.0.2") == [Self.ip("127.0.0.2")])
        #expect(FetchPolicy.addresses(of: "::1") == [Self.ip("::1")])
        #expect(FetchPolicy.addresses(of: "localhost") == [Self.ip("127.0.0.1"), Self.ip("::1")], "as libcurl has it")
        #expect(FetchPolicy.addresses(of: "feeds.LOCALHOST") == [Self.ip("127.0.0.1"), Self.ip("::1")])
        #expect(FetchPolicy.addresses(of: "no-such-host.invalid").isEmpty)
    }

    // MARK: - What the pages are told

    static let url = "http://127.0.0.2:6379/feed.json"

    @Test("one reason for whatever kept a document from being fetched")
    func oneReason() {
        let url = Self.url
        let details = [
            "\(url): refused to connect to 127.0.0.2 port 6379 (loopback): …",
            "\(url): Couldn't connect to server", "\(url) answered HTTP 404", "\(url) answered HTTP 500",
            "\(url) answered HTTP 429; asking again in 7 s", "\(url): Server returned nothing (no headers, no data)",
        ]
        let told = Set(details.map { FeedError.unavailable($0).toldToPages(fetching: Self.url) })
        #expect(told == [.unavailable("could not fetch \(Self.url)")])
        #expect(told.first?.description == "The feed is unavailable: could not fetch \(Self.url).")
    }

    @Test("no byte of what was fetched: not the body's start, not an entry's id")
    func noBytesOfTheBody() {
        let malformed = FeedError.malformed("not a feed: the body starts with \"secret internal text\"")
        #expect(
            malformed.toldToPages(fetching: Self.url) == .malformed("\(Self.url) is not a feed this server can read"))
        let entry = FeedError.oversized(what: "text of entry \"secret-id\"", limit: 16_384)
        #expect(entry.toldToPages(fetching: Self.url) == .oversized(what: "text of entry", limit: 16_384))
        let body = FeedError.oversized(what: "body", limit: 8)
        #expect(body.toldToPages(fetching: Self.url) == body)
        #expect(FeedError.timedOut(limitMs: 5000).toldToPages(fetching: Self.url) == .timedOut(limitMs: 5000))
    }

    @Test("a long address is cut")
    func longAddress() {
        let long = "https://feeds.test/" + String(repeating: "a", count: 1000)
        guard case .unavailable(let reason) = FeedError.unavailable("x").toldToPages(fetching: long) else {
            Issue.record("not unavailable")
            return
        }
        #expect(reason.count == "could not fetch ".count + FeedError.maxURLCharacters + 1 && reason.hasSuffix("…"))
    }

    @Test("a web source's loads throw what the pages are told, and report the whole reason; its probe says it all")
    func webSourceReports() {
        let source = WebFeedSource(url: Self.url, limits: FeedLimits()) {
            (address: String, _, _) throws(FeedError) -> HTTPAnswer in
            HTTPAnswer(status: 200, body: Data("secret internal text".utf8))
        }
        let reported = Mutex<[(String, FeedError)]>([])
        source.reportFailures { url, reason in reported.withLock { $0.append((url, reason)) } }
        let whole = FeedError.malformed("not a feed: the body starts with \"secret internal text\"")
        #expect(throws: FeedError.malformed("\(Self.url) is not a feed this server can read")) {
            try source.load(FeedRequest(.newest, limit: 5))
        }
        #expect(reported.withLock { $0.map(\.0) } == [Self.url])
        #expect(reported.withLock { $0.map(\.1) } == [whole])
        #expect(throws: whole) { try source.probe() }
        #expect(source.policy.feedHosts == [FetchPolicy.FeedHost(host: "127.0.0.2", port: 6379)], "its own host")
    }

    // MARK: - The fetcher, on a real socket

    @Test("curl refuses an address inside before connecting, and says which and why")
    func curlRefusesBeforeConnecting() throws {
        let listener = try Listener()
        defer { listener.close() }
        let url = "http://127.0.0.1:\(listener.port)/feed.json"
        #expect {
            _ = try CurlFetcher.exchange(url, timeoutMs: 2000, maxBytes: 1024, policy: .outsideOnly)
        } throws: { error in
            guard case .unavailable(let reason) = error as? FeedError else { return false }
            return reason.hasPrefix("\(url): refused to connect to 127.0.0.1 port \(listener.port) (loopback)")
        }
        // the same address through a redirect or a name is the same address: nothing reached the listener
        #expect(throws: FeedError.self) {
            try CurlFetcher.exchange(
                "http://localhost:\(listener.port)/", timeoutMs: 2000, maxBytes: 1024, policy: .outsideOnly)
        }
        #expect(listener.pendingConnections() == 0)
    }

    /// A TCP listener on 127.0.0.1 that accepts nothing by itself: `pendingConnections` takes what came.
    final class Listener {
        let socket: Int32
        let port: Int

        init() throws {
            #if canImport(Glibc)
                let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            #else
                let fd = Darwin.socket(AF_INET, SOCK_STREAM, 0)
                _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0, listen(fd, 8) == 0 else {
                closeSocket(fd)
                throw POSIXError(.EADDRINUSE)
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            socket = fd
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        /// Accepts (and closes) every connection waiting; how many there were.
        func pendingConnections() -> Int {
            var count = 0
            while true {
                let accepted = accept(socket, nil, nil)
                guard accepted >= 0 else { return count }
                count += 1
                closeSocket(accepted)
            }
        }

        func close() { closeSocket(socket) }
    }
}

private func closeSocket(_ socket: Int32) {
    #if canImport(Glibc)
        _ = Glibc.close(socket)
    #else
        _ = Darwin.close(socket)
    #endif
}
