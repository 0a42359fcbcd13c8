import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// A member's rights, one value (``MemberRole``), and the keys that give them (``SessionKeys``): PROTOCOL.md, "Roles".
@Suite struct MemberRoleTests {
    private static let inputs: [Input] = [
        .touch(TouchInput(phase: .start, delta: .zero, pageTime: 0)),
        .wheel(WheelInput(delta: Point(x: 0, y: 10), mode: .pixel, pageTime: 0)),
        .resize(Size(width: 300, height: 500)),
        .command(Command(.refresh, edge: .top)),
        .configure(ConfigurationPatch()),
    ]

    @Test func theRightsTable() {
        let may = { (role: MemberRole) in Self.inputs.map { role.may($0) } }
        #expect(may(.owner) == [true, true, true, true, true])
        #expect(may(.drive) == [true, true, true, true, false], "configuring is the owner's")
        #expect(may(.watch) == [false, false, false, false, false], "a watcher sends nothing")
        #expect(MemberRole.owner.mayTouch && MemberRole.drive.mayTouch && !MemberRole.watch.mayTouch)
        #expect(MemberRole.shared == [.drive, .watch], "no link makes an owner")
    }

    @Test func aRefusalIsForbiddenAndSaysWhoMay() {
        let refusal = MemberRole.watch.refusal("wheel", seq: 12)
        #expect(refusal.code == .forbidden && refusal.ref == "wheel" && refusal.seq == 12)
        #expect(refusal.message.contains("watch") && refusal.message.contains("owner and drive"))
        #expect(MemberRole.drive.refusal("configure", seq: nil).message.contains("only the session's owner"))
    }

    @Test func eachKeyGivesItsRoleAndNothingElseOpens() throws {
        let keys = SessionKeys.make()
        let drive = try #require(keys.keys[.drive])
        let watch = try #require(keys.keys[.watch])
        #expect(drive != watch && drive.count == 32 && watch.count == 32)
        #expect(keys.role(for: drive) == .drive && keys.role(for: watch) == .watch)
        // One hex digit changed: the first, to another digit than its own.
        let altered = (drive.first == "0" ? "1" : "0") + drive.dropFirst()
        #expect(keys.role(for: altered) == nil && keys.role(for: "") == nil)
        #expect(keys.hashes[.drive] == TokenHash.hex(drive), "a store keeps the hashes only")
        #expect(keys.links(for: "s") == ShareLinks(drive: "/?s=s&k=\(drive)", watch: "/?s=s&k=\(watch)"))
        // Taken over from a store: the hashes still open, but the links are not known any more.
        let stored = try #require(SessionKeys.stored(keys.hashes))
        #expect(stored.role(for: drive) == .drive && stored.role(for: watch) == .watch)
        #expect(stored.links(for: "s") == nil)
    }
}
