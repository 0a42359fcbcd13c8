import RefreshWire
import Testing

@testable import RefreshSessions

/// The server's session rules, event by event, through a real ``SessionHost`` and no socket
/// (``TestTransport`` carries out its actions). Each test breaks if its rule is broken.
@Suite struct SessionHostTests {
    /// A page that said hello and took its welcome and first frame.
    private func joined(_ transport: TestTransport, _ hello: String = TestTransport.hello()) throws -> Connection {
        let connection = transport.open()
        transport.send(hello, on: connection)
        try #require(transport.welcome(connection) != nil, "welcomed: \(transport.messages(connection))")
        return connection
    }

    private func session(_ transport: TestTransport, _ connection: Connection) throws -> (id: String, token: String) {
        let welcome = try #require(transport.welcome(connection))
        return (try #require(welcome["session"] as? String), try #require(welcome["token"] as? String))
    }

    // MARK: - Admission

    @Test func aHelloWithoutASessionStartsOneAndIsWelcomedWithAWholeFrame() throws {
        let transport = TestTransport()
        let page = try joined(transport)
        let welcome = try #require(transport.welcome(page))
        #expect(welcome["member"] as? Int == 0 && welcome["resumed"] == nil)
        #expect(transport.host.sessions.count == 1)
        #expect(transport.frames(page).first?["type"] as? String == "frame")
        #expect(transport.messages(page, type: "room").last?["members"] as? Int == 1)
    }

    @Test func anInputBeforeHelloIsRefusedAndTheConnectionGoesOn() throws {
        let transport = TestTransport()
        let page = transport.open()
        transport.send(transport.touch("start", dy: 0, seq: 7), on: page)
        let error = try #require(transport.messages(page, type: "error").first)
        #expect(error["code"] as? String == "not_ready" && error["seq"] as? Int == 7)
        transport.send(TestTransport.hello(), on: page)
        #expect(transport.welcome(page) != nil)
    }

    @Test func aSharedLinkJoinsAsANewMemberAndEveryoneIsToldHowManyShare() throws {
        let transport = TestTransport()
        let first = try joined(transport)
        let (id, token) = try session(transport, first)
        let second = try joined(transport, transport.join(id))
        let welcome = try #require(transport.welcome(second))
        #expect(welcome["session"] as? String == id && welcome["member"] as? Int == 1)
        #expect(welcome["token"] as? String != token)
        #expect(transport.messages(first, type: "room").last?["members"] as? Int == 2)
        #expect(transport.messages(second, type: "room").last?["members"] as? Int == 2)
    }

    @Test func aSessionWithAllItsMembersConnectedRefusesAnother() throws {
        let transport = TestTransport { $0.maxMembersPerSession = 2 }
        let first = try joined(transport)
        let (id, _) = try session(transport, first)
        _ = try joined(transport, transport.join(id))
        let third = transport.open()
        transport.send(transport.join(id), on: third)
        #expect(transport.errors(third) == ["session_full"])
    }

    @Test func aTokenTheSessionNeverIssuedIsRefusedAndJoinsNothing() throws {
        let transport = TestTransport()
        let first = try joined(transport)
        let (id, _) = try session(transport, first)
        let stranger = transport.open()
        transport.send(TestTransport.hello(session: id, token: String(repeating: "0", count: 32)), on: stranger)
        #expect(transport.errors(stranger) == ["bad_token"])
        #expect(transport.host.sessions[id]?.connectedCount == 1)
    }

    // MARK: - Resume, and the newer connection wins

    @Test func aMemberComingBackWithItsTokenResumesWhereItWasWithItsAck() throws {
        let transport = TestTransport()
        let page = try joined(transport)
        let (id, token) = try session(transport, page)
        transport.send(transport.touch("start", dy: 0, seq: 1), on: page)
        transport.now += 16_000
        transport.send(transport.touch("move", dy: -30, seq: 2), on: page)
        transport.close(page)
        #expect(transport.host.sessions[id] != nil, "the session waits out its grace period")

        let back = try joined(transport, TestTransport.hello(session: id, token: token))
        let welcome = try #require(transport.welcome(back))
        #expect(welcome["resumed"] as? Bool == true && welcome["member"] as? Int == 0)
        #expect(welcome["ack"] as? Int == 2)
    }

    @Test func theSameMemberOnANewerConnectionWinsAndTheOlderIsClosedWith4001() throws {
        let transport = TestTransport()
        let old = try joined(transport)
        let (id, token) = try session(transport, old)
        let newer = try joined(transport, TestTransport.hello(session: id, token: token))
        #expect(transport.closes[old.id] == .sessionTaken)
        #expect(transport.host.sessions[id]?.connectedCount == 1)
        #expect(newer.session === transport.host.sessions[id] && old.session == nil)
        // What the older one still says is dropped: it no longer drives the session.
        let framesBefore = transport.frames(newer).count
        transport.send(transport.touch("start", dy: 0), on: old)
        #expect(transport.frames(newer).count == framesBefore)
    }

    // MARK: - Leaving and expiry

    @Test func leavingWithAFingerDownLiftsItForTheOthers() throws {
        let transport = TestTransport()
        let a = try joined(transport)
        let (id, _) = try session(transport, a)
        let b = try joined(transport, transport.join(id))
        transport.send(transport.touch("start", dy: 0), on: a)
        transport.now += 16_000
        transport.send(transport.touch("move", dy: -40), on: a)
        #expect(transport.frames(b).last?["phase"] as? String == "dragging")
        transport.close(a)
        #expect(transport.frames(b).last?["phase"] as? String != "dragging", "\(transport.frames(b).last ?? [:])")
        #expect(transport.messages(b, type: "room").last?["members"] as? Int == 1)
    }

    @Test func aSessionNobodyIsConnectedToIsFreedWhenItsGraceRunsOut() throws {
        let transport = TestTransport { $0.sessionGraceSeconds = 5 }
        let page = try joined(transport)
        let (id, token) = try session(transport, page)
        let closedAt = transport.now
        transport.close(page)
        #expect(transport.tickArmedAt == closedAt + 5_000_000, "the timer is armed for the expiry")
        transport.runTick()
        #expect(transport.host.sessions[id] == nil)

        let late = try joined(transport, TestTransport.hello(session: id, token: token))
        let welcome = try #require(transport.welcome(late))
        #expect(welcome["notice"] as? String == "session_expired" && welcome["session"] as? String != id)
    }

    @Test func aGraceOfZeroFreesTheSessionAtOnce() throws {
        let transport = TestTransport { $0.sessionGraceSeconds = 0 }
        let page = try joined(transport)
        transport.close(page)
        #expect(transport.host.sessions.isEmpty)
    }

    // MARK: - One frame per read

    @Test func inputsOfOneReadMakeOneFrame() throws {
        let transport = TestTransport()
        let page = try joined(transport)
        transport.send(transport.touch("start", dy: 0), on: page)
        let before = transport.frames(page).count
        for step in 1...3 {
            transport.now += Int64(step) * 1000
            transport.receive(transport.touch("move", dy: -10), on: page)
        }
        #expect(transport.frames(page).count == before, "held until the read is over")
        transport.endOfRead()
        transport.flush()
        #expect(transport.frames(page).count == before + 1)
        #expect(page.outbox.framesCoalesced == 2)
    }

    @Test func aFrameThatIsTheOnlyThingToSendLeavesAtOnce() throws {
        let transport = TestTransport()
        let page = try joined(transport)
        transport.send(transport.touch("start", dy: 0), on: page)
        let atOnce = transport.framesWrittenAtOnce
        transport.now += 16_000
        transport.receive(transport.touch("move", dy: -5), on: page)  // no event: the frame alone
        transport.endOfRead()  // no flush: only what the host wrote at once
        #expect(transport.framesWrittenAtOnce == atOnce + 1)
    }

    // MARK: - The tick

    @Test func aMovingSessionArmsTheTickOnePeriodAheadAndKeepsTicking() throws {
        let transport = TestTransport { $0.tickRate = 60 }
        let page = try joined(transport)
        #expect(transport.tickArmedAt == nil, "a session at rest needs no tick")
        transport.send(transport.touch("start", dy: 0), on: page)
        transport.now += 16_000
        transport.send(transport.touch("move", dy: 40), on: page)  // a pull past the top
        transport.now += 8_000
        let releasedAt = transport.now
        transport.send(transport.touch("end", dy: 0), on: page)  // let go: it springs back
        let armed = try #require(transport.tickArmedAt)
        #expect(armed > releasedAt - 1_000_000 / 60 && armed <= releasedAt + 1_000_000 / 60)
        transport.runTick()
        let next = try #require(transport.tickArmedAt, "still moving: the next tick is armed")
        #expect(abs(next - armed - 1_000_000 / 60) <= 1, "one period on (deadlines are origin + n/rate, no drift)")
    }

    @Test func aLateTickSkipsTheTicksItMissed() {
        var scheduler = TickScheduler(rate: 100)  // 10 ms
        let first = scheduler.arm(moving: true, deadline: nil, now: 0)
        scheduler.fired()
        let onTime = scheduler.next(anyMoving: true, earliestDeadline: nil, now: 10_000)
        scheduler.fired()
        let late = scheduler.next(anyMoving: true, earliestDeadline: nil, now: 55_000)
        scheduler.fired()
        let still = scheduler.next(anyMoving: false, earliestDeadline: nil, now: 60_000)
        #expect(first == 10_000 && onTime == 20_000)
        #expect(late == 60_000 && scheduler.skipped == 3, "the ticks at 30, 40 and 50 ms are skipped")
        #expect(still == nil)
    }

    @Test func theTimerIsOnlyEverMovedEarlierBetweenTicks() {
        var scheduler = TickScheduler(rate: 60)
        let expiry = scheduler.arm(by: 5_000_000)
        let later = scheduler.arm(by: 6_000_000)
        let moving = scheduler.arm(moving: true, deadline: nil, now: 1_000_000)
        let laterStill = scheduler.arm(moving: false, deadline: 9_000_000, now: 1_000_000)
        #expect(expiry == 5_000_000 && later == nil)
        #expect(moving == 1_000_000 + 1_000_000 / 60 && laterStill == nil)
        #expect(scheduler.armedAt == moving)
    }

    @Test func anIdleServerArmsNoTick() throws {
        let transport = TestTransport()
        _ = try joined(transport)
        transport.runTick()
        #expect(transport.tickArmedAt == nil)
    }

    // MARK: - Liveness and shutdown

    @Test func aQuietConnectionIsPingedThenHungUpWhenItDoesNotAnswer() throws {
        let transport = TestTransport {
            $0.pingIntervalSeconds = 10
            $0.hangupSeconds = 20
        }
        let page = try joined(transport)
        #expect(transport.sweepArmed)
        transport.now += 10_000_000
        transport.sweep()
        #expect(transport.pings[page.id] == 1 && !transport.killed.contains(page.id))
        transport.now += 10_000_000
        transport.sweep()
        #expect(transport.killed.contains(page.id))
    }

    @Test func aShutdownWritesWhatIsQueuedThenClosesWith1001() throws {
        let transport = TestTransport()
        let page = try joined(transport)
        transport.receive(#"{"type":"ping","t":5}"#, on: page)
        transport.host.beginShutdown(at: transport.now)
        transport.endOfRead()
        transport.flush()
        #expect(transport.messages(page).last?["type"] as? String == "pong")
        #expect(transport.closes[page.id] == .goingAway)
    }

    @Test func aMessageOverTheLimitClosesWith1009AndNothingAfterItIsRead() throws {
        let transport = TestTransport { $0.maxMessageBytes = 256 }
        let page = try joined(transport)
        transport.send(String(repeating: " ", count: 257), on: page)
        #expect(transport.closes[page.id] == .messageTooBig)
        let count = transport.messages(page).count
        transport.send(#"{"type":"ping","t":1}"#, on: page)
        #expect(transport.messages(page).count == count)
    }
}
