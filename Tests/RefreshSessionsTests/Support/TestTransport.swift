import Foundation
import Logging
import RefreshKit
import RefreshWire

@testable import RefreshSessions

/// Drives a real ``SessionHost`` the way the libwebsockets adapter does, without a socket: it tells the host
/// what happened (a connection opened, a message arrived, a connection can be written, time passed) and
/// carries out the host's actions, recording what they would have put on the wire.
final class TestTransport {
    let host: SessionHost
    /// The transport's clock, µs; tests move it.
    var now: Int64 = 1_000_000
    private var nextID: UInt64 = 1
    /// Every message written to each connection, in order, as text.
    private(set) var written: [UInt64: [String]] = [:]
    /// Pings written to each connection.
    private(set) var pings: [UInt64: Int] = [:]
    /// The close each connection was sent.
    private(set) var closes: [UInt64: CloseCode] = [:]
    private(set) var killed: Set<UInt64> = []
    /// Connections that asked to be written, in the order they asked.
    private var writable: [Connection] = []
    /// When the host's timer is armed for.
    private(set) var tickArmedAt: Int64?
    private(set) var sweepArmed = false
    /// How many frames (`frame` or `delta`) were written at once (`writeSoon`) rather than on a later write.
    private(set) var framesWrittenAtOnce = 0
    /// Whether the store's batches wait in ``storeBatches`` for ``answerStore(_:)`` (as the store thread
    /// answers later); otherwise the host's store, a ``MemoryStore``, applies each at once and answers.
    var holdsStoreBatches = false
    /// Batches handed over and not answered yet, oldest first.
    private(set) var storeBatches: [StoreBatch] = []
    /// The store the host's reads are carried out with (and its batches applied to, unless held).
    var store: MemoryStore?
    /// Whether the host's reads wait in ``storeReads`` for ``answerStoreRead()`` (as a slow store's would);
    /// otherwise each is answered at once from ``store``.
    var holdsStoreReads = false
    /// Reads asked for and not answered yet, oldest first.
    private(set) var storeReads: [StoreRead] = []

    /// The feed requests the host handed over and not answered yet, oldest first (``answerFeed(_:ms:)``).
    private(set) var feedRequests: [(session: String, id: Int, request: FeedRequest)] = []

    /// The `X-RefreshKit-Backend` header of the connections it opens from now on: the node whose backend the
    /// balancer routed them through (``Connection/balancerBackend``); nil: no balancer.
    var balancerBackend: String?

    /// Like the server at its end: the host lets go of every connection and session.
    deinit { host.tearDown() }

    init(_ configure: (inout SessionHost.Configuration) -> Void = { _ in }) {
        var configuration = SessionHost.Configuration.production
        configure(&configuration)
        host = SessionHost(
            configuration: configuration, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
    }

    // MARK: - Events

    func open(peer: String = "127.0.0.1", credentials: String? = nil) -> Connection {
        defer { nextID += 1 }
        let connection = host.opened(id: nextID, peer: peer, credentials: credentials, at: now)
        connection.balancerBackend = balancerBackend
        carryOut()
        return connection
    }

    /// One message arrives whole on `connection`, in a read that goes on (the frame it makes is held).
    func receive(_ text: String, on connection: Connection) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { host.received($0, binary: false, isLast: true, on: connection, at: now) }
        carryOut()
    }

    /// One binary message arrives whole on `connection`, in a read that goes on (as ``receive(_:on:)``).
    func receive(binary bytes: [UInt8], on connection: Connection) {
        bytes.withUnsafeBytes { host.received($0, binary: true, isLast: true, on: connection, at: now) }
        carryOut()
    }

    /// The read is over: the held frame goes out.
    func endOfRead() {
        host.flushHeldFrame()
        carryOut()
    }

    /// `receive` then `endOfRead`, then every connection is written until it has nothing more to say.
    func send(_ text: String, on connection: Connection) {
        receive(text, on: connection)
        endOfRead()
        flush()
    }

    /// ``send(_:on:)`` for a binary message.
    func send(binary bytes: [UInt8], on connection: Connection) {
        receive(binary: bytes, on: connection)
        endOfRead()
        flush()
    }

    func close(_ connection: Connection) {
        host.closed(connection, at: now)
        carryOut()
        flush()
    }

    /// Moves the clock to the armed tick and runs it (and whatever it makes written).
    func runTick() {
        guard let at = tickArmedAt else { return }
        now = max(now, at)
        tickArmedAt = nil
        host.tick(at: now)
        carryOut()
        flush()
    }

    /// The store answers the oldest batch waiting (the server's adapter passes its store thread's answers on
    /// before each sweep). - Returns: that batch.
    @discardableResult
    func answerStore(_ outcome: StoreOutcome) -> StoreBatch? {
        guard !storeBatches.isEmpty else { return nil }
        let batch = storeBatches.removeFirst()
        host.storeAnswered(StoreReport(batch: batch.number, outcome: outcome), at: now)
        carryOut()
        return batch
    }

    /// The store answers the oldest read waiting, from ``store`` as it is now. - Returns: that read.
    @discardableResult
    func answerStoreRead(_ load: StoreLoad? = nil) -> StoreRead? {
        guard !storeReads.isEmpty else { return nil }
        let read = storeReads.removeFirst()
        host.storeRead(StoreReadAnswer(read: read, load: load ?? loaded(read)), at: now)
        carryOut()
        endOfRead()
        flush()
        return read
    }

    /// The source answers the oldest feed request waiting with `outcome` (the server's adapter brings its
    /// worker's answers so). - Returns: that request.
    @discardableResult
    func answerFeed(_ outcome: (FeedRequest) -> FeedOutcome, ms: Double = 2) -> FeedRequest? {
        guard !feedRequests.isEmpty else { return nil }
        let asked = feedRequests.removeFirst()
        let answer = FeedAnswerInput(request: asked.id, outcome: outcome(asked.request), durationMs: ms)
        host.feedAnswered(session: asked.session, answer: answer, at: now)
        carryOut()
        flush()
        return asked.request
    }

    /// The poll read `page` as the source's newest.
    func polled(_ page: FeedPage) {
        host.feedPolled(page, at: now)
        carryOut()
        flush()
    }

    private func loaded(_ read: StoreRead) -> StoreLoad { store?.load(read.session) ?? .unavailable }

    /// A SIGTERM: the host hands its sessions over and drains its connections.
    func beginShutdown() {
        host.beginShutdown(at: now)
        carryOut()
    }

    func sweep() {
        sweepArmed = false
        host.sweep(at: now)
        carryOut()
        flush()
    }

    /// Writes every connection that asked, until none asks any more.
    func flush() {
        while !writable.isEmpty {
            let connection = writable.removeFirst()
            write(connection)
            carryOut()
        }
    }

    private func write(_ connection: Connection) {
        let outcome = host.writeable(connection, at: now) { kind, buffer in
            switch kind {
            case .text: written[connection.id, default: []].append(String(decoding: buffer, as: UTF8.self))
            case .ping: pings[connection.id, default: 0] += 1
            }
            return true
        }
        if case .close(let code) = outcome { closes[connection.id] = code }
    }

    /// Names this transport's writes in a shared ``MemoryStore`` (the script's incarnation: one per process).
    var writerName: String { "\(ObjectIdentifier(self).hashValue)" }

    /// Carries out the host's actions through its own loop, as the server's adapter does.
    private func carryOut() {
        host.carryOutActions { action in
            switch action {
            case .wantWrite(let connection):
                if !writable.contains(where: { $0 === connection }) { writable.append(connection) }
            case .writeSoon(let connection):
                let before = written[connection.id]?.count ?? 0
                write(connection)
                if (written[connection.id]?.count ?? 0) > before { framesWrittenAtOnce += 1 }
            case .kill(let connection):
                killed.insert(connection.id)
            case .armTick(let deadline):
                tickArmedAt = deadline
            case .armSweep:
                sweepArmed = true
            case .writeStore(let batch):
                if !holdsStoreBatches, let store {
                    host.storeAnswered(store.report(batch, writer: writerName), at: now)
                } else {
                    storeBatches.append(batch)
                }
            case .readStore(let read):
                if holdsStoreReads {
                    storeReads.append(read)
                } else {
                    host.storeRead(StoreReadAnswer(read: read, load: loaded(read)), at: now)
                }
            case .requestFeed(let session, let id, let request):
                feedRequests.append((session, id, request))
            }
        }
    }

    // MARK: - Reading what was written

    /// The messages written to `connection`, parsed.
    func messages(_ connection: Connection) -> [[String: Any]] {
        (written[connection.id] ?? []).compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func messages(_ connection: Connection, type: String) -> [[String: Any]] {
        messages(connection).filter { $0["type"] as? String == type }
    }

    /// The frames (`frame` and `delta`) written to `connection`.
    func frames(_ connection: Connection) -> [[String: Any]] {
        messages(connection).filter { ["frame", "delta"].contains($0["type"] as? String) }
    }

    func welcome(_ connection: Connection) -> [String: Any]? {
        messages(connection, type: "welcome").last
    }

    func errors(_ connection: Connection) -> [String] {
        messages(connection, type: "error").compactMap { $0["code"] as? String }
    }

    // MARK: - Page messages

    static func hello(
        session: String? = nil, token: String? = nil, key: String? = nil, preset: String = "ios"
    ) -> String {
        var fields = [#""type":"hello""#, #""viewport":{"w":390,"h":844}"#, #""dpr":3"#, #""preset":"\#(preset)""#]
        if let session { fields.append(#""session":"\#(session)""#) }
        if let token { fields.append(#""token":"\#(token)""#) }
        if let key { fields.append(#""key":"\#(key)""#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The key of the owner's `role` share link in its `welcome` (`links`, PROTOCOL.md "Roles").
    static func key(in welcome: [String: Any], _ role: String = "drive") -> String? {
        guard let link = (welcome["links"] as? [String: String])?[role] else { return nil }
        return link.split(separator: "&").first { $0.hasPrefix("k=") }.map { String($0.dropFirst(2)) }
    }

    /// The key of session `id`'s `role` link, as this transport's host made it (its owner's welcome had it).
    func key(of id: String, _ role: MemberRole = .drive) -> String? { host.sessions[id]?.keys.keys[role] }

    /// A `hello` that joins session `id`, made by this transport's host, with its `role` link's key.
    func join(_ id: String, _ role: MemberRole = .drive) -> String {
        Self.hello(session: id, key: key(of: id, role))
    }

    /// ``touch(_:dy:seq:pointer:)`` in its binary spelling (``BinaryTouch``).
    func binaryTouch(_ phase: TouchPhase, dy: Double, seq: UInt64? = nil, pointer: Int = 0) -> [UInt8] {
        BinaryTouch.bytes(
            TouchInput(phase: phase, delta: Point(x: 0, y: dy), pageTime: Double(now) / 1000, pointer: pointer),
            seq: seq)
    }

    /// A touch at the transport's time (page time = server time, ms).
    func touch(_ phase: String, dy: Double, seq: UInt64? = nil, pointer: Int = 0) -> String {
        let numbered = seq.map { #","seq":\#($0)"# } ?? ""
        return
            #"{"type":"touch","phase":"\#(phase)","dx":0,"dy":\#(dy),"t":\#(Double(now) / 1000),"id":\#(pointer)\#(numbered)}"#
    }
}
