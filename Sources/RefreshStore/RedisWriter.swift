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
/// A write refused answers 0, which the host turns into a whole write of that session. Before all that, the
/// script fences (``SessionFence``): a write at an older epoch than the copy's answers with the holder, and the
/// host lets the session go.
final class RedisWriter {
    private let connection: RedisConnection
    /// The scripts' SHA-1s on the current connection (`SCRIPT LOAD` on every new connection): the write's, the
    /// fencing notices' and the removal's.
    private var scriptHash: [UInt8] = []
    private var fencesHash: [UInt8] = []
    private var removalHash: [UInt8] = []
    /// Names this writer's writes (its pid, its start time in µs and 32 random bits): the host's generations and
    /// batch numbers count from 1 in every run, and a node restarted under its name must not be taken for its
    /// earlier run. The random bits tell apart writers made in the same microsecond by one process (tests make
    /// several: two with the same name were taken for one, and one's write at the other's epoch was not fenced).
    let incarnation: String

    init(address: StoreAddress, logger: Logger) {
        connection = RedisConnection(address: address, logger: logger)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let started = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
        incarnation = "\(getpid())-\(started)-\(String(UInt32.random(in: .min ... .max), radix: 16))"
        connection.prepare = { [unowned self] connection in
            let scripts = [Self.script, Self.fencesScript, Self.removalScript]
            for script in scripts {
                connection.append([RedisStore.bytes("SCRIPT"), RedisStore.bytes("LOAD"), RedisStore.bytes(script)])
            }
            var loaded: [[UInt8]] = []
            let read = connection.replies(scripts.count) { _, reply in
                loaded.append(reply.pointee.type == REDIS_REPLY_STRING ? RedisConnection.string(reply) : [])
            }
            guard read, loaded.count == scripts.count, !loaded.contains(where: \.isEmpty) else { return false }
            (scriptHash, fencesHash, removalHash) = (loaded[0], loaded[1], loaded[2])
            return true
        }
    }

    /// One session's write. `KEYS`: the hash and the list. `ARGV`: whole (`1`/`0`), generation, base, count,
    /// node, summary, head, members (empty: unchanged), expiry (s), writer (the incarnation), batch number,
    /// epoch, the serving lease (ms, ``ServingLease/duration``), then the operations. RPUSH takes the operations in pieces of 1000 (Lua's `unpack` is bounded by its
    /// stack).
    ///
    /// Fencing (``SessionFence``, the lines marked so): a write whose epoch (ARGV[12]) is older than the copy's,
    /// or the same epoch written by another process, changes nothing and answers `{'fenced', node, epoch}` with
    /// the holder's; an accepted write sets the epoch, and one that raises it from another node's copy (a
    /// take-over) leaves that node a notice in `rk:fenced:NODE` (session → "epoch node"), which the node's next
    /// batch collects (``fencesScript``). Such a take-over answers `{'claimed', ms}` when the previous holder's
    /// serving lease still runs (its last stamp, `rk:renewed:WRITER`, + the lease − now, by Redis's clock): the
    /// new holder sends no frame of the session until that has passed (``ServingLease``).
    static let script = """
        local stored = redis.call('HMGET', KEYS[1], 'generation', 'ops', 'writer', 'batch', 'epoch', 'node')
        local epoch, mine = tonumber(stored[5]) or 0, tonumber(ARGV[12])
        if epoch > mine or (epoch == mine and stored[3] and stored[3] ~= ARGV[10]) then
          return {'fenced', stored[6] or '', epoch}
        end
        if ARGV[1] == '1' then
          if stored[3] == ARGV[10] and tonumber(stored[4]) > tonumber(ARGV[11]) then return 0 end
          redis.call('DEL', KEYS[2])
          redis.call('HSET', KEYS[1], 'head', ARGV[7], 'generation', ARGV[2])
        elseif stored[1] ~= ARGV[2] or stored[2] ~= ARGV[3] then
          return 0
        end
        for first = 14, #ARGV, 1000 do
          redis.call('RPUSH', KEYS[2], unpack(ARGV, first, math.min(first + 999, #ARGV)))
        end
        redis.call('HSET', KEYS[1], 'node', ARGV[5], 'summary', ARGV[6], 'ops', ARGV[4], 'writer', ARGV[10],
          'batch', ARGV[11], 'epoch', ARGV[12])
        if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'members', ARGV[8]) end
        redis.call('EXPIRE', KEYS[1], ARGV[9])
        redis.call('EXPIRE', KEYS[2], ARGV[9])
        if epoch < mine and stored[6] and stored[6] ~= ARGV[5] then
          local notices = 'rk:fenced:' .. stored[6]
          redis.call('HSET', notices, string.sub(KEYS[1], 12), ARGV[12] .. ' ' .. ARGV[5])
          redis.call('EXPIRE', notices, ARGV[9])
        end
        if epoch < mine and stored[3] and stored[3] ~= ARGV[10] then
          local renewed = tonumber(redis.call('GET', 'rk:renewed:' .. stored[3]))
          if renewed then
            local now = redis.call('TIME')
            local left = renewed + tonumber(ARGV[13]) + 1 - (tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000))
            if left > 0 then return {'claimed', left} end
          end
        end
        return 1
        """

    /// Stamps this process's serving lease and collects the fencing notices left for its node, in one step
    /// (``ServingLease``): `KEYS` are `rk:fenced:NODE` and `rk:renewed:INCARNATION`; `ARGV[1]` the lease (ms;
    /// `0`: the lease ends, the stamp is deleted), then pairs of a session and an epoch: notices an answer
    /// already brought, cleared while they still name that epoch. Answers the notices left (session,
    /// "epoch node", …). A notice is never cleared by the batch that reads it, so one whose answer is lost
    /// comes back with the next.
    static let fencesScript = """
        if ARGV[1] == '0' then
          redis.call('DEL', KEYS[2])
        else
          local now = redis.call('TIME')
          redis.call('SET', KEYS[2], now[1] .. string.format('%03d', math.floor(tonumber(now[2]) / 1000)), 'PX', ARGV[1])
        end
        for i = 2, #ARGV - 1, 2 do
          local notice = redis.call('HGET', KEYS[1], ARGV[i])
          if notice and string.match(notice, '^%d+') == ARGV[i + 1] then redis.call('HDEL', KEYS[1], ARGV[i]) end
        end
        return redis.call('HGETALL', KEYS[1])
        """

    /// A removal (`KEYS`: the hash and the list; `ARGV[1]`: the writer): only the process that wrote the copy
    /// last removes it, so a process that lost the session to a take-over (its epoch older) cannot delete the
    /// new holder's copy.
    static let removalScript = """
        local writer = redis.call('HGET', KEYS[1], 'writer')
        if writer and writer ~= ARGV[1] then return 0 end
        redis.call('DEL', KEYS[1], KEYS[2])
        return 1
        """

    /// Applies `batch`: its removals, each write, then its lease change (after the writes: a SIGTERM's last
    /// batch ends the lease only once every session is written). Blocks (each step given at most 250 ms).
    func apply(_ batch: StoreBatch) -> StoreOutcome { write(batch).outcome }

    /// ``apply(_:)``, with the sessions the store says another process holds now (``StoreFence``): writes it
    /// refused for their epoch, and the notices left for the batch's node.
    func write(_ batch: StoreBatch) -> StoreReport {
        guard connection.connect() else {
            return StoreReport(batch: batch.number, outcome: .failed(reason: "no connection: \(connection.lastError)"))
        }
        let bytes = RedisStore.bytes
        for session in batch.removals {
            connection.append([
                bytes("EVALSHA"), removalHash, bytes("2"), RedisStore.key(session), RedisStore.opsKey(session),
                bytes(incarnation),
            ])
        }
        let expiry = bytes(String(RedisStore.expirySeconds))
        for write in batch.writes {
            var arguments: [[UInt8]] = [
                bytes("EVALSHA"), scriptHash, bytes("2"), RedisStore.key(write.session),
                RedisStore.opsKey(write.session),
                bytes(write.whole ? "1" : "0"), bytes(incarnation + "/" + write.generation),
                bytes(String(write.base)), bytes(String(write.operationCount)), bytes(write.node), write.summary,
                write.head, write.members?.json() ?? [], expiry, bytes(incarnation), bytes(String(batch.number)),
                bytes(String(write.epoch)), bytes(String(ServingLease.duration / 1000)),
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
        if !batch.node.isEmpty {
            var ending = false
            if case .end = batch.lease { ending = true }
            var arguments = [
                bytes("EVALSHA"), fencesHash, bytes("2"), RedisStore.fencesKey(batch.node),
                RedisStore.renewedKey(incarnation), bytes(ending ? "0" : String(ServingLease.duration / 1000)),
            ]
            for notice in batch.noticesSeen { arguments += [bytes(notice.session), bytes(String(notice.epoch))] }
            connection.append(arguments)
        }
        var refused: [String] = []
        var fenced: [StoreFence] = []
        var claims: [String: Int64] = [:]
        var error: String?
        let removals = batch.removals.count
        let writes = removals + batch.writes.count
        let lease = writes + (batch.lease == nil ? 0 : 1)
        let count = lease + (batch.node.isEmpty ? 0 : 1)
        let read = connection.replies(count) { index, reply in
            if reply.pointee.type == REDIS_REPLY_ERROR {
                error = error ?? String(decoding: RedisConnection.string(reply), as: UTF8.self)
                return
            }
            if index >= lease {
                fenced += Self.notices(reply)
                return
            }
            guard index >= removals, index < writes else { return }
            let session = batch.writes[index - removals].session
            switch reply.pointee.type {
            case REDIS_REPLY_INTEGER:
                if reply.pointee.integer != 1 { refused.append(session) }
            case REDIS_REPLY_ARRAY:
                if let wait = Self.claimed(reply) {
                    claims[session] = wait
                    return
                }
                guard let fence = Self.fence(reply, session: session) else {
                    error = error ?? "an unexpected reply"
                    return
                }
                fenced.append(fence)
            default:
                error = error ?? "an unexpected reply"
            }
        }
        guard read else { return StoreReport(batch: batch.number, outcome: .failed(reason: connection.lastError)) }
        if let error {
            // e.g. NOSCRIPT after a SCRIPT FLUSH: a new connection loads the scripts again.
            connection.drop(error)
            return StoreReport(batch: batch.number, outcome: .failed(reason: error))
        }
        return StoreReport(
            batch: batch.number, outcome: .written(refused: refused), fenced: fenced, claims: claims)
    }

    // MARK: - Fencing replies (SessionFence)

    /// The write script's `{'claimed', ms}`: how long the previous holder's serving lease still runs (µs).
    private static func claimed(_ reply: UnsafeMutablePointer<redisReply>) -> Int64? {
        guard reply.pointee.elements == 2, let tag = reply.pointee.element[0], let wait = reply.pointee.element[1],
            String(decoding: RedisConnection.string(tag), as: UTF8.self) == "claimed"
        else { return nil }
        return wait.pointee.integer * 1000
    }

    /// The write script's `{'fenced', node, epoch}` for `session`.
    private static func fence(_ reply: UnsafeMutablePointer<redisReply>, session: String) -> StoreFence? {
        guard reply.pointee.elements == 3, let tag = reply.pointee.element[0], let node = reply.pointee.element[1],
            let epoch = reply.pointee.element[2],
            String(decoding: RedisConnection.string(tag), as: UTF8.self) == "fenced"
        else { return nil }
        return StoreFence(
            session: session, epoch: epoch.pointee.integer,
            node: String(decoding: RedisConnection.string(node), as: UTF8.self))
    }

    /// The fencing notices script's answer: session, "epoch node", … (a malformed pair is skipped).
    private static func notices(_ reply: UnsafeMutablePointer<redisReply>) -> [StoreFence] {
        guard reply.pointee.type == REDIS_REPLY_ARRAY else { return [] }
        var fences: [StoreFence] = []
        for pair in stride(from: 0, to: reply.pointee.elements - 1, by: 2) {
            guard let key = reply.pointee.element[pair], let value = reply.pointee.element[pair + 1] else { continue }
            let words = String(decoding: RedisConnection.string(value), as: UTF8.self).split(separator: " ")
            guard words.count == 2, let epoch = Int64(words[0]) else { continue }
            fences.append(
                StoreFence(
                    session: String(decoding: RedisConnection.string(key), as: UTF8.self), epoch: epoch,
                    node: String(words[1])))
        }
        return fences
    }
}
