import Foundation

/// Where the session store is (`serve --store`, docs/SCALING.md): `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`,
/// read by Foundation's URL parser. Every connection the store makes (the writer's and the reader's)
/// authenticates with the password (`AUTH`, with the user name for a Redis ACL user) and selects the database
/// (`SELECT`). Anything the server would otherwise drop without a word is refused when it starts: another
/// scheme (`rediss://`: TLS is not supported), query items or a fragment, a database that is not a number,
/// a user name without a password.
public struct StoreAddress: Hashable, Sendable {
    var host: String
    var port: Int32
    /// A Redis ACL user (`AUTH USER PASSWORD`); `nil`: the default user (`AUTH PASSWORD`).
    var username: String?
    var password: String?
    /// The database to `SELECT`; `nil`: Redis's default, 0.
    var database: Int?

    static let defaultPort: Int32 = 6379

    /// Parses `text`; a bare `HOST[:PORT]` is read as `redis://HOST[:PORT]`.
    public init(_ text: String) throws(StoreAddressError) {
        let url = text.contains("://") ? text : "redis://" + text
        guard let parts = URLComponents(string: url) else {
            throw Self.refused(text, "it is not a URL")
        }
        guard parts.scheme?.lowercased() == "redis" else {
            throw Self.refused(text, "the scheme '\(parts.scheme ?? "")' is not supported (only redis://; no TLS)")
        }
        guard parts.query == nil else { throw Self.refused(text, "query items are not supported") }
        guard parts.fragment == nil else { throw Self.refused(text, "a fragment is not supported") }
        var host = parts.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host.isEmpty ? "127.0.0.1" : host
        if let port = parts.port {
            guard (1...65535).contains(port) else { throw Self.refused(text, "the port must be 1 to 65535") }
            self.port = Int32(port)
        } else {
            port = Self.defaultPort
        }
        let user = parts.user.flatMap { $0.isEmpty ? nil : $0 }
        password = parts.password.flatMap { $0.isEmpty ? nil : $0 }
        guard user == nil || password != nil else {
            throw Self.refused(text, "a user name needs a password (redis://USER:PASSWORD@HOST)")
        }
        username = user
        let path = parts.path
        if path.isEmpty || path == "/" {
            database = nil
        } else {
            let digits = path.dropFirst()
            guard path.hasPrefix("/"), !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), digits.count <= 9,
                let number = Int(digits)
            else {
                throw Self.refused(text, "the database must be a number (redis://HOST:PORT/2), not '\(path)'")
            }
            database = number
        }
    }

    private static func refused(_ text: String, _ why: String) -> StoreAddressError {
        StoreAddressError(message: "--store '\(redacted(text))': \(why)")
    }

    /// `text` with its password hidden, for messages and the log.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let scheme = text.range(of: "://"), scheme.upperBound < at,
            let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
        else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }

    /// The commands that make a new connection this address's: `AUTH`, then `SELECT`.
    var handshake: [[String]] {
        var commands: [[String]] = []
        if let password { commands.append(["AUTH"] + (username.map { [$0] } ?? []) + [password]) }
        if let database, database != 0 { commands.append(["SELECT", String(database)]) }
        return commands
    }
}

/// Why a store address was refused, naming the address with its password hidden.
public struct StoreAddressError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
