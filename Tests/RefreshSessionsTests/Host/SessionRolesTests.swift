import Foundation
import RefreshWire
import Testing

@testable import RefreshSessions

/// Roles in a session, through the registry and a real ``SessionHost`` (PROTOCOL.md, "Roles"): who may join, with
/// which key, what each role may send, what its trace holds, the embedder's hook, and the keys across a take-over.
@Suite struct SessionRolesTests {
    private func owner(_ transport: TestTransport) throws -> (page: Connection, welcome: [String: Any], id: String) {
        let (page, welcome) = try transport.welcomed(TestTransport.hello())
        return (page, welcome, try #require(welcome["session"] as? String))
    }

    @Test func theRegistryAdmitsByKeyAndRefusesTheIdAlone() throws {
        let registry = SessionRegistry(configuration: .production, logger: .init(label: "test"), headroom: 0)
        let hello = Hello(viewport: .init(width: 390, height: 844), dpr: 3)
        guard case .created(let session, let first, nil) = registry.admit(hello, at: .zero) else {
            Issue.record("a hello without a session makes one")
            return
        }
        #expect(first.role == .owner)
        var join = hello
        join.session = session.id
        guard case .refused(let alone) = registry.admit(join, at: .zero) else {
            Issue.record("the id alone joins nothing")
            return
        }
        #expect(alone.code == .forbidden && alone.ref == "hello")
        join.key = first.token
        guard case .refused(let wrong) = registry.admit(join, at: .zero) else {
            Issue.record("a token is not a key")
            return
        }
        #expect(wrong.code == .forbidden)
        #expect(session.members.count == 1, "a refusal changes nothing")
        join.key = session.keys.keys[.watch]
        guard case .joined(_, let watcher) = registry.admit(join, at: .zero) else {
            Issue.record("the watch key joins")
            return
        }
        #expect(watcher.role == .watch && watcher.number == 1)
        join.key = nil
        join.token = watcher.token
        guard case .resumed(_, let back) = registry.admit(join, at: .zero) else {
            Issue.record("the token resumes")
            return
        }
        #expect(back.role == .watch && back.number == 1)
    }

    @Test func aWatchMembersInputsAreForbiddenAndItStillGetsFrames() throws {
        let transport = TestTransport()
        let (page, welcome, id) = try owner(transport)
        #expect(welcome["role"] as? String == "owner")
        let links = try #require(welcome["links"] as? [String: String])
        #expect(links["watch"] == "/?s=\(id)&k=\(transport.key(of: id, .watch)!)")
        let (watcher, joined) = try transport.welcomed(transport.join(id, .watch))
        #expect(joined["role"] as? String == "watch" && joined["links"] == nil)
        transport.send(transport.touch("start", dy: 0, seq: 4), on: watcher)
        transport.send(binary: transport.binaryTouch(.start, dy: 0, seq: 5), on: watcher)
        transport.send(#"{"type":"command","name":"refresh","edge":"top"}"#, on: watcher)
        transport.send(#"{"type":"resize","viewport":{"w":200,"h":300}}"#, on: watcher)
        transport.send(#"{"type":"configure","preset":"jh"}"#, on: watcher)
        let errors = transport.messages(watcher, type: "error")
        #expect(errors.map { $0["code"] as? String } == Array(repeating: "forbidden", count: 5))
        #expect(errors.map { $0["ref"] as? String } == ["touch", "touch", "command", "resize", "configure"])
        #expect(errors.prefix(2).map { $0["seq"] as? Int } == [4, 5])
        #expect(transport.host.sessions[id]?.model.presetName == "ios", "nothing of the watcher's was applied")
        let framesBefore = transport.frames(watcher).count
        transport.send(transport.touch("start", dy: 0), on: page)
        transport.now += 16_000
        transport.send(transport.touch("move", dy: 30), on: page)
        transport.flush()
        #expect(transport.frames(watcher).count > framesBefore, "the watcher follows the owner's drag")
    }

    @Test func aDriveMemberDragsButOnlyTheOwnerConfigures() throws {
        let transport = TestTransport()
        let (page, _, id) = try owner(transport)
        let (driver, _) = try transport.welcomed(transport.join(id, .drive))
        transport.send(#"{"type":"configure","preset":"jh"}"#, on: driver)
        #expect(transport.errors(driver) == ["forbidden"])
        transport.send(transport.touch("start", dy: 0, seq: 1), on: driver)
        #expect(transport.errors(driver) == ["forbidden"], "its touch is applied")
        transport.send(#"{"type":"configure","preset":"jh"}"#, on: page)
        #expect(transport.host.sessions[id]?.model.presetName == "jh")
    }

    @Test func aJoinersTraceHoldsOnlyItsOwnMessages() throws {
        let transport = TestTransport()
        let (page, _, id) = try owner(transport)
        let (driver, _) = try transport.welcomed(transport.join(id, .drive))
        transport.send(#"{"type":"command","name":"scrollBy","amount":123.25}"#, on: page)
        transport.send(#"{"type":"command","name":"scrollBy","amount":7.5}"#, on: driver)
        transport.send(#"{"type":"trace"}"#, on: driver)
        transport.send(#"{"type":"trace"}"#, on: page)
        let mine = try #require(transport.messages(driver, type: "trace").last?["trace"] as? [String: Any])
        let whole = try #require(transport.messages(page, type: "trace").last?["trace"] as? [String: Any])
        let applies = { (trace: [String: Any]) in
            ((trace["ops"] as? [[String: Any]]) ?? []).filter { $0["apply"] != nil }.compactMap { $0["member"] as? Int }
        }
        #expect(applies(mine) == [1] && mine["partial"] as? Bool == true && mine["member"] as? Int == 1)
        #expect(applies(whole) == [0, 1] && whole["partial"] == nil)
        let text = try String(decoding: JSONSerialization.data(withJSONObject: mine), as: UTF8.self)
        #expect(!text.contains("123.25"), "another member's message leaked")
    }

    @Test func theEmbeddersHookSeesEveryHelloAndADenialIsForbidden() throws {
        let transport = TestTransport { configuration in
            configuration.authorize = { request in
                switch (request.kind, request.credentials) {
                case (.new, "alice"), (.resume, _): .allow
                case (.join, "bob") where request.role == .watch: .allow
                default: .deny("\(request.credentials ?? "nobody") may not \(request.kind.rawValue) as \(request.role)")
                }
            }
        }
        let stranger = transport.open()
        transport.send(TestTransport.hello(), on: stranger)
        let refusal = try #require(transport.messages(stranger, type: "error").first)
        #expect(refusal["code"] as? String == "forbidden" && refusal["ref"] as? String == "hello")
        #expect(refusal["message"] as? String == "nobody may not new as owner")
        #expect(transport.host.sessions.isEmpty)
        let alice = transport.open(credentials: "alice")
        transport.send(TestTransport.hello(), on: alice)
        let id = try #require(transport.welcome(alice)?["session"] as? String)
        let bob = transport.open(credentials: "bob")
        transport.send(transport.join(id, .drive), on: bob)
        #expect(transport.errors(bob) == ["forbidden"] && transport.welcome(bob) == nil)
        transport.send(transport.join(id, .watch), on: bob)
        #expect(transport.welcome(bob)?["role"] as? String == "watch")
    }

    @Test func theKeysAndRolesOutliveATakeOverByTheirHashes() throws {
        let store = MemoryStore()
        let (a, _, made, id) = try TestTransport.nodeWithSession("a", store)
        let (_, watched) = try a.welcomed(a.join(id, .watch))
        let driveKey = try #require(TestTransport.key(in: made, "drive"))
        a.now += StoreLedger.period
        a.sweep()
        let stored = try #require(store.sessions[id]?.members)
        #expect(!String(decoding: stored.json(), as: UTF8.self).contains(driveKey), "no key in the store")
        #expect(stored.keyHashes[.drive] == TokenHash.hex(driveKey) && stored.role(of: 1) == .watch)
        let b = TestTransport.backup("b", of: "a", at: a.now + 10_000, store)
        store.time = { [weak b] in b?.now ?? 0 }
        let (_, owner) = try b.welcomed(TestTransport.hello(session: id, token: made["token"] as? String))
        #expect(owner["role"] as? String == "owner" && owner["links"] == nil, "only the keys' hashes moved")
        let (_, watcher) = try b.welcomed(TestTransport.hello(session: id, token: watched["token"] as? String))
        #expect(watcher["role"] as? String == "watch")
        let (_, driver) = try b.welcomed(TestTransport.hello(session: id, key: driveKey))
        #expect(driver["role"] as? String == "drive")
        let wrong = b.open()
        b.send(TestTransport.hello(session: id), on: wrong)
        #expect(b.errors(wrong) == ["forbidden"])
    }
}
