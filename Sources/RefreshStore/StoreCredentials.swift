import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The secret a session store asks for (`AUTH`, docs/SCALING.md "The store's password"): a password, and for a
/// Redis 6 ACL user its name. Never read from the command line, which `ps` and `/proc/PID/cmdline` show to every
/// user of the machine: from the environment (``passwordVariable``, ``userVariable``) or from a file only its
/// owner (and its group) can read (``passwordFileVariable``, `refreshkit serve --store-password-file PATH`).
///
/// Printing one (`"\(credentials)"`, `dump`, a debugger) shows the user name and `***`, never the password.
public struct StoreCredentials: Hashable, Sendable {
    /// A Redis ACL user (`AUTH USER PASSWORD`); `nil`: the default user (`AUTH PASSWORD`).
    public var user: String?
    public var password: String

    public init(user: String? = nil, password: String) {
        self.user = user.flatMap { $0.isEmpty ? nil : $0 }
        self.password = password
    }

    /// The password itself.
    public static let passwordVariable = "REFRESHKIT_STORE_PASSWORD"
    /// A file whose first line is the password (what `serve --store-password-file PATH` sets).
    public static let passwordFileVariable = "REFRESHKIT_STORE_PASSWORD_FILE"
    /// The ACL user's name (optional; it may also be in the address, `redis://USER@HOST`).
    public static let userVariable = "REFRESHKIT_STORE_USER"

    /// Where to give a password, for the messages.
    static let howToGive =
        "give it in the environment (\(passwordVariable)) or in a file only its owner reads (refreshkit serve "
        + "--store-password-file PATH, or \(passwordFileVariable)=PATH)"

    /// The credentials `environment` gives (the process's unless told): `nil` when it names no password.
    /// - Throws: when both a password and a password file are given, when the file cannot be read or may be read
    ///   by every user (``fromFile(_:)``), or when a user is named without a password; the message never holds
    ///   the password.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StoreAddressError) -> StoreCredentials? {
        let given = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let user = given(userVariable)
        let password: String?
        switch (given(passwordVariable), given(passwordFileVariable)) {
        case (.some, .some):
            throw StoreAddressError(
                message:
                    "the store's password is given twice, in \(passwordVariable) and in a file "
                    + "(\(passwordFileVariable) or --store-password-file): give one")
        case (let text?, nil): password = text
        case (nil, let path?): password = try fromFile(path).password
        case (nil, nil): password = nil
        }
        guard let password else {
            if user != nil {
                throw StoreAddressError(message: "\(userVariable) names a user without a password: \(howToGive)")
            }
            return nil
        }
        return StoreCredentials(user: user, password: password)
    }

    /// The password in the first line of the file at `path` (its line end dropped).
    /// - Throws: when the file cannot be read, is not a regular file, is empty, or may be read or changed by
    ///   every user of the machine (`chmod 600`, or `640` with a group of its own, like ssh's keys).
    public static func fromFile(_ path: String) throws(StoreAddressError) -> StoreCredentials {
        func refused(_ why: String) -> StoreAddressError {
            StoreAddressError(message: "the store's password file '\(path)' \(why)")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw refused("cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw refused("cannot be read: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw refused("is not a regular file") }
        let mode = status.st_mode & 0o777
        if mode & (S_IROTH | S_IWOTH) != 0 {
            throw refused(
                "may be \(mode & S_IROTH != 0 ? "read" : "changed") by every user of this machine (mode "
                    + "0\(String(mode, radix: 8))): chmod 600 '\(path)' (or 640, with a group of its own)")
        }
        // The first line only; a password is short, so the first 4 KiB hold it.
        var bytes = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw refused("cannot be read: \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            count += got
        }
        var line = bytes[..<count].prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard !line.isEmpty else { throw refused("is empty (the password is its first line)") }
        guard let password = String(bytes: line, encoding: .utf8) else {
            throw refused("does not hold UTF-8 text")
        }
        return StoreCredentials(password: password)
    }

    /// The `AUTH` command these credentials make.
    var authCommand: [String] { ["AUTH"] + (user.map { [$0] } ?? []) + [password] }
}

extension StoreCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { user.map { "user \($0), password ***" } ?? "password ***" }
    public var debugDescription: String { "StoreCredentials(\(description))" }
    public var customMirror: Mirror { Mirror(self, children: ["user": user as Any, "password": "***"]) }
}
