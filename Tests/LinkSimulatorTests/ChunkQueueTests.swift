import Testing

@testable import LinkSimulator

@Suite("ChunkQueue")
struct ChunkQueueTests {
    @Test func onlyAReleasedHeadIsOffered() {
        var queue = ChunkQueue()
        queue.append(.bytes([1, 2, 3]), release: 10)
        queue.append(.bytes([4]), release: 12)
        #expect(queue.released(at: 9) == nil)
        #expect(queue.nextRelease == 10)
        #expect(queue.released(at: 10) == .bytes([1, 2, 3]))
        #expect(queue.queuedBytes == 4)
    }

    @Test func partialWritesAdvanceWithinTheHead() {
        var queue = ChunkQueue()
        queue.append(.bytes([1, 2, 3]), release: 0)
        queue.append(.bytes([4, 5]), release: 0)
        queue.consume(2)
        #expect(queue.written == 2 && queue.queuedBytes == 3)
        #expect(queue.released(at: 0) == .bytes([1, 2, 3]))
        queue.consume(1)
        #expect(queue.written == 0)
        #expect(queue.released(at: 0) == .bytes([4, 5]))
        queue.consume(2)
        #expect(queue.isEmpty && queue.queuedBytes == 0)
    }

    @Test func theEndComesLastAndIsDroppedOnceActedOn() {
        var queue = ChunkQueue()
        queue.append(.bytes([1]), release: 5)
        queue.append(.end, release: 6)
        #expect(queue.ended)
        queue.consume(1)
        #expect(queue.released(at: 5.5) == nil)
        #expect(queue.released(at: 6) == .end)
        queue.dropHead()
        #expect(queue.isEmpty)
    }

    @Test func aResetWaitsBehindTheBytesSentBeforeIt() {
        var queue = ChunkQueue()
        queue.append(.bytes([1, 2]), release: 3)
        queue.append(.reset, release: 4)
        #expect(queue.ended)
        #expect(queue.released(at: 4) == .bytes([1, 2]))
        queue.consume(2)
        #expect(queue.released(at: 4) == .reset)
    }

    @Test func itIsFullAboveItsLimit() {
        var queue = ChunkQueue(limitBytes: 1000)
        queue.append(.bytes([UInt8](repeating: 0, count: 1000)), release: 0)
        #expect(!queue.isFull)
        queue.append(.bytes([0]), release: 0)
        #expect(queue.isFull)
        queue.consume(500)
        #expect(!queue.isFull)
    }

    @Test func manyChunksKeepTheirOrder() {
        var queue = ChunkQueue()
        for i in 0..<500 { queue.append(.bytes([UInt8(i % 256)]), release: Double(i)) }
        for i in 0..<500 {
            #expect(queue.released(at: 1000) == .bytes([UInt8(i % 256)]))
            queue.consume(1)
        }
        #expect(queue.isEmpty)
    }
}
