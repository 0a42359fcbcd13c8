import CHiredis
import CLibWebSockets
import Glibc
import Logging
import RefreshSessions

/// The session store in Redis (docs/SCALING.md), through hiredis's blocking client on the service thread,
/// with short timeouts: a write every ~100 ms is one pipelined `MULTI … EXEC` (tens of µs on loopback), and
/// a read happens only when a process takes a session over.
///
/// Per session `ID`: the hash `rk:session:ID` (`head`: the trace's JSON up to its operations; `summary`: the
/// JSON after them, with the frames' count and digest; `ops`: how many operations; `members`; `node`: the
/// process that wrote last) and the list `rk:session:ID:ops` (each operation's JSON). Both expire a day after
/// their last write.
///
/// When Redis cannot be reached, every call answers at once that it is unavailable, and a new connection is
/// tried at most once a second.
final class RedisStore: SessionStore {
    let host: String
    let port: Int32
    private let logger: Logger
    private var context: UnsafeMutablePointer<redisContext>?
    private var nextAttempt: Int64 = 0
    static let timeout = timeval(tv_sec: 0, tv_usec: 250_000)
    static let retryPeriod: Int64 = 1_000_000
    static let expirySeconds = 86_400

    /// `url`: `redis://HOST:PORT` (or `HOST:PORT`).
    init?(url: String, logger: Logger) {
        guard let (host, port) = Self.parse(url) else { return nil }
        self.host = host
        self.port = port
        self.logger = logger
    }

    deinit { if let context { redisFree(context) } }

    static func parse(_ url: String) -> (String, Int32)? {
        var rest = Substring(url)
        if rest.hasPrefix("redis://") { rest = rest.dropFirst(8) }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        guard let colon = rest.lastIndex(of: ":") else { return rest.isEmpty ? nil : (String(rest), 6379) }
        guard let port = Int32(rest[rest.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        let host = rest[..<colon]
        return (host.isEmpty ? "127.0.0.1" : String(host), port)
    }

    /// A connection, made now if there is none and the last attempt was over a second ago.
    private func connected() -> UnsafeMutablePointer<redisContext>? {
        if let context { return context }
        let now = Int64(lws_now_usecs())
        guard now >= nextAttempt else { return nil }
        nextAttempt = now + Self.retryPeriod
        guard let made = redisConnectWithTimeout(host, port, Self.timeout) else { return nil }
        if made.pointee.err != 0 {
            logger.debug("session store: no connection", metadata: ["reason": "\(Self.errorText(made))"])
            redisFree(made)
            return nil
        }
        redisSetTimeout(made, Self.timeout)
        context = made
        return made
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private func drop(_ reason: String) {
        if let context {
            logger.debug("session store: connection lost", metadata: ["reason": "\(reason)"])
            redisFree(context)
        }
        context = nil
    }

    /// Queues one command (binary-safe arguments).
    private func append(_ context: UnsafeMutablePointer<redisContext>, _ arguments: [[UInt8]]) {
        var pointers: [UnsafePointer<CChar>?] = []
        var lengths: [Int] = []
        var owned: [UnsafeMutablePointer<CChar>] = []
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

    /// Reads `count` replies; `nil` when the connection failed (then dropped). Each is handed to `body`
    /// before it is freed.
    private func replies(
        _ context: UnsafeMutablePointer<redisContext>, _ count: Int,
        _ body: (Int, UnsafeMutablePointer<redisReply>) -> Void
    ) -> Bool {
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

    private static func key(_ session: String) -> [UInt8] { Array("rk:session:\(session)".utf8) }
    private static func opsKey(_ session: String) -> [UInt8] { Array("rk:session:\(session):ops".utf8) }
    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func write(_ writes: [StoreWrite]) -> Bool {
        guard let context = connected() else { return false }
        var commands = 0
        append(context, [Self.bytes("MULTI")])
        commands += 1
        for write in writes {
            let key = Self.key(write.session)
            let opsKey = Self.opsKey(write.session)
            if write.whole {
                append(context, [Self.bytes("DEL"), opsKey])
                commands += 1
            }
            if !write.operations.isEmpty {
                append(context, [Self.bytes("RPUSH"), opsKey] + write.operations)
                commands += 1
            }
            var fields: [[UInt8]] = [
                Self.bytes("HSET"), key, Self.bytes("node"), Self.bytes(write.node), Self.bytes("summary"),
                write.summary,
                Self.bytes("ops"), Self.bytes(String(write.operationCount)),
            ]
            if write.whole { fields += [Self.bytes("head"), write.head] }
            if let members = write.members { fields += [Self.bytes("members"), members.json()] }
            append(context, fields)
            append(context, [Self.bytes("EXPIRE"), key, Self.bytes(String(Self.expirySeconds))])
            append(context, [Self.bytes("EXPIRE"), opsKey, Self.bytes(String(Self.expirySeconds))])
            commands += 3
        }
        append(context, [Self.bytes("EXEC")])
        commands += 1
        var executed = false
        let read = replies(context, commands) { index, reply in
            if index == commands - 1 { executed = reply.pointee.type == REDIS_REPLY_ARRAY }
        }
        return read && executed
    }

    func load(_ id: String) -> StoreLoad {
        guard let context = connected() else { return .unavailable }
        append(context, [Self.bytes("MULTI")])
        append(context, [Self.bytes("HGETALL"), Self.key(id)])
        append(context, [Self.bytes("LRANGE"), Self.opsKey(id), Self.bytes("0"), Self.bytes("-1")])
        append(context, [Self.bytes("EXEC")])
        var fields: [String: [UInt8]] = [:]
        var operations: [[UInt8]] = []
        var executed = false
        let read = replies(context, 4) { index, reply in
            guard index == 3, reply.pointee.type == REDIS_REPLY_ARRAY, reply.pointee.elements == 2 else { return }
            executed = true
            let hash = reply.pointee.element[0]!
            for pair in stride(from: 0, to: hash.pointee.elements, by: 2) {
                fields[String(decoding: Self.string(hash.pointee.element[pair]!), as: UTF8.self)] = Self.string(
                    hash.pointee.element[pair + 1]!)
            }
            let list = reply.pointee.element[1]!
            for index in 0..<list.pointee.elements { operations.append(Self.string(list.pointee.element[index]!)) }
        }
        guard read, executed else { return .unavailable }
        guard let head = fields["head"], let summary = fields["summary"], let membersJSON = fields["members"],
            let members = StoredMembers(json: membersJSON)
        else { return .missing }
        if let count = fields["ops"].flatMap({ Int(String(decoding: $0, as: UTF8.self)) }), count < operations.count {
            operations.removeLast(operations.count - count)  // never written without its summary, but be sure
        }
        var trace = head
        for (index, operation) in operations.enumerated() {
            if index > 0 { trace.append(UInt8(ascii: ",")) }
            trace += operation
        }
        trace += summary
        let node = String(decoding: fields["node"] ?? [], as: UTF8.self)
        return .found(
            StoredSession(trace: trace, members: members, node: node, nodeAlive: !node.isEmpty && leaseHeld(by: node)))
    }

    // MARK: - Leases (`rk:node:NAME`, the holder's pid, expiring after the lease's duration: NodeLease)

    private static func leaseKey(_ node: String) -> [UInt8] { Array("rk:node:\(node)".utf8) }

    func renewLease(node: String, milliseconds: Int) -> Bool {
        guard let context = connected() else { return false }
        append(
            context,
            [
                Self.bytes("SET"), Self.leaseKey(node), Self.bytes(String(getpid())), Self.bytes("PX"),
                Self.bytes(String(milliseconds)),
            ])
        var stored = false
        let read = replies(context, 1) { _, reply in stored = reply.pointee.type == REDIS_REPLY_STATUS }
        return read && stored
    }

    func endLease(node: String) {
        guard let context = connected() else { return }
        append(context, [Self.bytes("DEL"), Self.leaseKey(node)])
        _ = replies(context, 1) { _, _ in }
    }

    /// Whether node `node`'s lease is current (unknown counts as not: the store just answered, so this is rare).
    private func leaseHeld(by node: String) -> Bool {
        guard let context = connected() else { return false }
        append(context, [Self.bytes("EXISTS"), Self.leaseKey(node)])
        var held = false
        _ = replies(context, 1) { _, reply in
            held = reply.pointee.type == REDIS_REPLY_INTEGER && reply.pointee.integer == 1
        }
        return held
    }

    func remove(_ id: String) {
        guard let context = connected() else { return }
        append(context, [Self.bytes("DEL"), Self.key(id), Self.opsKey(id)])
        _ = replies(context, 1) { _, _ in }
    }

    private static func string(_ reply: UnsafeMutablePointer<redisReply>) -> [UInt8] {
        guard let text = reply.pointee.str else { return [] }
        return Array(UnsafeRawBufferPointer(start: text, count: Int(reply.pointee.len)))
    }
}
