import Testing

@testable import RefreshServer
@testable import RefreshStore

/// `serve --store` read by Foundation's URL parser (``StoreAddress``): the database is honoured, the password comes
/// from the environment or a file (``StoreCredentials``), never from the URL, and whatever the server does not support
/// is refused when it starts, with a message naming it.
@Suite struct StoreAddressTests {
    @Test func hostPortDatabaseAndThePasswordGivenApart() throws {
        let address = try StoreAddress(
            "redis://redis.internal:6380/2", credentials: StoreCredentials(password: "pass@word"))
        #expect(address.host == "redis.internal" && address.port == 6380)
        #expect(address.username == nil && address.password == "pass@word" && address.database == 2)
        #expect(address.handshake == [["AUTH", "pass@word"], ["SELECT", "2"]])
    }

    @Test func anACLUserInTheURLOrTheCredentials() throws {
        let inURL = try StoreAddress("redis://alice@10.0.0.5", credentials: StoreCredentials(password: "secret"))
        #expect(inURL.host == "10.0.0.5" && inURL.port == 6379)
        #expect(inURL.handshake == [["AUTH", "alice", "secret"]])
        let apart = try StoreAddress(
            "redis://10.0.0.5", credentials: StoreCredentials(user: "alice", password: "secret"))
        #expect(apart == inURL)
        #expect {
            try StoreAddress("redis://bob@10.0.0.5", credentials: StoreCredentials(user: "alice", password: "secret"))
        } throws: { error in
            "\(error)".contains("names the user 'bob' and REFRESHKIT_STORE_USER 'alice'")
                && !"\(error)".contains("secret")
        }
    }

    /// The attack: a password on the command line, which `ps` shows every user. Refused at start, hidden in the
    /// message, which says where to give it instead.
    @Test(arguments: ["redis://:hunter2@host:6379", "redis://bob:hunter2@host/2", "redis://:hunter2@host"])
    func aPasswordInTheURLIsRefused(url: String) {
        for credentials in [nil, StoreCredentials(password: "other")] {
            #expect {
                try StoreAddress(url, credentials: credentials)
            } throws: { error in
                let message = "\(error)"
                return message.contains("a password in --store is shown to every user of this machine")
                    && message.contains("REFRESHKIT_STORE_PASSWORD") && message.contains("--store-password-file")
                    && message.contains(":***@") && !message.contains("hunter2")
            }
        }
    }

    /// Printing an address (a log line's metadata, an error, a debugger) never shows its password.
    @Test func printingHidesThePassword() throws {
        let address = try StoreAddress("redis://alice@[::1]:7000/3", credentials: StoreCredentials(password: "hunter2"))
        for shown in [
            "\(address)", String(reflecting: address), "\(address.credentials!)",
            String(reflecting: address.credentials!),
        ] {
            #expect(!shown.contains("hunter2"), "\(shown)")
        }
        #expect("\(address)" == "redis://alice@[::1]:7000/3 (with a password)")
        var dumped = ""
        dump(address, to: &dumped)
        dump(address.credentials!, to: &dumped)
        #expect(!dumped.contains("hunter2"), "\(dumped)")
        #expect(try "\(StoreAddress("localhost", credentials: nil))" == "redis://localhost:6379")
    }

    @Test func theShortForms() throws {
        #expect(
            try StoreAddress("redis://127.0.0.1:6379", credentials: nil)
                == StoreAddress("127.0.0.1:6379", credentials: nil))
        let bare = try StoreAddress("localhost", credentials: nil)
        #expect(bare.host == "localhost" && bare.port == 6379 && bare.database == nil && bare.handshake.isEmpty)
        #expect(try StoreAddress("redis://[::1]:7000/", credentials: nil).host == "::1")
        #expect(try StoreAddress("redis://:7000", credentials: nil).host == "127.0.0.1")
    }

    @Test(arguments: [
        ("rediss://host:6379", "the scheme 'rediss' is not supported"),
        ("http://host:6379", "the scheme 'http' is not supported"),
        ("redis://host:6379/2?timeout=5", "query items are not supported"),
        ("redis://host:6379/two", "the database must be a number"),
        ("redis://host:6379/2/3", "the database must be a number"),
        ("redis://alice@host:6379", "a user name needs a password: give it in the environment"),
        ("redis://host:0", "the port must be 1 to 65535"),
    ])
    func whatIsRefused(url: String, message: String) {
        #expect {
            try StoreAddress(url, credentials: nil)
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
        #expect(throws: ServerError.self) { try configuration.validate() }
        configuration.storeURL = "redis://host:6379/3"
        #expect(throws: Never.self) { try configuration.validate() }
    }
}
