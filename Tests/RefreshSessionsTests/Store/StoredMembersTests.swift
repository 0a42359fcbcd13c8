import RefreshWire
import Testing

@testable import RefreshSessions

/// A session's members as the store keeps them, written and read by the wire's JSON writer and reader
/// (``StoredMembersJSON``): the bytes are the ones every earlier process wrote, so a take-over reads them.
@Suite struct StoredMembersTests {
    private let hashes = [String(repeating: "ab", count: 32), String(repeating: "0f", count: 32)]

    @Test func theStoredFormHasRolesAndKeyHashesAndReadsBack() throws {
        let members = StoredMembers(
            members: [(0, hashes[0]), (3, hashes[1])], next: 4, roles: [3: .watch],
            keyHashes: [.drive: hashes[1], .watch: hashes[0]])
        let json = String(decoding: members.json(), as: UTF8.self)
        #expect(
            json
                == #"{"next":4,"members":[[0,"\#(hashes[0])","owner"],[3,"\#(hashes[1])","watch"]],"#
                + #""keys":{"drive":"\#(hashes[1])","watch":"\#(hashes[0])"}}"#)
        #expect(StoredMembers(json: members.json()) == members)
        #expect(StoredMembers(json: Array(#"{"next":0,"members":[]}"#.utf8)) == StoredMembers(members: [], next: 0))
    }

    /// The form every earlier process wrote (no roles, no keys) still reads: member 0, which started the session,
    /// is its owner, the others drive; the session taken over makes new keys (``SessionKeys/stored(_:)``).
    @Test func theFormBeforeRolesReads() throws {
        let text = #"{"next":4,"members":[[0,"\#(hashes[0])"],[3,"\#(hashes[1])"]]}"#
        let members = try #require(StoredMembers(json: Array(text.utf8)))
        #expect(members.role(of: 0) == .owner && members.role(of: 3) == .drive && members.keyHashes.isEmpty)
        #expect(SessionKeys.stored(members.keyHashes) == nil)
    }

    @Test func anyMemberOrderAndWhitespaceRead() {
        let text = #" { "members" : [ [ 1 , "\#(hashes[0])" ] ] , "next" : 2 } "#
        #expect(StoredMembers(json: Array(text.utf8)) == StoredMembers(members: [(1, hashes[0])], next: 2))
    }

    @Test(arguments: [
        "", "[]", #"{"next":1}"#, #"{"members":[]}"#, #"{"next":"1","members":[]}"#, #"{"next":1.5,"members":[]}"#,
        #"{"next":1,"members":[[1]]}"#, #"{"next":1,"members":[[1,"short"]]}"#, #"{"next":1,"members":[["1","x"]]}"#,
        #"{"next":1,"members":[[1,"\#(String(repeating: "a", count: 64))"]"#,
        #"{"next":1,"members":[[1,"\#(String(repeating: "a", count: 64))","king"]]}"#,
        #"{"next":1,"members":[],"keys":{"drive":"short"}}"#, #"{"next":1,"members":[],"keys":[]}"#,
    ])
    func whatIsNotTheFormIsRefused(text: String) {
        #expect(StoredMembers(json: Array(text.utf8)) == nil)
    }
}
