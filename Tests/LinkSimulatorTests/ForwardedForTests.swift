import Testing

@testable import LinkSimulator

@Suite struct ForwardedForTests {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func theClientIsNamedAndItsOwnClaimsAreDropped() {
        var rewriter = ForwardedFor(client: "192.168.1.40")
        let head = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 127.0.0.1\r\nforwarded: for=127.0.0.1\r\n\r\n"
        #expect(
            text(rewriter.pass(Array(head.utf8)))
                == "GET /metrics HTTP/1.1\r\nX-Forwarded-For: 192.168.1.40\r\nHost: x\r\n\r\n")
    }

    @Test func aHeadInPiecesIsHeldUntilWhole() {
        var rewriter = ForwardedFor(client: "10.0.0.9")
        #expect(rewriter.pass(Array("GET / HTTP/1.1\r\nHo".utf8)).isEmpty)
        #expect(text(rewriter.pass(Array("st: x\r\n\r".utf8))) == "")
        #expect(
            text(rewriter.pass(Array("\n".utf8))) == "GET / HTTP/1.1\r\nX-Forwarded-For: 10.0.0.9\r\nHost: x\r\n\r\n")
    }

    @Test func aBodyPassesAndTheNextRequestIsNamedToo() {
        var rewriter = ForwardedFor(client: "10.0.0.9")
        let two = "POST /feed/items HTTP/1.1\r\nContent-Length: 5\r\n\r\nX-For" + "GET / HTTP/1.1\r\n\r\n"
        #expect(
            text(rewriter.pass(Array(two.utf8)))
                == "POST /feed/items HTTP/1.1\r\nX-Forwarded-For: 10.0.0.9\r\nContent-Length: 5\r\n\r\nX-For"
                + "GET / HTTP/1.1\r\nX-Forwarded-For: 10.0.0.9\r\n\r\n")
    }

    @Test func afterAnUpgradeEverythingPassesAsItIs() {
        var rewriter = ForwardedFor(client: "10.0.0.9")
        let upgrade = "GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        let frame: [UInt8] = [0x81, 0x85, 1, 2, 3, 4, 13, 10, 13, 10, 0]
        let out = rewriter.pass(Array(upgrade.utf8) + frame)
        #expect(Array(out.suffix(frame.count)) == frame)
        #expect(rewriter.pass(Array("GET / HTTP/1.1\r\n\r\n".utf8)) == Array("GET / HTTP/1.1\r\n\r\n".utf8))
    }

    @Test func bytesThatAreNoRequestPassAtOnce() {
        var rewriter = ForwardedFor(client: "10.0.0.9")
        #expect(rewriter.pass(Array("hello".utf8)) == Array("hello".utf8))
        #expect(rewriter.pass(Array("GET / HTTP/1.1\r\n\r\n".utf8)) == Array("GET / HTTP/1.1\r\n\r\n".utf8))
        var waiting = ForwardedFor(client: "10.0.0.9")
        #expect(waiting.pass(Array("GE".utf8)).isEmpty)
    }

    @Test func aHeadCutByTheEndOfTheStreamIsPassedOn() {
        var rewriter = ForwardedFor(client: "10.0.0.9")
        #expect(rewriter.pass(Array("GET / HT".utf8)).isEmpty)
        #expect(text(rewriter.finish()) == "GET / HT")
    }

    @Test func anOversizedHeadIsPassedOnUntouched() {
        var rewriter = ForwardedFor(client: "10.0.0.9")
        let huge = Array(repeating: UInt8(ascii: "a"), count: ForwardedFor.maxHeadBytes + 1)
        #expect(rewriter.pass(huge) == huge)
    }
}
