import Foundation
import Logging
import RefreshFeeds
import RefreshHosting
import RefreshKit
import RefreshSessions
import RefreshStore
import Synchronization
import Testing

/// The host driver with a transport that records what it is asked (its four things), as each real transport
/// would carry them out (docs/EMBEDDING.md, "A transport of one's own").
@Suite struct HostDriverTests {
    @Test func itsConfigurationNamesTheSourceAndPrefixesIDsWithAStore() throws {
        let source = HostedSource(PageSource(), kind: .sqlite, postable: true)
        let store = try StoreAddress("redis://127.0.0.1:6379")
        let host = HostDriver.configuration(.production, source: source, store: store)
        #expect(host.feedSource == "test:pages" && host.feedKind == .sqlite && host.feedPostable)
        #expect(host.prefixesIDs && host.node == String(getpid()))
        let bare = HostDriver.configuration(.production, source: nil, store: nil)
        #expect(bare.feedSource == nil && !bare.prefixesIDs)
    }

    @Test func aHelloWakesItsConnectionAndArmsTheSweep() {
        let driver = HostDriver(configuration: .production, source: nil, store: nil, logger: quiet)
        defer { driver.stop() }
        let transport = RecordingTransport()
        let connection = driver.host.opened(id: 7, peer: "127.0.0.1", at: driver.clock.now())
        driver.carryOutActions(on: transport)
        hello(connection, driver)
        driver.host.flushHeldFrame()
        driver.carryOutActions(on: transport)
        #expect(transport.woken.contains(7))
        #expect(transport.armed.contains(.sweep))
    }

    /// The source answers on its worker; the answer comes back through the hop and reaches the session.
    @Test func aSourcesAnswerComesBackThroughTheHop() async throws {
        let driver = HostDriver(
            configuration: .production, source: HostedSource(PageSource(), pollMilliseconds: 0), store: nil,
            logger: quiet)
        defer { driver.stop() }
        let arrivals = Mutex<[HostArrival]>([])
        driver.start { arrival in arrivals.withLock { $0.append(arrival) } }
        var pages = 0
        driver.pageArrived = { _ in pages += 1 }
        let transport = RecordingTransport()
        let connection = driver.host.opened(id: 1, peer: "127.0.0.1", at: driver.clock.now())
        hello(connection, driver)
        driver.carryOutActions(on: transport)
        transport.woken.removeAll()
        // the first page is asked for at the hello; its answer arrives from the feed's worker
        for _ in 0..<500 where pages == 0 {
            for arrival in arrivals.withLock({ all in
                defer { all.removeAll() }
                return all
            }) {
                driver.take(arrival, on: transport)
            }
            if pages == 0 { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(pages == 1)
        #expect(transport.woken.contains(1), "the page's rows are to be written")
    }

    /// A page that names a stored session before the transport started: its read waits for the hop, then runs
    /// off the serving thread and its answer comes back through the hop.
    @Test func aTakeOverReadAskedBeforeTheStartIsReadOnceThereIsAWayBack() async throws {
        // nothing listens on port 1: the read answers that the store is unreachable
        let driver = HostDriver(
            configuration: .production, source: nil, store: try StoreAddress("redis://127.0.0.1:1"), logger: quiet)
        defer { driver.stop() }
        let transport = RecordingTransport()
        let connection = driver.host.opened(id: 1, peer: "127.0.0.1", at: driver.clock.now())
        let text = #"{"type":"hello","viewport":{"w":390,"h":844},"dpr":3,"preset":"ios","session":"x.1234"}"#
        Array(text.utf8).withUnsafeBytes {
            driver.host.received($0, binary: false, isLast: true, on: connection, at: driver.clock.now())
        }
        driver.carryOutActions(on: transport)
        let arrivals = Mutex<[HostArrival]>([])
        driver.start { arrival in arrivals.withLock { $0.append(arrival) } }
        var answered = false
        for _ in 0..<500 where !answered {
            answered = arrivals.withLock { all in
                all.contains { if case .storeRead = $0 { true } else { false } }
            }
            if !answered { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(answered, "the read asked before the start was read after it")
    }

    @Test func aShutdownWithoutAStoreClosesAtOnce() {
        let driver = HostDriver(configuration: .production, source: nil, store: nil, logger: quiet)
        defer { driver.stop() }
        let transport = RecordingTransport()
        let connection = driver.host.opened(id: 3, peer: "127.0.0.1", at: driver.clock.now())
        hello(connection, driver)
        driver.carryOutActions(on: transport)
        transport.woken.removeAll()
        guard case .closing = driver.nextShutdownStep(on: transport) else {
            Issue.record("a shutdown without a store waits for nothing")
            return
        }
        #expect(transport.woken.contains(3), "the close (1001) is to be written")
        guard case .closing = driver.nextShutdownStep(on: transport) else {
            Issue.record("a shutdown that is closing stays closing")
            return
        }
    }

    /// With a store, the transport is asked to wait twice (the batch in flight, then the hand-over), then closes.
    @Test func aShutdownWithAStoreWaitsTwiceThenCloses() throws {
        // nothing listens on port 1: every batch fails at once
        let driver = HostDriver(
            configuration: .production, source: nil, store: try StoreAddress("redis://127.0.0.1:1"), logger: quiet)
        defer { driver.stop() }
        let transport = RecordingTransport()
        var waits = 0
        while case .waitForTheStore(let store) = driver.nextShutdownStep(on: transport) {
            waits += 1
            _ = store.waitUntilAnswered(seconds: HostDriver.storeHandOverSeconds)
            if waits > 2 { break }
        }
        #expect(waits == 2)
    }

    private var quiet: Logger { Logger(label: "test") { _ in SwiftLogNoOpLogHandler() } }

    private func hello(_ connection: Connection, _ driver: HostDriver) {
        let text = #"{"type":"hello","viewport":{"w":390,"h":844},"dpr":3,"preset":"ios"}"#
        Array(text.utf8).withUnsafeBytes {
            driver.host.received($0, binary: false, isLast: true, on: connection, at: driver.clock.now())
        }
    }
}

/// What the driver asked of its transport.
private final class RecordingTransport: HostTransport {
    var woken: [UInt64] = []
    var closed: [UInt64] = []
    var armed: [HostTimer] = []

    func wake(_ connection: Connection, soon: Bool) { woken.append(connection.id) }
    func close(_ connection: Connection) { closed.append(connection.id) }
    func arm(_ timer: HostTimer, inMicroseconds microseconds: Int64) { armed.append(timer) }
}

/// A source of three items, whatever is asked.
private struct PageSource: FeedSource {
    var address: String { "test:pages" }

    func load(_ request: FeedRequest) throws(FeedError) -> FeedPage {
        let items = (1...3).map { FeedItem(id: "\($0)", text: "item \($0)", timeMicros: Int64($0)) }
        return FeedPage(items: items, olderCursor: nil, newerCursor: nil, hasMore: false)
    }
}
