import Testing

@testable import RefreshServer
@testable import RefreshStore

/// `serve --store` read by Foundation's URL parser (``StoreAddress``): the password and the database are
/// honoured, and whatever the server does not support is refused when it starts, with a message naming it.
@Suite struct StoreAddressTests {
    @Test func hostPortPasswordAndDatabase() throws {
        let address = try StoreAddress("redis://:pass%40word@redis.internal:6380/2")
        #expect(address.host == "redis.internal" && address.port == 6380)
        #expect(address.username == nil && address.password == "pass@word" && address.database == 2)
        #expect(address.handshake == [["AUTH", "pass@word"], ["SELECT", "2"]])
    }

    @Test func anACLUser() throws {
        let address = try StoreAddress("redis://alice:secret@10.0.0.5")
        #expect(address.host == "10.0.0.5" && address.port == 6379)
        #expect(address.handshake == [["AUTH", "alice", "secret"]])
    }

    @Test func theShortForms() throws {
        #expect(try StoreAddress("redis://127.0.0.1:6379") == StoreAddress("127.0.0.1:6379"))
        let bare = try StoreAddress("localhost")
        #expect(bare.host == "localhost" && bare.port == 6379 && bare.database == nil && bare.handshake.isEmpty)
        #expect(try StoreAddress("redis://[::1]:7000/").host == "::1")
        #expect(try StoreAddress("redis://:7000").host == "127.0.0.1")
    }

    @Test(arguments: [
        ("rediss://host:6379", "the scheme 'rediss' is not supported"),
        ("http://host:6379", "the scheme 'http' is not supported"),
        ("redis://host:6379/2?timeout=5", "query items are not supported"),
        ("redis://host:6379/two", "the database must be a number"),
        ("redis://host:6379/2/3", "the database must be a number"),
        ("redis://alice@host:6379", "a user name needs a password"),
        ("redis://host:0", "the port must be 1 to 65535"),
    ])
    func whatIsRefused(url: String, message: String) {
        #expect {
            try StoreAddress(url)
        } throws: { error in
            "\(error)".contains(message) && "\(error)".contains("--store")
        }
    }

    @Test func aRefusalHidesThePassword() {
        #expect(StoreAddress.redacted("redis://:hunter2@host/x") == "redis://:***@host/x")
        #expect(StoreAddress.redacted("redis://bob:hunter2@host") == "redis://bob:***@host")
        #expect(StoreAddress.redacted("redis://host:6379") == "redis://host:6379")
    }

    @Test func theServerConfigurationRefusesIt() {
        var configuration = ServerConfiguration()
        configuration.storeURL = "redis://host:6379/db"
        #expect(throws: ServerError.self) { try configuration.validate() }
        configuration.storeURL = "redis://:pw@host:6379/3"
        #expect(throws: Never.self) { try configuration.validate() }
    }
}
