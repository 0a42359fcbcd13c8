import Testing

@testable import LinkSimulator

@Suite("LinkProfile and LinkAddress")
struct LinkProfileTests {
    @Test func everyNamedProfileIsValidAndFoundByName() {
        for profile in LinkProfile.all {
            #expect(profile.problem == nil, "\(profile.name): \(profile.problem ?? "")")
            #expect(LinkProfile.named(profile.name) == profile)
        }
        #expect(LinkProfile.named("wifi")?.delayMs == 15)
        #expect(LinkProfile.named("wifi-powersave")?.stalls == StallSchedule(periodMs: 2000, durationMs: 204.8))
        #expect(LinkProfile.named("dial-up") == nil)
    }

    @Test func theSummarySaysWhatTheLinkDoes() {
        #expect(LinkProfile.wifi.summary == "15 ms + 0–5 ms one way")
        #expect(LinkProfile.wifiPowersave.summary == "5 ms + 0–2 ms one way, stall 204.8 ms every 2000 ms")
        #expect(
            LinkProfile.congested.summary
                == "40 ms + 0–20 ms one way, loss 1% in bursts of 1.43 (RTO 280 ms), 2000 kbit/s")
    }

    @Test func nonsenseIsNamed() {
        var profile = LinkProfile.wifi
        profile.delayMs = -1
        #expect(profile.problem != nil)
        profile = .wifi
        profile.lossProbability = 2
        #expect(profile.problem != nil)
        profile = .wifi
        profile.stalls = StallSchedule(periodMs: 100, durationMs: 100)
        #expect(profile.problem == "a stall must be shorter than its period")
    }

    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080), ("localhost:0", "localhost", 0), ("[::1]:9000", "::1", 9000),
        ("0.0.0.0:65535", "0.0.0.0", 65535),
    ])
    func addressesParse(text: String, host: String, port: Int) {
        #expect(LinkAddress(text) == LinkAddress(host: host, port: port))
    }

    @Test(arguments: ["8080", ":8080", "host:", "host:65536", "::1:80", "[::1]80", "host:-1", "host:8o"])
    func badAddressesDoNot(text: String) {
        #expect(LinkAddress(text) == nil)
    }
}
