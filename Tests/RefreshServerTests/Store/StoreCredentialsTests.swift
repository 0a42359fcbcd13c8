import Foundation
import Testing

@testable import RefreshStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's password comes from the environment or from a file only its owner (and group) can read
/// (``StoreCredentials``, docs/SCALING.md "The store's password"), never from the command line; every refusal says
/// why without the password.
@Suite struct StoreCredentialsTests {
    /// A file of its own in a fresh directory, with `text` and `mode`; removed with the directory by `body`'s end.
    private func withFile(
        _ text: String, mode: mode_t = 0o600, _ body: (String) throws -> Void
    ) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-credentials-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.password").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        #expect(chmod(path, mode) == 0)
        try body(path)
    }

    @Test func nothingGivenIsNoPassword() throws {
        #expect(try StoreCredentials.fromEnvironment([:]) == nil)
        #expect(try StoreCredentials.fromEnvironment(["REFRESHKIT_STORE_PASSWORD": ""]) == nil)
    }

    @Test func thePasswordAndTheUserFromTheEnvironment() throws {
        let credentials = try StoreCredentials.fromEnvironment([
            "REFRESHKIT_STORE_PASSWORD": "s3cret:@/x", "REFRESHKIT_STORE_USER": "writer",
        ])
        #expect(credentials == StoreCredentials(user: "writer", password: "s3cret:@/x"))
        #expect(credentials?.authCommand == ["AUTH", "writer", "s3cret:@/x"])
        let address = try StoreAddress(
            "redis://10.0.0.5:6380/1",
            credentials: StoreCredentials.fromEnvironment(["REFRESHKIT_STORE_PASSWORD": "pw"]))
        #expect(address.handshake == [["AUTH", "pw"], ["SELECT", "1"]])
    }

    @Test func theFirstLineOfAFileOnlyItsOwnerReads() throws {
        try withFile("correct horse\r\nsecond line\n") { path in
            #expect(try StoreCredentials.fromFile(path) == StoreCredentials(password: "correct horse"))
            let named = try StoreCredentials.fromEnvironment([
                "REFRESHKIT_STORE_PASSWORD_FILE": path, "REFRESHKIT_STORE_USER": "alice",
            ])
            #expect(named == StoreCredentials(user: "alice", password: "correct horse"))
        }
        try withFile("no line end", mode: 0o400) { path throws in
            #expect(try StoreCredentials.fromFile(path).password == "no line end")
        }
        // A group of its own may read it (root:refreshkit 0640, the service's group).
        try withFile("grouped\n", mode: 0o640) { path throws in
            #expect(try StoreCredentials.fromFile(path).password == "grouped")
        }
    }

    /// A password file every user of the machine can read is no secret: refused, saying how to fix it.
    @Test(arguments: [
        (0o644 as mode_t, "may be read by every user of this machine (mode 0644)"),
        (0o604, "may be read by every user of this machine (mode 0604)"),
        (0o602, "may be changed by every user of this machine (mode 0602)"),
    ])
    func aFileOthersCanReadIsRefused(mode: mode_t, message: String) throws {
        try withFile("hunter2\n", mode: mode) { path in
            #expect {
                try StoreCredentials.fromEnvironment(["REFRESHKIT_STORE_PASSWORD_FILE": path])
            } throws: { error in
                "\(error)".contains(message) && "\(error)".contains("chmod 600 '\(path)'")
                    && !"\(error)".contains("hunter2")
            }
        }
    }

    @Test func whatElseIsRefused() throws {
        try withFile("\nhunter2\n") { path in
            #expect {
                try StoreCredentials.fromFile(path)
            } throws: { "\($0)".contains("is empty (the password is its first line)") && !"\($0)".contains("hunter2") }
            #expect {
                try StoreCredentials.fromEnvironment([
                    "REFRESHKIT_STORE_PASSWORD": "hunter2", "REFRESHKIT_STORE_PASSWORD_FILE": path,
                ])
            } throws: { "\($0)".contains("given twice") && !"\($0)".contains("hunter2") }
        }
        #expect {
            try StoreCredentials.fromFile("/nonexistent/store.password")
        } throws: { "\($0)".contains("'/nonexistent/store.password' cannot be read: No such file or directory") }
        #expect {
            try StoreCredentials.fromFile("/tmp")
        } throws: { "\($0)".contains("is not a regular file") }
        #expect {
            try StoreCredentials.fromEnvironment(["REFRESHKIT_STORE_USER": "alice"])
        } throws: { "\($0)".contains("REFRESHKIT_STORE_USER names a user without a password") }
    }
}
