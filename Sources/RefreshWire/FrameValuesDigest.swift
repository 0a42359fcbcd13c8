import RefreshKit

extension FrameDigest {
    /// Adds one frame by its values as its `frame` message writes them (a ``Kind/values`` digest;
    /// docs/TRACE.md, "digest"): the same words for two frames exactly when their messages are the same text,
    /// without writing any text. Recording a frame this way costs a fraction of encoding it, which matters now
    /// that a room whose members all take deltas needs no whole `frame` message at all.
    ///
    /// The words, in the order the message writes the values: integers (`seq`, counts, ids, a cycle's
    /// `index`) and times (µs) as 64-bit two's complement; booleans as 0 or 1; a number written with `d`
    /// decimals as the integer written, scaled by 10^d (``WrittenNumber/scaled(_:_:)``; 0 for a NaN or an
    /// infinity, which are written `0`), or, beyond the writer's fixed range, the word `0x7FF0000000000001` and
    /// then the number's IEEE 754 bits; a string (an enum's raw value) as its length and then its UTF-8 bytes,
    /// 8 to a word, little-endian, zero-padded; an optional member as 0 (absent) or 1 followed by its value; an
    /// array as its count followed by its elements.
    public mutating func add(_ frame: Frame) {
        assert(kind == .values, "the values of a frame added to a digest of text")
        mix(frame.sequence)
        time(frame.time)
        number(frame.offset.x, 3)
        number(frame.offset.y, 3)
        number(frame.velocity.x, 3)
        number(frame.velocity.y, 3)
        string(frame.phase.rawValue)
        chain(frame.horizontalMotion)
        chain(frame.verticalMotion)
        number(frame.contentSize.width, 3)
        number(frame.contentSize.height, 3)
        number(frame.viewport.width, 3)
        number(frame.viewport.height, 3)
        number(frame.insets.top, 3)
        number(frame.insets.left, 3)
        number(frame.insets.bottom, 3)
        number(frame.insets.right, 3)
        mix(UInt64(frame.edges.count))
        for edge in frame.edges { self.edge(edge) }
        integer(frame.feed.count)
        mix(frame.feed.hasMore ? 1 : 0)
        mix(frame.feed.loading ? 1 : 0)
        integer(frame.feed.newestID)
        number(frame.feed.rowHeight, 3)
        countFrame()
    }

    private mutating func edge(_ edge: EdgeFrame) {
        string(edge.edge.rawValue)
        string(edge.state.rawValue)
        number(edge.distance, 3)
        number(edge.progress, 6)
        number(edge.velocity, 3)
        rect(edge.control)
        rect(edge.view)
        number(edge.scale, 6)
        if let cycle = edge.cycle {
            mix(1)
            integer(cycle.index)
            time(cycle.start)
            number(cycle.duration, 6)
            number(cycle.delay, 6)
            string(cycle.kind.rawValue)
        } else {
            mix(0)
        }
        if let exit = edge.exit {
            mix(1)
            time(exit.start)
            number(exit.duration, 6)
        } else {
            mix(0)
        }
    }

    /// The members `MessageEncoder` writes for each segment kind.
    private mutating func chain(_ chain: [MotionSegment]) {
        mix(UInt64(chain.count))
        for segment in chain {
            string(segment.kind.rawValue)
            time(segment.start)
            if let end = segment.end {
                mix(1)
                time(end)
            } else {
                mix(0)
            }
            number(segment.position, 3)
            switch segment.kind {
            case .hold:
                break
            case .decay:
                number(segment.velocity, 3)
                number(segment.decayConstant, 6)
            case .spring:
                number(segment.velocity, 3)
                number(segment.target, 3)
                if let spring = segment.spring {
                    mix(1)
                    number(spring.mass, 6)
                    number(spring.stiffness, 6)
                    number(spring.damping, 6)
                } else {
                    mix(0)
                }
            case .timed:
                let curve = segment.curve ?? .linear
                number(segment.target, 3)
                number(curve.x1, 6)
                number(curve.y1, 6)
                number(curve.x2, 6)
                number(curve.y2, 6)
            }
        }
    }

    private mutating func rect(_ rect: Rect) {
        number(rect.origin.x, 3)
        number(rect.origin.y, 3)
        number(rect.size.width, 3)
        number(rect.size.height, 3)
    }

    @inline(__always)
    private mutating func number(_ value: Double, _ decimals: Int) {
        if let scaled = WrittenNumber.scaled(value, decimals) {
            mix(UInt64(bitPattern: scaled))
        } else if !value.isFinite {
            mix(0)  // written as 0
        } else {
            // No scaled integer reaches this word (they stay below 2⁵³ in magnitude), so it cannot be confused
            // with one.
            mix(0x7FF0_0000_0000_0001)
            mix(value.bitPattern)
        }
    }

    @inline(__always)
    private mutating func integer(_ value: Int) {
        mix(UInt64(bitPattern: Int64(value)))
    }

    @inline(__always)
    private mutating func time(_ time: Timestamp) {
        mix(UInt64(bitPattern: time.microseconds))
    }

    private mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            mix(UInt64(utf8.count))
            guard let base = utf8.baseAddress else { return }
            // Whole words are loaded as such (the little-endian order the definition gives them); only the
            // tail is put together byte by byte. Every string here is an enum's short raw value, digested a
            // few times per frame.
            var i = 0
            while i + 8 <= utf8.count {
                mix(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
                i += 8
            }
            guard i < utf8.count else { return }
            var word: UInt64 = 0
            for k in 0..<(utf8.count - i) { word |= UInt64(base[i + k]) << UInt64(8 * k) }
            mix(word)
        }
    }
}
