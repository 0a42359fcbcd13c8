import Foundation
import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// A store in memory, applying batches as the Redis script does (docs/SCALING.md, RedisWriter.swift): each
/// write all or nothing, whole or appended; an append only to the copy it continues (its generation, holding
/// exactly its base of operations), a whole write only when no later batch wrote the session (one process
/// here); anything else is refused and changes nothing. Fencing as the script's (``SessionFence``): a write
/// at an older epoch, or at the same epoch by another writer, is refused with the holder's node and epoch, and
/// a take-over leaves the previous node a notice that its next batches read until one clears it. Serving
/// leases as the scripts' (``ServingLease``): every batch stamps its writer's renewal at ``time``, a lease end
/// deletes it, and a take-over over another writer's copy answers how long that writer's lease still runs.
final class MemoryStore: SessionStore {
    struct Stored: Equatable {
        var head: [UInt8] = []
        var generation = ""
        var operations: [[UInt8]] = []
        var summary: [UInt8] = []
        var members: StoredMembers?
        var node = ""
        /// The batch that wrote it last.
        var batch: UInt64 = 0
        var epoch: Int64 = 0
        /// The process that wrote it last (the script's incarnation).
        var writer: String?
    }
    var sessions: [String: Stored] = [:]
    var reachable = true
    /// The writes of every batch applied, in order.
    private(set) var writes: [[StoreWrite]] = []
    /// The appends refused, by session.
    private(set) var refused: [String] = []

    /// Applies `batch` (`reachable`), or fails without changing anything.
    func apply(_ batch: StoreBatch) -> StoreOutcome { report(batch, writer: "").outcome }

    /// Fencing notices left for each node, by session.
    var notices: [String: [String: StoreFence]] = [:]
    /// Every write refused for its epoch.
    private(set) var fencedWrites: [StoreFence] = []

    /// Applies `batch` from process `writer` (`reachable`), or fails without changing anything.
    func report(_ batch: StoreBatch, writer: String) -> StoreReport {
        guard reachable else { return StoreReport(batch: batch.number, outcome: .failed(reason: "unreachable")) }
        if !batch.writes.isEmpty { writes.append(batch.writes) }
        for id in batch.removals where sessions[id]?.writer == nil || sessions[id]?.writer == writer {
            sessions[id] = nil
        }
        defer {
            switch batch.lease {
            case .renew(let node, let milliseconds): renewLease(node: node, milliseconds: milliseconds)
            case .end(let node): leases[node] = nil
            case nil: break
            }
        }
        var refusedNow: [String] = []
        var fenced: [StoreFence] = []
        var claims: [String: Int64] = [:]
        for write in batch.writes {
            let found = sessions[write.session]
            guard
                SessionFence.accepts(
                    stored: found?.epoch ?? 0, storedWriter: found?.writer, epoch: write.epoch, writer: writer)
            else {
                fenced.append(StoreFence(session: write.session, epoch: found!.epoch, node: found!.node))
                continue
            }
            var stored: Stored
            if write.whole {
                if let found, found.batch > batch.number, found.writer == writer {
                    refusedNow.append(write.session)
                    continue
                }
                stored = Stored(head: write.head, generation: write.generation)
            } else {
                guard let found, found.generation == write.generation, found.operations.count == write.base else {
                    refusedNow.append(write.session)
                    continue
                }
                stored = found
            }
            stored.operations += write.operations
            stored.summary = write.summary
            stored.node = write.node
            stored.batch = batch.number
            stored.writer = writer
            stored.epoch = write.epoch
            if let members = write.members { stored.members = members }
            sessions[write.session] = stored
            if let found, found.epoch < write.epoch, !found.node.isEmpty, found.node != write.node {
                notices[found.node, default: [:]][write.session] = StoreFence(
                    session: write.session, epoch: write.epoch, node: write.node)
            }
            if let found, found.epoch < write.epoch, let previous = found.writer, previous != writer,
                let stamp = renewed[previous], stamp + ServingLease.duration > time()
            {
                claims[write.session] = stamp + ServingLease.duration - time()
            }
        }
        refused += refusedNow
        fencedWrites += fenced
        if !batch.node.isEmpty {
            if case .end = batch.lease { renewed[writer] = nil } else { renewed[writer] = time() }
            for seen in batch.noticesSeen where notices[batch.node]?[seen.session]?.epoch == seen.epoch {
                notices[batch.node]?[seen.session] = nil
            }
            fenced += (notices[batch.node] ?? [:]).values.sorted { $0.session < $1.session }
        }
        return StoreReport(
            batch: batch.number, outcome: .written(refused: refusedNow), fenced: fenced, claims: claims)
    }

    func load(_ id: String) -> StoreLoad {
        guard reachable else { return .unavailable }
        guard let stored = sessions[id], let members = stored.members else {
            // as RedisStore: the id's node, alive, made it and has not written it yet
            let node = id.split(separator: ".").first.map(String.init) ?? ""
            let alive = id.contains(".") && (leases[node].map { $0 > time() } ?? false)
            return alive ? .unwritten(node: node) : .missing
        }
        var trace = stored.head
        for (index, operation) in stored.operations.enumerated() {
            if index > 0 { trace.append(UInt8(ascii: ",")) }
            trace += operation
        }
        let alive = leases[stored.node].map { $0 > time() } ?? false
        return .found(
            StoredSession(
                trace: trace + stored.summary, members: members, node: stored.node, nodeAlive: alive,
                epoch: stored.epoch))
    }

    /// When each writer last renewed its serving lease, on ``time``'s clock (µs).
    var renewed: [String: Int64] = [:]

    /// Each node's lease: when it lapses, on ``time``'s clock (µs).
    var leases: [String: Int64] = [:]
    /// The clock the leases run on (a test's host time); 0 unless a test sets it.
    var time: () -> Int64 = { 0 }

    /// Node `node` is alive for `milliseconds` (a batch's lease renewal, or a test's).
    func renewLease(node: String, milliseconds: Int) {
        leases[node] = time() + Int64(milliseconds) * 1000
    }
}

extension TestTransport {
    /// A host that is node `name` of a cluster sharing `store`: its session ids name it (docs/SCALING.md).
    static func node(_ name: String, _ store: MemoryStore) -> TestTransport {
        let transport = TestTransport {
            $0.node = name
            $0.prefixesIDs = true
        }
        transport.store = store
        transport.host.hasStore = true
        return transport
    }

    /// Node `name` of a cluster sharing `store`, whose clock the store's leases run on, with one session it made:
    /// the session's page, its `welcome` and its id.
    static func nodeWithSession(
        _ name: String, _ store: MemoryStore
    ) throws -> (node: TestTransport, page: Connection, welcome: [String: Any], id: String) {
        let node = TestTransport.node(name, store)
        store.time = { [weak node] in node?.now ?? 0 }
        let (page, welcome) = try node.welcomed(TestTransport.hello())
        return (node, page, welcome, try #require(welcome["session"] as? String))
    }

    /// Node `name` sharing `store`, reached through node `failed`'s backend: the balancer found `failed` down,
    /// and this node is its backup. Its clock reads `now`.
    static func backup(_ name: String, of failed: String, at now: Int64, _ store: MemoryStore) -> TestTransport {
        let node = TestTransport.node(name, store)
        node.balancerBackend = failed
        node.now = now
        return node
    }

    /// Opens a connection, sends `hello` on it, and returns it with its `welcome`.
    func welcomed(_ hello: String) throws -> (Connection, [String: Any]) {
        let page = open()
        send(hello, on: page)
        return (page, try #require(welcome(page), "welcomed: \(messages(page))"))
    }
}
