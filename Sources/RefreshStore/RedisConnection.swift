import CHiredis
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One connection to Redis through hiredis's blocking client, with short timeouts (docs/SCALING.md): made
/// when first needed (authenticated and on its database, ``StoreAddress/handshake``), dropped on any error, and
/// made again at most once a second (each attempt, like each reply, waits at most ``timeout``). A store that
/// refuses the credentials (`WRONGPASS`, or `NOAUTH` without any) is logged as an error once, with what to do,
/// and is then an unreachable store like any other. Not thread-safe: one thread owns it (the store thread its writer's,
/// the service thread its reader's).
final class RedisConnection {
    let address: StoreAddress
    private let logger: Logger
    private var context: UnsafeMutablePointer<redisContext>?
    private var nextAttempt: Int64 = 0
    /// Called on each new connection before it is used (e.g. to load a script); `false` drops it.
    var prepare: (RedisConnection) -> Bool = { _ in true }
    static let timeout = timeval(tv_sec: 0, tv_usec: 250_000)
    static let retryPeriod: Int64 = 1_000_000

    init(address: StoreAddress, logger: Logger) {
        self.address = address
        self.logger = logger
    }

    deinit { if let context { redisFree(context) } }

    /// Whether a connection is open (made now if there is none and the last attempt was over a second ago).
    func connect() -> Bool {
        if context != nil { return true }
        let now = Self.monotonicMicroseconds()
        guard now >= nextAttempt else { return false }
        nextAttempt = now + Self.retryPeriod
        guard let made = redisConnectWithTimeout(address.host, address.port, Self.timeout) else {
            lastError = "hiredis could not allocate a connection"
            return false
        }
        if made.pointee.err != 0 {
            lastError = Self.errorText(made)
            logger.debug("session store: no connection", metadata: ["reason": "\(lastError)"])
            redisFree(made)
            return false
        }
        redisSetTimeout(made, Self.timeout)
        context = made
        if let refused = handshake() {
            drop(refused.reason)
            if refused.credentials {
                credentialsRefused(refused.reason)
            } else {
                logger.debug("session store: no connection", metadata: ["reason": "\(refused.reason)"])
            }
            return false
        }
        if refusalLogged != nil {
            refusalLogged = nil
            logger.notice("the session store accepted this server's credentials")
        }
        guard prepare(self) else {
            drop("the new connection could not be prepared")
            return false
        }
        return true
    }

    /// Sends the address's `AUTH` and `SELECT` on a new connection (a `PING` when it has neither, so that a store
    /// that wants a password says `NOAUTH` now). - Returns: why they failed (`credentials`: the store refused the
    /// password, or wants one), or `nil`.
    private func handshake() -> (reason: String, credentials: Bool)? {
        let commands = address.handshake.isEmpty ? [["PING"]] : address.handshake
        for command in commands { append(command.map { Array($0.utf8) }) }
        var refusal: (reason: String, credentials: Bool)?
        let read = replies(commands.count) { index, reply in
            guard refusal == nil, reply.pointee.type == REDIS_REPLY_ERROR else { return }
            let text = redact(String(decoding: Self.string(reply), as: UTF8.self))
            let credentials = commands[index][0] == "AUTH" || text.hasPrefix("NOAUTH") || text.hasPrefix("WRONGPASS")
            refusal = ("\(commands[index][0]) refused: \(text)", credentials)
        }
        guard read else { return (lastError, false) }
        return refusal
    }

    /// The refusal last logged (`credentialsRefused`), until a connection is made: one line per change, not one per
    /// attempt (one a second while it lasts).
    private var refusalLogged: String?

    /// The store refused this connection's `AUTH`, or wants one it was not sent: an error line that says what to
    /// do, never the password. The server carries on as in any store outage (sessions in memory, not stored, their
    /// pages drawing again once a batch is answered: the serving lease).
    private func credentialsRefused(_ reason: String) {
        guard refusalLogged != reason else { return }
        refusalLogged = reason
        let what =
            address.credentials == nil
            ? "the session store wants a password and this server has none: \(StoreCredentials.howToGive)"
            : "the session store refused this server's credentials: check the password "
                + "(\(StoreCredentials.passwordVariable) or the password file) and the user "
                + "(\(StoreCredentials.userVariable), redis://USER@HOST)"
        let meanwhile =
            "until it accepts them, the server runs as when the store is down: sessions in memory only, their pages "
            + "held (docs/SCALING.md, \"The store going away\")"
        logger.error(
            "\(what); \(meanwhile)",
            metadata: ["store": "\(address)", "reason": "\(reason)"])
    }

    /// `text` (a store's answer) without this address's password, should the store ever repeat it.
    private func redact(_ text: String) -> String {
        guard let password = address.password, !password.isEmpty else { return text }
        return text.replacingOccurrences(of: password, with: "***")
    }

    /// Closes the connection (after an error: what was sent on it may or may not have been applied).
    func drop(_ reason: String) {
        lastError = reason
        if let context {
            logger.debug("session store: connection dropped", metadata: ["reason": "\(reason)"])
            redisFree(context)
        }
        context = nil
    }

    /// Why the last connection failed or was dropped.
    private(set) var lastError = "not connected yet"

    /// Queues one command (binary-safe arguments); nothing is sent until ``replies(_:_:)`` reads.
    func append(_ arguments: [[UInt8]]) {
        guard let context else { return }
        var pointers: [UnsafePointer<CChar>?] = []
        var lengths: [Int] = []
        var owned: [UnsafeMutablePointer<CChar>] = []
        pointers.reserveCapacity(arguments.count)
        lengths.reserveCapacity(arguments.count)
        owned.reserveCapacity(arguments.count)
        for argument in arguments {
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(argument.count, 1))
            argument.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress {
                    UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: bytes.count)
                }
            }
            owned.append(copy)
            pointers.append(UnsafePointer(copy))
            lengths.append(argument.count)
        }
        _ = redisAppendCommandArgv(context, Int32(arguments.count), &pointers, &lengths)
        for pointer in owned { pointer.deallocate() }
    }

    /// Sends what was queued and reads `count` replies, each handed to `body` before it is freed. - Returns:
    /// `false` when the connection failed (it is then dropped).
    func replies(_ count: Int, _ body: (Int, UnsafeMutablePointer<redisReply>) -> Void) -> Bool {
        guard let context else { return false }
        for index in 0..<count {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else {
                drop(Self.errorText(context))
                return false
            }
            let reply = raw.assumingMemoryBound(to: redisReply.self)
            body(index, reply)
            freeReplyObject(raw)
        }
        return true
    }

    /// A reply's bytes (a string, status or error).
    static func string(_ reply: UnsafeMutablePointer<redisReply>) -> [UInt8] {
        guard let text = reply.pointee.str else { return [] }
        return Array(UnsafeRawBufferPointer(start: text, count: Int(reply.pointee.len)))
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }
}
