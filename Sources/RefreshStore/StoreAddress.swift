import Foundation

/// Where the session store is (`serve --store`, docs/SCALING.md): `redis://[USER@]HOST[:PORT][/DB]`, read by
/// Foundation's URL parser, and the secret it asks for (``StoreCredentials``), which is never part of the address:
/// a command line is shown to every user of the machine (`ps`, `/proc/PID/cmdline`), so a password in the URL is
/// refused, naming where to give it instead (the environment or a file). Every connection the store makes (the
/// writer's and the reader's, and each made again after an outage) authenticates (`AUTH`, with the user name for
/// a Redis ACL user) and selects the database (`SELECT`). Anything the server would otherwise drop without a word
/// is refused when it starts: another scheme (`rediss://`: TLS is not supported), query items or a fragment, a
/// database that is not a number, a user name without a password.
///
/// Printing one shows its URL and whether it has a password, never the password.
public struct StoreAddress: Hashable, Sendable {
    var host: String
    var port: Int32
    /// The password and the ACL user to `AUTH` with; `nil`: no `AUTH`.
    var credentials: StoreCredentials?
    /// The database to `SELECT`; `nil`: Redis's default, 0.
    var database: Int?

    static let defaultPort: Int32 = 6379

    /// A Redis ACL user (`AUTH USER PASSWORD`); `nil`: the default user (`AUTH PASSWORD`).
    var username: String? { credentials?.user }
    var password: String? { credentials?.password }

    /// Parses `text` (a bare `HOST[:PORT]` is read as `redis://HOST[:PORT]`), with the credentials this process's
    /// environment gives (``StoreCredentials/fromEnvironment(_:)``: `REFRESHKIT_STORE_PASSWORD`, or the file
    /// `REFRESHKIT_STORE_PASSWORD_FILE` names, and `REFRESHKIT_STORE_USER`).
    public init(_ text: String) throws(StoreAddressError) {
        try self.init(text, credentials: StoreCredentials.fromEnvironment())
    }

    /// Parses `text` (a bare `HOST[:PORT]` is read as `redis://HOST[:PORT]`); every connection authenticates with
    /// `credentials` (`nil`: none). A user name in `text` (`redis://USER@HOST`) is the ACL user's, and needs a
    /// password in `credentials`.
    public init(_ text: String, credentials: StoreCredentials?) throws(StoreAddressError) {
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
        if parts.password?.isEmpty == false {
            throw Self.refused(
                text,
                "a password in --store is shown to every user of this machine (ps, /proc/PID/cmdline): "
                    + "\(StoreCredentials.howToGive)")
        }
        var credentials = credentials
        if let user = parts.user.flatMap({ $0.isEmpty ? nil : $0 }) {
            guard var given = credentials else {
                throw Self.refused(text, "a user name needs a password: \(StoreCredentials.howToGive)")
            }
            guard given.user == nil || given.user == user else {
                throw Self.refused(
                    text, "it names the user '\(user)' and \(StoreCredentials.userVariable) '\(given.user!)': give one")
            }
            given.user = user
            credentials = given
        }
        self.credentials = credentials
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
        if let credentials { commands.append(credentials.authCommand) }
        if let database, database != 0 { commands.append(["SELECT", String(database)]) }
        return commands
    }
}

extension StoreAddress: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The URL without any secret, and whether a password goes with it.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let user = username.map { "\($0)@" } ?? ""
        let path = database.map { "/\($0)" } ?? ""
        return "redis://\(user)\(shownHost):\(port)\(path)" + (credentials == nil ? "" : " (with a password)")
    }
    public var debugDescription: String { "StoreAddress(\(description))" }
    public var customMirror: Mirror { Mirror(self, children: ["address": description]) }
}

/// Why a store address was refused, naming the address with its password hidden.
public struct StoreAddressError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
