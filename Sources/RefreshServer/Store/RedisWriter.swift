import CHiredis
import Logging
import RefreshSessions

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Applies the host's batches to Redis (docs/SCALING.md), on the store thread (``StoreThread``), through a
/// connection of its own.
///
/// Each session's write is one call of a Lua script (``script``), which Redis runs atomically, so a
/// session's copy is never seen half written; the calls of a batch are pipelined (one round trip). The script
/// is what makes a batch that runs late harmless. A batch given up on (no reply within 250 ms: a Redis that
/// hangs) may still sit in Redis's socket buffer and run later, after newer writes sent on a new connection:
/// - an append applies only to the copy it continues (its generation, holding exactly its base of
///   operations), so a late one finds a newer copy and changes nothing;
/// - a whole write carries its batch's number and this process's ``incarnation``, and changes nothing when the
///   copy was written by a later batch of the same process, so a late one does not put an older copy back.
/// A write refused answers 0, which the host turns into a whole write of that session.
final class RedisWriter {
    private let connection: RedisConnection
    /// The script's SHA-1 on the current connection (`SCRIPT LOAD` on every new connection).
    private var scriptHash: [UInt8] = []
    /// Names this process's writes (its pid and start time): the host's generations and batch numbers count
    /// from 1 in every run, and a node restarted under its name must not be taken for its earlier run.
    let incarnation: String

    init(address: StoreAddress, logger: Logger) {
        connection = RedisConnection(address: address, logger: logger)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        incarnation = "\(getpid())-\(Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)"
        connection.prepare = { [unowned self] connection in
            connection.append([RedisStore.bytes("SCRIPT"), RedisStore.bytes("LOAD"), RedisStore.bytes(Self.script)])
            var loaded: [UInt8] = []
            let read = connection.replies(1) { _, reply in
                if reply.pointee.type == REDIS_REPLY_STRING { loaded = RedisConnection.string(reply) }
            }
            scriptHash = loaded
            return read && !loaded.isEmpty
        }
    }

    /// One session's write. `KEYS`: the hash and the list. `ARGV`: whole (`1`/`0`), generation, base, count,
    /// node, summary, head, members (empty: unchanged), expiry (s), writer (the incarnation), batch number,
    /// then the operations. RPUSH takes the operations in pieces of 1000 (Lua's `unpack` is bounded by its
    /// stack).
    static let script = """
        local stored = redis.call('HMGET', KEYS[1], 'generation', 'ops', 'writer', 'batch')
        if ARGV[1] == '1' then
          if stored[3] == ARGV[10] and tonumber(stored[4]) > tonumber(ARGV[11]) then return 0 end
          redis.call('DEL', KEYS[2])
          redis.call('HSET', KEYS[1], 'head', ARGV[7], 'generation', ARGV[2])
        elseif stored[1] ~= ARGV[2] or stored[2] ~= ARGV[3] then
          return 0
        end
        for first = 12, #ARGV, 1000 do
          redis.call('RPUSH', KEYS[2], unpack(ARGV, first, math.min(first + 999, #ARGV)))
        end
        redis.call('HSET', KEYS[1], 'node', ARGV[5], 'summary', ARGV[6], 'ops', ARGV[4], 'writer', ARGV[10],
          'batch', ARGV[11])
        if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'members', ARGV[8]) end
        redis.call('EXPIRE', KEYS[1], ARGV[9])
        redis.call('EXPIRE', KEYS[2], ARGV[9])
        return 1
        """

    /// Applies `batch`: its removals, each write, then its lease change (after the writes: a SIGTERM's last
    /// batch ends the lease only once every session is written). Blocks (at most 250 ms per step).
    func apply(_ batch: StoreBatch) -> StoreOutcome {
        guard connection.connect() else { return .failed(reason: "no connection: \(connection.lastError)") }
        let bytes = RedisStore.bytes
        for session in batch.removals {
            connection.append([bytes("DEL"), RedisStore.key(session), RedisStore.opsKey(session)])
        }
        let expiry = bytes(String(RedisStore.expirySeconds))
        for write in batch.writes {
            var arguments: [[UInt8]] = [
                bytes("EVALSHA"), scriptHash, bytes("2"), RedisStore.key(write.session),
                RedisStore.opsKey(write.session),
                bytes(write.whole ? "1" : "0"), bytes(incarnation + "/" + write.generation),
                bytes(String(write.base)), bytes(String(write.operationCount)), bytes(write.node), write.summary,
                write.head, write.members?.json() ?? [], expiry, bytes(incarnation), bytes(String(batch.number)),
            ]
            arguments += write.operations
            connection.append(arguments)
        }
        switch batch.lease {
        case .renew(let node, let milliseconds):
            connection.append([
                bytes("SET"), RedisStore.leaseKey(node), bytes(String(getpid())), bytes("PX"),
                bytes(String(milliseconds)),
            ])
        case .end(let node):
            connection.append([bytes("DEL"), RedisStore.leaseKey(node)])
        case nil:
            break
        }
        var refused: [String] = []
        var error: String?
        let removals = batch.removals.count
        let writes = removals + batch.writes.count
        let read = connection.replies(writes + (batch.lease == nil ? 0 : 1)) { index, reply in
            guard index >= removals else { return }
            guard index < writes else {
                if reply.pointee.type == REDIS_REPLY_ERROR {
                    error = error ?? String(decoding: RedisConnection.string(reply), as: UTF8.self)
                }
                return
            }
            switch reply.pointee.type {
            case REDIS_REPLY_INTEGER:
                if reply.pointee.integer != 1 { refused.append(batch.writes[index - removals].session) }
            case REDIS_REPLY_ERROR:
                error = error ?? String(decoding: RedisConnection.string(reply), as: UTF8.self)
            default:
                error = error ?? "an unexpected reply"
            }
        }
        guard read else { return .failed(reason: connection.lastError) }
        if let error {
            // e.g. NOSCRIPT after a SCRIPT FLUSH: a new connection loads the script again.
            connection.drop(error)
            return .failed(reason: error)
        }
        return .written(refused: refused)
    }
}
