import Dispatch
import Foundation
import RefreshKit
import Synchronization
import Testing

@testable import RefreshFeeds

/// A source that answers from a closure (the tests' stand-in for an app's source).
final class ClosureSource: FeedSource {
    let answer: @Sendable (FeedRequest) throws(FeedError) -> FeedPage
    init(_ answer: @escaping @Sendable (FeedRequest) throws(FeedError) -> FeedPage) { self.answer = answer }
    var address: String { "test" }
    func load(_ request: FeedRequest) throws(FeedError) -> FeedPage { try answer(request) }
}

/// Collects a worker's answers; `wait(for:)` returns once `count` have come (or fails after 10 s).
final class Answers: Sendable {
    private let answers = Mutex<[FeedAnswer]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func deliver(_ answer: FeedAnswer) {
        answers.withLock { $0.append(answer) }
        arrived.signal()
    }

    func wait(for count: Int) -> [FeedAnswer] {
        for _ in 0..<count where arrived.wait(timeout: .now() + 10) == .timedOut { break }
        return answers.withLock { $0 }
    }
}

@Suite("The feed worker")
struct FeedWorkerTests {
    @Test("answers every request with its id and duration, pages checked")
    func answers() throws {
        let answers = Answers()
        let source = SimulatedSource()
        let worker = FeedWorker(source: source, deliver: answers.deliver)
        defer { worker.stop() }
        let first = worker.submit(FeedRequest(.newest, limit: 5))
        let second = worker.submit(FeedRequest(.olderThan(FeedCursor("100")), limit: 5))
        let third = worker.submit(FeedRequest(.olderThan(FeedCursor("nonsense")), limit: 5))
        let got = answers.wait(for: 3)
        #expect(got.map(\.id) == [first, second, third])
        #expect(first == 1 && second == 2 && third == 3)
        #expect(try got[0].outcome.get().items.map(\.id) == ["200", "199", "198", "197", "196"])
        #expect(try got[1].outcome.get().items.first?.id == "99")
        #expect(throws: FeedError.badCursor("nonsense")) { try got[2].outcome.get() }
        #expect(got.allSatisfy { $0.durationMicros >= 0 && $0.durationMicros < 10_000_000 })
        #expect(worker.address == "simulated")
    }

    @Test("a bad page from the source arrives as an error")
    func validates() {
        let answers = Answers()
        let worker = FeedWorker(
            source: ClosureSource { _ throws(FeedError) in
                let item = FeedItem(id: "", text: "x", timeMicros: 1)
                return FeedPage(items: [item], olderCursor: nil, newerCursor: nil, hasMore: false)
            }, deliver: answers.deliver)
        defer { worker.stop() }
        worker.submit(FeedRequest(.newest, limit: 5))
        #expect(throws: FeedError.malformed("an item has an empty id")) { try answers.wait(for: 1)[0].outcome.get() }
    }

    @Test("a source that hangs is answered timedOut at the limit; its late page is dropped")
    func timeout() throws {
        let answers = Answers()
        let release = DispatchSemaphore(value: 0)
        let worker = FeedWorker(
            source: ClosureSource { request throws(FeedError) in
                if request.limit == 1 { release.wait() }
                return FeedPage(items: [], olderCursor: nil, newerCursor: nil, hasMore: false)
            }, limits: FeedLimits(timeoutMs: 100), deliver: answers.deliver)
        let hung = worker.submit(FeedRequest(.newest, limit: 1))
        let got = answers.wait(for: 1)
        #expect(got.count == 1)
        #expect(got[0].id == hung)
        #expect(throws: FeedError.timedOut(limitMs: 100)) { try got[0].outcome.get() }
        #expect(got[0].durationMicros >= 100_000)
        release.signal()
        let next = worker.submit(FeedRequest(.newest, limit: 2))
        let after = answers.wait(for: 1)
        #expect(after.count == 2)
        #expect(after[1].id == next)
        #expect(try after[1].outcome.get().items.isEmpty)
        worker.stop()
        let late = worker.submit(FeedRequest(.newest, limit: 2))
        let stopped = answers.wait(for: 1)
        #expect(stopped.last?.id == late)
        #expect(throws: FeedError.unavailable("the feed worker has stopped")) { try stopped.last?.outcome.get() }
    }

    @Test("with answers racing their time limit, each id is answered once and answers never overlap")
    func race() {
        let answers = Answers()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let worker = FeedWorker(
            source: ClosureSource { request throws(FeedError) in
                // Some calls take longer than the 2 ms limit, some do not.
                if request.limit % 2 == 0 { usleep(UInt32(request.limit % 5) * 1_000) }
                return FeedPage(items: [], olderCursor: nil, newerCursor: nil, hasMore: false)
            }, limits: FeedLimits(timeoutMs: 2)
        ) { answer in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            answers.deliver(answer)
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        defer { worker.stop() }
        let ids = (1...200).map { worker.submit(FeedRequest(.newest, limit: $0)) }
        let got = answers.wait(for: 200)
        #expect(got.count == 200)
        #expect(Set(got.map(\.id)) == Set(ids))
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(got.contains { (try? $0.outcome.get()) == nil })
    }
}

/// A worker's answer becomes the engine's input for the request it answers.
@Test func aWorkersAnswerBecomesTheEnginesInput() {
    let page = FeedPage(
        items: [FeedItem(id: "1", text: "one", timeMicros: 5)], olderCursor: nil, newerCursor: nil, hasMore: false)
    let loaded = FeedAnswer(
        id: 3, request: FeedRequest(.newest, limit: 5), outcome: .success(page), durationMicros: 2_500)
    #expect(loaded.input(answering: 9) == FeedAnswerInput(request: 9, outcome: .page(page), durationMs: 2.5))
    let failed = FeedAnswer(
        id: 4, request: FeedRequest(.newest, limit: 5), outcome: .failure(.timedOut(limitMs: 100)),
        durationMicros: 100_000)
    #expect(
        failed.input(answering: 10)
            == FeedAnswerInput(
                request: 10,
                outcome: .failure(FeedFailure(code: "timed_out", message: "The feed did not answer within 100 ms.")),
                durationMs: 100))
}
