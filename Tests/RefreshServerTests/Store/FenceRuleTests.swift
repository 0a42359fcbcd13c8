import Logging
import RefreshSessions
import Testing

@testable import RefreshServer
@testable import RefreshStore

/// The fence rule is one fact (docs/SCALING.md, "Fencing"): the store's Lua script (``RedisWriter/script``) is
/// what runs, and ``SessionFence/accepts(stored:storedWriter:epoch:writer:)`` states it in Swift, as the
/// specification the host's tests' store (`MemoryStore`) applies. Here every case of a table goes through the
/// real script on a real redis-server and through the Swift statement, and the two must agree: a change to
/// either that the other does not share fails here.
@Suite(.enabled(if: RedisProcess.installed, "needs redis-server (scripts/ensure-deps.sh test)"))
struct FenceRuleTests {
    private let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// One case: the copy's epoch (0: none stored) and its last writer (nil: none stored; "a" or "b": that
    /// process), and a write at `epoch` by `writer`.
    struct Case: CustomStringConvertible {
        var stored: Int64
        var storedWriter: String?
        var epoch: Int64
        var writer: String
        var description: String {
            "copy at \(stored) by \(storedWriter ?? "nobody"), write at \(epoch) by \(writer)"
        }
    }

    /// Every copy (no copy; a copy with no epoch or no writer, as an older server left them; epochs 1 to 3 by
    /// either process) against every write (epochs 1 to 3 by either process): 72 cases.
    static let cases: [Case] = {
        var cases: [Case] = []
        for stored in Int64(0)...3 {
            for storedWriter in [nil, "a", "b"] {
                for epoch in Int64(1)...3 {
                    for writer in ["a", "b"] {
                        cases.append(Case(stored: stored, storedWriter: storedWriter, epoch: epoch, writer: writer))
                    }
                }
            }
        }
        return cases
    }()

    @Test func theScriptFencesAsTheSwiftRuleSays() throws {
        let redis = try RedisProcess()
        let address = try StoreAddress("redis://127.0.0.1:\(redis.port)")
        let writers = [
            "a": RedisWriter(address: address, logger: logger), "b": RedisWriter(address: address, logger: logger),
        ]
        let setup = RedisConnection(address: address, logger: logger)
        #expect(setup.connect())
        for (index, rule) in Self.cases.enumerated() {
            let session = "fence\(index)"
            // The copy as the script finds it: only the fields the fence reads (the batch: a whole write compares it).
            var fields = ["node", "n", "batch", "0"]
            if rule.stored > 0 { fields += ["epoch", String(rule.stored)] }
            if let storedWriter = rule.storedWriter {
                fields += ["writer", try #require(writers[storedWriter]).incarnation]
            }
            if rule.stored > 0 || rule.storedWriter != nil {
                setup.append([RedisStore.bytes("HSET"), RedisStore.key(session)] + fields.map(RedisStore.bytes))
                #expect(setup.replies(1) { _, _ in })
            }
            let writer = try #require(writers[rule.writer])
            let write = StoreWrite(
                session: session, node: "w", whole: true, head: Array("{".utf8), generation: "g",
                operations: [], summary: Array("}".utf8), operationCount: 0, members: nil, epoch: rule.epoch)
            let report = writer.write(StoreBatch(number: 1, writes: [write]))
            let accepted = report.outcome == .written(refused: []) && report.fenced.isEmpty
            let expected = SessionFence.accepts(
                stored: rule.stored, storedWriter: rule.storedWriter.map { writers[$0]!.incarnation },
                epoch: rule.epoch,
                writer: writer.incarnation)
            #expect(accepted == expected, "\(rule)")
            if !expected {
                #expect(report.fenced == [StoreFence(session: session, epoch: rule.stored, node: "n")], "\(rule)")
            }
        }
    }
}
