import RefreshKit

extension FrameDigest {
    /// Adds one frame by its values as its `frame` message writes them (a ``Kind/values`` digest;
    /// docs/TRACE.md, "digest"): the same words for two frames exactly when their messages are the same text,
    /// without writing any text. Recording a frame this way costs a fraction of encoding it, which matters now
    /// that a room whose members all take deltas needs no whole `frame` message at all.
    ///
    /// The words, in the order the message writes the values: integers (`seq`, counts, ids, a cycle's
    /// `index`) and times (µs) as 64-bit two's complement; booleans as 0 or 1; a number written with `d`
    /// decimals as the integer written, scaled by 10^d (`WrittenNumber.scaled(_:_:)`; 0 for a NaN or an
    /// infinity, which are written `0`), or, beyond the writer's fixed range, the word `0x7FF0000000000001` and
    /// then the number's IEEE 754 bits; a string (an enum's raw value) as its length and then its UTF-8 bytes,
    /// 8 to a word, little-endian, zero-padded; an optional member as 0 (absent) or 1 followed by its value; an
    /// array as its count followed by its elements.
    public mutating func add(_ frame: Frame) {
        assert(kind == .values, "the values of a frame added to a digest of text")
        mix(frame.sequence)
        time(frame.time)
        number(frame.offset.x, .length)
        number(frame.offset.y, .length)
        number(frame.velocity.x, .velocity)
        number(frame.velocity.y, .velocity)
        string(frame.phase.rawValue)
        chain(frame.horizontalMotion)
        chain(frame.verticalMotion)
        number(frame.contentSize.width, .length)
        number(frame.contentSize.height, .length)
        number(frame.viewport.width, .length)
        number(frame.viewport.height, .length)
        number(frame.insets.top, .length)
        number(frame.insets.left, .length)
        number(frame.insets.bottom, .length)
        number(frame.insets.right, .length)
        mix(UInt64(frame.edges.count))
        for edge in frame.edges { self.edge(edge) }
        integer(frame.feed.count)
        mix(frame.feed.hasMore ? 1 : 0)
        mix(frame.feed.loading ? 1 : 0)
        number(frame.feed.rowHeight, .length)
        // Only when present: a frame without it (every frame before sections) is digested as before, so a trace
        // recorded then checks the same (docs/TRACE.md, "digest").
        if let pinned = frame.pinned {
            mix(1)
            string(pinned.section)
            number(pinned.y, .length)
        }
        countFrame()
    }

    private mutating func edge(_ edge: EdgeFrame) {
        string(edge.edge.rawValue)
        string(edge.state.rawValue)
        number(edge.distance, .length)
        number(edge.progress, .fraction)
        number(edge.velocity, .velocity)
        rect(edge.control)
        rect(edge.view)
        number(edge.scale, .fraction)
        if let cycle = edge.cycle {
            mix(1)
            integer(cycle.index)
            time(cycle.start)
            number(cycle.duration, .duration)
            number(cycle.delay, .duration)
            string(cycle.kind.rawValue)
        } else {
            mix(0)
        }
        if let exit = edge.exit {
            mix(1)
            time(exit.start)
            number(exit.duration, .duration)
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
            number(segment.position, .length)
            switch segment.kind {
            case .hold:
                break
            case .decay:
                number(segment.velocity, .velocity)
                number(segment.decayConstant, .motionConstant)
            case .spring:
                number(segment.velocity, .velocity)
                number(segment.target, .length)
                if let spring = segment.spring {
                    mix(1)
                    number(spring.mass, .motionConstant)
                    number(spring.stiffness, .motionConstant)
                    number(spring.damping, .motionConstant)
                } else {
                    mix(0)
                }
            case .timed:
                let curve = segment.curve ?? .linear
                number(segment.target, .length)
                number(curve.x1, .curvePoint)
                number(curve.y1, .curvePoint)
                number(curve.x2, .curvePoint)
                number(curve.y2, .curvePoint)
            }
        }
    }

    private mutating func rect(_ rect: Rect) {
        number(rect.origin.x, .length)
        number(rect.origin.y, .length)
        number(rect.size.width, .length)
        number(rect.size.height, .length)
    }

    @inline(__always)
    private mutating func number(_ value: Double, _ precision: WirePrecision) {
        if let scaled = WrittenNumber.scaled(value, precision) {
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
            // tail is put together byte by byte. Almost every string here is an enum's short raw value, digested
            // a few times per frame (a pinned header's section is the other).
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
