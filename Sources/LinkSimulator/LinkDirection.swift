/// One direction of a proxied connection: what is read from `source` is shaped and written to
/// `destination`. The bytes wait in ``queue`` until the ``shaper`` releases them.
struct LinkDirection {
    let source: Int32
    let destination: Int32
    var shaper: LinkShaper
    var queue: ChunkQueue
    /// The source said end of stream (or the direction was given up): read no more.
    var readEnded = false
    /// The end of stream was passed on (`shutdown(destination, SHUT_WR)`): this direction is done.
    var finished = false

    init(source: Int32, destination: Int32, shaper: LinkShaper, limitBytes: Int) {
        self.source = source
        self.destination = destination
        self.shaper = shaper
        queue = ChunkQueue(limitBytes: limitBytes)
    }

    /// Whether to poll the source for reading: not ended and the queue has room.
    var wantsRead: Bool { !readEnded && !queue.isFull }

    /// Queues a failure of the source's connection, to be passed on after what came before it.
    mutating func failed(at now: Double) {
        readEnded = true
        queue.append(.reset, release: shaper.release(arrival: now, bytes: 0).at)
    }

    /// Queues what was read at `now` (an empty read is the end of the stream).
    mutating func received(_ bytes: [UInt8], at now: Double) {
        let release = shaper.release(arrival: now, bytes: bytes.count)
        if bytes.isEmpty {
            readEnded = true
            queue.append(.end, release: release.at)
        } else {
            queue.append(.bytes(bytes), release: release.at)
        }
    }
}
