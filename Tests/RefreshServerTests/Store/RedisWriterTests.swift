import Foundation
import Logging
import RefreshSessions
import Testing

@testable import RefreshServer
@testable import RefreshStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real `redis-server` on a free loopback port, for one test; stopped when the test ends. Started with
/// `posix_spawn` rather than Foundation's `Process`, whose monitoring leaks a weak reference per run that
/// LeakSanitizer reports (`make asan`).
final class RedisProcess {
    let port: Int32
    private var pid: pid_t = 0

    static var installed: Bool { executable != nil }
    private static var executable: String? {
        ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first { access($0, X_OK) == 0 }
    }

    /// `extra`: more of redis-server's options (`--requirepass`, `--user`).
    init(_ extra: [String] = []) throws {
        port = try Self.freePort()
        let path = try #require(Self.executable)
        let arguments =
            [path, "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"] + extra
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        guard posix_spawn(&pid, path, &actions, nil, &argv, environ) == 0 else { throw RedisDidNotStart() }
        // Listening: the state waited for (bounded).
        let deadline = Date(timeIntervalSinceNow: 10)
        while !Self.accepts(port) {
            var status: Int32 = 0
            guard Date() < deadline, waitpid(pid, &status, WNOHANG) == 0 else { throw RedisDidNotStart() }
            usleep(10_000)
        }
    }

    deinit {
        guard pid > 0 else { return }  // never spawned (kill(0, …) would signal the whole process group)
        // SIGKILL: the child inherits the test runner's blocked signals, SIGTERM among them.
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    struct RedisDidNotStart: Error {}

    private static func accepts(_ port: Int32) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func freePort() throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw RedisDidNotStart() }
        return Int32(UInt16(bigEndian: address.sin_port))
    }
}

/// The store's writes against a real Redis (docs/SCALING.md, "Batched writes, off the service thread"): the
/// script applies an append only to the copy it continues, and a whole write only when no later batch of the
/// same process wrote the session, so a batch that Redis runs late (sent on a connection given up on) changes
/// nothing. `e2e/cluster` covers the rest with real processes; this pins the script's rule write by write.
@Suite(.enabled(if: RedisProcess.installed, "needs redis-server (scripts/ensure-deps.sh test)"))
struct RedisWriterTests {
    private let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    private let head = Array(#"{"head":1,"ops":["#.utf8)
    private let members = StoredMembers(members: [(0, String(repeating: "ab", count: 32))], next: 1)

    private func operation(_ index: Int) -> [UInt8] { Array(#"{"op":\#(index)}"#.utf8) }

    private func write(
        whole: Bool, generation: String, operations: Range<Int>, count: Int? = nil, node: String = "a",
        epoch: Int64 = SessionFence.first
    ) -> StoreWrite {
        StoreWrite(
            session: "s1", node: node, whole: whole, head: whole ? head : [], generation: generation,
            operations: operations.map(operation), summary: Array(#"],"summary":\#(operations.upperBound)}"#.utf8),
            operationCount: count ?? operations.upperBound, members: whole ? members : nil, epoch: epoch)
    }

    /// The trace the store would give a take-over: head, the operations, the summary.
    private func stored(_ store: RedisStore) throws -> String {
        guard case .found(let session) = store.load("s1") else {
            Issue.record("the session is not in the store")
            return ""
        }
        return String(decoding: session.trace, as: UTF8.self)
    }

    private func trace(upTo count: Int) -> String {
        #"{"head":1,"ops":["# + (0..<count).map { #"{"op":\#($0)}"# }.joined(separator: ",")
            + #"],"summary":\#(count)}"#
    }

    @Test func lateWritesChangeNothingAndTheCopyStaysWhole() throws {
        let redis = try RedisProcess()
        let writer = RedisWriter(address: try StoreAddress("redis://127.0.0.1:\(redis.port)"), logger: logger)
        let store = RedisStore(address: try StoreAddress("redis://127.0.0.1:\(redis.port)"), logger: logger)
        let whole = StoreBatch(number: 1, writes: [write(whole: true, generation: "a.1", operations: 0..<2)])
        let append = StoreBatch(number: 2, writes: [write(whole: false, generation: "a.1", operations: 2..<3)])
        #expect(writer.apply(whole) == .written(refused: []))
        #expect(writer.apply(append) == .written(refused: []))
        #expect(try stored(store) == trace(upTo: 3))
        // The same append again (run late): its copy no longer has 2 operations.
        #expect(writer.apply(append) == .written(refused: ["s1"]))
        // A newer whole write, then the older batches run late: none of them changes the copy.
        let newer = StoreBatch(number: 4, writes: [write(whole: true, generation: "a.2", operations: 0..<5)])
        #expect(writer.apply(newer) == .written(refused: []))
        let olderWhole = StoreBatch(number: 3, writes: [write(whole: true, generation: "a.3", operations: 0..<4)])
        #expect(writer.apply(olderWhole) == .written(refused: ["s1"]))
        #expect(writer.apply(append) == .written(refused: ["s1"]))
        #expect(try stored(store) == trace(upTo: 5))
        // Another process (a take-over, at the next epoch) writes whole whatever its batch number; this one's
        // appends then stop.
        let other = RedisWriter(address: try StoreAddress("redis://127.0.0.1:\(redis.port)"), logger: logger)
        #expect(other.incarnation != writer.incarnation)
        let takeOver = write(whole: true, generation: "b.1", operations: 0..<6, node: "b", epoch: 2)
        #expect(other.apply(StoreBatch(number: 1, writes: [takeOver])) == .written(refused: []))
        let mine = StoreBatch(number: 5, writes: [write(whole: false, generation: "a.2", operations: 5..<7)])
        #expect(writer.write(mine).fenced == [StoreFence(session: "s1", epoch: 2, node: "b")])
        #expect(try stored(store) == trace(upTo: 6))
    }

    /// Fencing (docs/SCALING.md, "Fencing"; ``SessionFence``): a take-over's first write claims the next epoch;
    /// every write at an older epoch, or at the same epoch from another process, changes nothing and answers
    /// with the holder; the previous holder finds a notice with its next batch; only the copy's last writer
    /// removes it.
    @Test func olderEpochsAreRefusedAndThePreviousHolderIsTold() throws {
        let redis = try RedisProcess()
        let address = try StoreAddress("redis://127.0.0.1:\(redis.port)")
        let (a, b, c) = (
            RedisWriter(address: address, logger: logger), RedisWriter(address: address, logger: logger),
            RedisWriter(address: address, logger: logger)
        )
        let store = RedisStore(address: address, logger: logger)
        #expect(
            a.apply(StoreBatch(number: 1, writes: [write(whole: true, generation: "a.1", operations: 0..<2)]))
                == .written(refused: []))
        guard case .found(let first) = store.load("s1") else { throw RedisProcess.RedisDidNotStart() }
        #expect(first.epoch == SessionFence.first && first.node == "a")
        // b takes it over: the next epoch
        let claim = write(whole: true, generation: "b.1", operations: 0..<3, node: "b", epoch: 2)
        let claimed = b.write(StoreBatch(number: 1, writes: [claim], node: "b"))
        #expect(claimed.outcome == .written(refused: []) && claimed.fenced.isEmpty)
        // a, still alive, writes at its epoch: refused with the holder, append or whole
        let holder = StoreFence(session: "s1", epoch: 2, node: "b")
        let append = a.write(StoreBatch(number: 2, writes: [write(whole: false, generation: "a.1", operations: 2..<4)]))
        #expect(append.outcome == .written(refused: []) && append.fenced == [holder])
        let whole = a.write(StoreBatch(number: 3, writes: [write(whole: true, generation: "a.2", operations: 0..<4)]))
        #expect(whole.fenced == [holder])
        // c read epoch 1 too and claims 2 after b: the same epoch from another process, refused
        let late = c.write(
            StoreBatch(
                number: 1, writes: [write(whole: true, generation: "c.1", operations: 0..<2, node: "c", epoch: 2)]))
        #expect(late.fenced == [holder])
        // b goes on at its epoch
        let next = b.write(
            StoreBatch(
                number: 2, writes: [write(whole: false, generation: "b.1", operations: 3..<5, node: "b", epoch: 2)]))
        #expect(next.outcome == .written(refused: []) && next.fenced.isEmpty)
        #expect(try stored(store) == trace(upTo: 5))
        guard case .found(let now) = store.load("s1") else { throw RedisProcess.RedisDidNotStart() }
        #expect(now.epoch == 2 && now.node == "b")
        // a's next batches read the notice b's claim left it, until one clears it (only at the epoch it names)
        #expect(a.write(StoreBatch(number: 4, writes: [], node: "a")).fenced == [holder])
        #expect(a.write(StoreBatch(number: 5, writes: [], node: "a")).fenced == [holder], "an answer may be lost")
        let older = StoreFence(session: "s1", epoch: 1, node: "b")
        #expect(a.write(StoreBatch(number: 6, writes: [], node: "a", noticesSeen: [older])).fenced == [holder])
        #expect(a.write(StoreBatch(number: 7, writes: [], node: "a", noticesSeen: [holder])).fenced.isEmpty)
        // a's removal (its session expired there) leaves b's copy; b's removes it
        #expect(a.apply(StoreBatch(number: 8, writes: [], removals: ["s1"])) == .written(refused: []))
        #expect(try stored(store) == trace(upTo: 5))
        #expect(b.apply(StoreBatch(number: 3, writes: [], removals: ["s1"])) == .written(refused: []))
        guard case .missing = store.load("s1") else {
            Issue.record("the holder's removal removes it")
            return
        }
    }

    /// Serving leases (``ServingLease``): every batch stamps its process's renewal by Redis's clock; a
    /// take-over's claim over a process whose lease still runs answers how long it still runs, and over one
    /// whose lease ended (SIGTERM's last batch), nothing.
    @Test func aClaimAnswersWhatIsLeftOfThePreviousHoldersLease() throws {
        let redis = try RedisProcess()
        let address = try StoreAddress("redis://127.0.0.1:\(redis.port)")
        let (a, b, c) = (
            RedisWriter(address: address, logger: logger), RedisWriter(address: address, logger: logger),
            RedisWriter(address: address, logger: logger)
        )
        let first = a.write(
            StoreBatch(number: 1, writes: [write(whole: true, generation: "a.1", operations: 0..<2)], node: "a"))
        #expect(first.outcome == .written(refused: []) && first.claims.isEmpty)
        let claim = write(whole: true, generation: "b.1", operations: 0..<2, node: "b", epoch: 2)
        let claimed = b.write(StoreBatch(number: 1, writes: [claim], node: "b"))
        #expect(claimed.outcome == .written(refused: []) && claimed.fenced.isEmpty)
        let wait = try #require(claimed.claims["s1"], "a stamped its lease a moment ago")
        #expect(wait > 0 && wait <= ServingLease.duration + 1_000, "\(wait) µs")
        // b's writes at its own epoch answer no wait (nothing is claimed)
        let append = write(whole: false, generation: "b.1", operations: 2..<3, node: "b", epoch: 2)
        #expect(b.write(StoreBatch(number: 2, writes: [append], node: "b")).claims.isEmpty)
        // b ends its lease (its last batch on SIGTERM): c's claim has nothing to wait for
        let ended = b.write(StoreBatch(number: 3, writes: [], lease: .end(node: "b"), node: "b"))
        #expect(ended.outcome == .written(refused: []))
        let third = write(whole: true, generation: "c.1", operations: 0..<3, node: "c", epoch: 3)
        let taken = c.write(StoreBatch(number: 1, writes: [third], node: "c"))
        #expect(taken.outcome == .written(refused: []) && taken.claims.isEmpty && taken.fenced.isEmpty)
        // b is told with its next batch
        #expect(b.write(StoreBatch(number: 4, writes: [], node: "b")).fenced.map(\.epoch) == [3])
    }

    @Test func aWholeWriteOfThousandsOfOperationsAndTheLease() throws {
        let redis = try RedisProcess()
        let writer = RedisWriter(address: try StoreAddress("redis://127.0.0.1:\(redis.port)"), logger: logger)
        let store = RedisStore(address: try StoreAddress("redis://127.0.0.1:\(redis.port)"), logger: logger)
        let big = StoreBatch(
            number: 1, writes: [write(whole: true, generation: "a.1", operations: 0..<2500)],
            lease: .renew(node: "a", milliseconds: 60_000))
        #expect(writer.apply(big) == .written(refused: []))
        #expect(try stored(store) == trace(upTo: 2500))
        guard case .found(let session) = store.load("s1") else { throw RedisProcess.RedisDidNotStart() }
        #expect(session.node == "a" && session.nodeAlive && session.members == members)
        #expect(writer.apply(StoreBatch(number: 2, writes: [], lease: .end(node: "a"))) == .written(refused: []))
        guard case .found(let after) = store.load("s1") else { throw RedisProcess.RedisDidNotStart() }
        #expect(!after.nodeAlive)
        #expect(writer.apply(StoreBatch(number: 3, writes: [], removals: ["s1"])) == .written(refused: []))
        guard case .missing = store.load("s1") else {
            Issue.record("a removed session is gone")
            return
        }
    }

    /// `--store redis://HOST:PORT/DB` and its password apart (``StoreCredentials``) against a Redis with
    /// `requirepass`: every connection (the writer's, the reader's) authenticates and selects the database; a wrong
    /// or missing password is a store that does not answer, with the reason said.
    @Test func aPasswordAndADatabaseOnEveryConnection() throws {
        let redis = try RedisProcess(["--requirepass", "s3cret:@/x"])
        let password = StoreCredentials(password: "s3cret:@/x")
        let url = "redis://127.0.0.1:\(redis.port)/2"
        let writer = RedisWriter(address: try StoreAddress(url, credentials: password), logger: logger)
        let store = RedisStore(address: try StoreAddress(url, credentials: password), logger: logger)
        let batch = StoreBatch(number: 1, writes: [write(whole: true, generation: "a.1", operations: 0..<2)])
        #expect(writer.apply(batch) == .written(refused: []))
        #expect(try stored(store) == trace(upTo: 2))
        // The session is in database 2, not in 0.
        let zero = RedisStore(
            address: try StoreAddress("redis://127.0.0.1:\(redis.port)", credentials: password), logger: logger)
        guard case .missing = zero.load("s1") else {
            Issue.record("database 0 holds nothing")
            return
        }
        // No password: Redis answers NOAUTH, and the store is unavailable.
        let anonymous = RedisStore(address: try StoreAddress(url, credentials: nil), logger: logger)
        guard case .unavailable = anonymous.load("s1") else {
            Issue.record("without the password the store is unavailable")
            return
        }
        let wrong = RedisWriter(
            address: try StoreAddress(url, credentials: StoreCredentials(password: "nope")), logger: logger)
        guard case .failed(let reason) = wrong.apply(batch) else {
            Issue.record("a wrong password writes nothing")
            return
        }
        #expect(reason.contains("AUTH refused: WRONGPASS"), "\(reason)")
    }

    /// A wrong password, and none where one is wanted: one error line each that says what to do and never holds the
    /// password (not one a second while it lasts); the writes fail as in any outage; once the store accepts the
    /// credentials (its password changed to this one), a notice, and the writes go through.
    @Test func aRefusedPasswordIsOneClearErrorWithoutThePassword() throws {
        let redis = try RedisProcess(["--requirepass", "the-right-one"])
        let lines = LogLines()
        let logger = Logger(label: "test") { _ in lines }
        let url = "redis://127.0.0.1:\(redis.port)"
        let wrong = RedisWriter(
            address: try StoreAddress(url, credentials: StoreCredentials(password: "hunter2-wrong")), logger: logger)
        let batch = StoreBatch(number: 1, writes: [write(whole: true, generation: "a.1", operations: 0..<2)])
        guard case .failed(let reason) = wrong.apply(batch) else {
            Issue.record("a wrong password writes nothing")
            return
        }
        #expect(!reason.contains("hunter2"), "\(reason)")
        let errors = lines.all.filter { $0.level == .error }
        #expect(errors.count == 1, "\(lines.all)")
        #expect(errors.first?.text.contains("the session store refused this server's credentials") == true)
        #expect(errors.first?.text.contains("WRONGPASS") == true)
        #expect(!lines.all.contains { $0.text.contains("hunter2") }, "\(lines.all)")
        // None given, one wanted: NOAUTH, said once, naming where to give it.
        let none = LogLines()
        let anonymous = RedisStore(
            address: try StoreAddress(url, credentials: nil), logger: Logger(label: "test") { _ in none })
        guard case .unavailable = anonymous.load("s1") else {
            Issue.record("without the password the store is unavailable")
            return
        }
        let noAuth = none.all.filter { $0.level == .error }
        #expect(
            noAuth.count == 1 && noAuth[0].text.contains("wants a password and this server has none"), "\(none.all)")
        #expect(noAuth.first?.text.contains("REFRESHKIT_STORE_PASSWORD") == true && noAuth[0].text.contains("NOAUTH"))
        // The store's password becomes this one: the next connection (a second later at most) is accepted.
        let admin = RedisConnection(
            address: try StoreAddress(url, credentials: StoreCredentials(password: "the-right-one")),
            logger: self.logger)
        #expect(admin.connect())
        admin.append(["CONFIG", "SET", "requirepass", "hunter2-wrong"].map { Array($0.utf8) })
        var answer: [UInt8] = []
        #expect(admin.replies(1) { _, reply in answer = RedisConnection.string(reply) } && answer == Array("OK".utf8))
        // The writer tries again once its retry period (a second) is over: the state waited for, bounded.
        let deadline = Date(timeIntervalSinceNow: 10)
        var outcome = wrong.apply(batch)
        while outcome != .written(refused: []), Date() < deadline {
            usleep(20_000)
            outcome = wrong.apply(batch)
        }
        #expect(outcome == .written(refused: []))
        #expect(lines.all.filter { $0.level == .error }.count == 1, "\(lines.all)")
        #expect(lines.all.contains { $0.level == .notice && $0.text.contains("accepted this server's credentials") })
        #expect(!lines.all.contains { $0.text.contains("hunter2") }, "\(lines.all)")
    }

    /// A Redis ACL user: `redis://USER@HOST` and the password apart send `AUTH USER PASSWORD`.
    @Test func anACLUser() throws {
        let redis = try RedisProcess(["--user", "default", "off", "--user", "writer", "on", ">pw", "~*", "&*", "+@all"])
        let url = "redis://writer@127.0.0.1:\(redis.port)/1"
        let password = StoreCredentials(password: "pw")
        let writer = RedisWriter(address: try StoreAddress(url, credentials: password), logger: logger)
        let store = RedisStore(address: try StoreAddress(url, credentials: password), logger: logger)
        let batch = StoreBatch(number: 1, writes: [write(whole: true, generation: "a.1", operations: 0..<3)])
        #expect(writer.apply(batch) == .written(refused: []))
        #expect(try stored(store) == trace(upTo: 3))
    }
}

/// What a logger was given, line by line (its level, the message and its metadata as text).
final class LogLines: LogHandler, @unchecked Sendable {
    struct Line: CustomStringConvertible {
        let level: Logger.Level
        let text: String
        var description: String { "\(level) \(text)" }
    }

    private let lock = NSLock()
    private var lines: [Line] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var all: [Line] { lock.withLock { lines } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        lock.withLock {
            lines.append(Line(level: event.level, text: "\(event.message) \(fields.joined(separator: " "))"))
        }
    }
}
