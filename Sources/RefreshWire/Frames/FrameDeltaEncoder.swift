import RefreshKit

extension MessageEncoder {
    /// Appends the `delta` message that turns `base` into `frame` (PROTOCOL.md, "delta").
    ///
    /// `base` is the frame the receiving connection holds: the last `frame` it received, with every `delta`
    /// since applied. The delta has `type`, `seq` and `t`, then, with JSON Merge Patch semantics (RFC 7386),
    /// only what the frame's text would show changed: an object member per changed value (`"offset":{"y":…}`),
    /// an array (a motion chain) whole, `null` for what ended. `edges` is patched entry by entry, keyed by
    /// edge name (`"edges":{"top":{…}}`), unless the edge set changed, when it is written whole as an array.
    /// An entry's `distance` and `velocity` are left out when they followed the scroll
    /// (`EdgeChanges.follows(from:to:scroll:)`). `ack` (`acknowledgements`, against `baseAcknowledgements`,
    /// the maps the two frames carry) is patched member by member, `null` for a member whose entry was dropped.
    ///
    /// Applying the delta to `base` gives exactly the JSON value of `frame`'s `frame` message: numbers are
    /// compared as they are written, rounded (`WrittenNumber`), so a change the text would not show is
    /// not sent and one it would show always is. Like the `frame` encoding, it allocates nothing
    /// once `buffer` has grown.
    public func encodeDelta(
        _ frame: Frame, acknowledgements: Acknowledgements = Acknowledgements(), from base: Frame,
        baseAcknowledgements: Acknowledgements = Acknowledgements(), into buffer: inout [UInt8]
    ) {
        let scroll = FrameScroll(from: base, to: frame)
        let changes = FrameChanges(from: base, to: frame, scroll: scroll)
        let bound = Self.deltaBound(frame, changes, acknowledgements, baseAcknowledgements)
        appendJSON(to: &buffer, bound: bound) { w in
            FrameDeltaWriter().write(frame, acknowledgements, from: base, baseAcknowledgements, changes, scroll, to: &w)
        }
    }

    /// The same `delta`, appended to a ``MessageBuffer``: what a host that sends a delta per input uses.
    public func encodeDelta(
        _ frame: Frame, acknowledgements: Acknowledgements = Acknowledgements(), from base: Frame,
        baseAcknowledgements: Acknowledgements = Acknowledgements(), into buffer: inout MessageBuffer
    ) {
        let scroll = FrameScroll(from: base, to: frame)
        let changes = FrameChanges(from: base, to: frame, scroll: scroll)
        let bound = Self.deltaBound(frame, changes, acknowledgements, baseAcknowledgements)
        buffer.appendJSON(bound: bound) { w in
            FrameDeltaWriter().write(frame, acknowledgements, from: base, baseAcknowledgements, changes, scroll, to: &w)
        }
    }

    /// The `delta` between two shared frames (their frames and their `ack` maps).
    public func encodeDelta(_ shared: SharedFrame, from base: SharedFrame, into buffer: inout [UInt8]) {
        encodeDelta(
            shared.frame, acknowledgements: shared.acknowledgements, from: base.frame,
            baseAcknowledgements: base.acknowledgements, into: &buffer)
    }

    /// The `delta` between two shared frames (their frames and their `ack` maps).
    public func encodeDelta(_ shared: SharedFrame, from base: SharedFrame, into buffer: inout MessageBuffer) {
        encodeDelta(
            shared.frame, acknowledgements: shared.acknowledgements, from: base.frame,
            baseAcknowledgements: base.acknowledgements, into: &buffer)
    }

    /// The room a delta is written in. A delta is usually a small part of a frame: reserving a whole frame's worth
    /// (and zeroing it) would cost as much as writing it. A low estimate only costs a second attempt.
    @inline(__always)
    private static func deltaBound(
        _ frame: Frame, _ changes: FrameChanges, _ acknowledgements: Acknowledgements, _ base: Acknowledgements
    ) -> Int {
        var bound = 384 + frame.edges.count * 160 + (acknowledgements.count + base.count) * ackEntryBound
        if !changes.isDisjoint(with: .segment) {
            bound += (frame.horizontalMotion.count + frame.verticalMotion.count) * 512
        }
        if changes.contains(.edgesReplaced) { bound += frame.edges.count * 1024 }
        if !changes.isDisjoint(with: .pinned), let pinned = frame.pinned { bound += 64 + 6 * pinned.section.utf8.count }
        return bound
    }
}

/// The body of a `delta` (``MessageEncoder``'s `encodeDelta`):
/// the JSON Merge Patch from one frame to the next, member by member, with the frame writer's own spelling of an
/// edge, a motion chain and an `ack` entry. Stateless, like the encoder: the frames are passed, never held (a copy
/// of one would retain its arrays on every input, docs/PERFORMANCE.md, "No copies per input").
struct FrameDeltaWriter {
    /// The frame message's writer, for the parts a delta writes whole.
    private let frames = MessageEncoder()

    func write(
        _ frame: Frame, _ acknowledgements: Acknowledgements, from base: Frame,
        _ baseAcknowledgements: Acknowledgements,
        _ changes: FrameChanges, _ scroll: FrameScroll, to w: inout JSONWriter
    ) {
        w.literal(#"{"type":"delta","seq":"#)
        w.digits(frame.sequence)
        w.literal(#","t":"#)
        w.milliseconds(frame.time)

        // The offset and the velocity as `scroll` scaled them when it compared them.
        let (h, v) = (scroll.horizontal, scroll.vertical)
        var open = false
        if changes.contains(.offsetX) { member(&open, #","offset":{"x":"#, #","x":"#, &w, frame.offset.x, h.offset) }
        if changes.contains(.offsetY) { member(&open, #","offset":{"y":"#, #","y":"#, &w, frame.offset.y, v.offset) }
        close(open, &w)
        open = false
        if changes.contains(.velocityX) {
            member(&open, #","velocity":{"x":"#, #","x":"#, &w, frame.velocity.x, h.velocity)
        }
        if changes.contains(.velocityY) {
            member(&open, #","velocity":{"y":"#, #","y":"#, &w, frame.velocity.y, v.velocity)
        }
        close(open, &w)
        if changes.contains(.phase) {
            w.literal(#","phase":"#)
            w.plainString(frame.phase.rawValue)
        }
        if !changes.isDisjoint(with: .segment) { writeSegmentPatch(frame, changes, to: &w) }

        // Sizes and insets rarely change: one test passes over their eight members.
        if !changes.isDisjoint(with: [.contentSize, .viewport, .insets]) {
            open = false
            if changes.contains(.contentWidth) {
                member(&open, #","contentSize":{"w":"#, #","w":"#, &w, frame.contentSize.width, .length)
            }
            if changes.contains(.contentHeight) {
                member(&open, #","contentSize":{"h":"#, #","h":"#, &w, frame.contentSize.height, .length)
            }
            close(open, &w)
            open = false
            if changes.contains(.viewportWidth) {
                member(&open, #","viewport":{"w":"#, #","w":"#, &w, frame.viewport.width, .length)
            }
            if changes.contains(.viewportHeight) {
                member(&open, #","viewport":{"h":"#, #","h":"#, &w, frame.viewport.height, .length)
            }
            close(open, &w)
            open = false
            let insets = frame.insets
            if changes.contains(.insetTop) {
                member(&open, #","insets":{"top":"#, #","top":"#, &w, insets.top, .length)
            }
            if changes.contains(.insetLeft) {
                member(&open, #","insets":{"left":"#, #","left":"#, &w, insets.left, .length)
            }
            if changes.contains(.insetBottom) {
                member(&open, #","insets":{"bottom":"#, #","bottom":"#, &w, insets.bottom, .length)
            }
            if changes.contains(.insetRight) {
                member(&open, #","insets":{"right":"#, #","right":"#, &w, insets.right, .length)
            }
            close(open, &w)
        }

        if changes.contains(.edgesReplaced) {
            w.literal(#","edges":["#)
            for (i, edge) in frame.edges.enumerated() {
                if i > 0 { w.byte(.comma) }
                frames.appendEdge(edge, to: &w)
            }
            w.byte(.closeBracket)
        } else {
            writeEdgesPatch(frame, from: base, scroll, to: &w)
        }

        if !changes.isDisjoint(with: .feed) {
            let feed = frame.feed
            open = false
            if changes.contains(.feedCount) {
                opening(&open, #","feed":{"count":"#, #","count":"#, &w)
                w.integer(Int64(feed.count))
            }
            if changes.contains(.feedHasMore) {
                opening(&open, #","feed":{"hasMore":"#, #","hasMore":"#, &w)
                w.bool(feed.hasMore)
            }
            if changes.contains(.feedLoading) {
                opening(&open, #","feed":{"loading":"#, #","loading":"#, &w)
                w.bool(feed.loading)
            }
            if changes.contains(.feedRowHeight) {
                member(&open, #","feed":{"rowHeight":"#, #","rowHeight":"#, &w, feed.rowHeight, .length)
            }
            close(open, &w)
        }
        if !changes.isDisjoint(with: .pinned) { writePinnedPatch(frame, from: base, changes, to: &w) }
        if !acknowledgements.isEmpty || !baseAcknowledgements.isEmpty {
            writeAckPatch(acknowledgements, from: baseAcknowledgements, to: &w)
        }
        w.byte(.closeBrace)
    }

    /// `"pinned":…`: `null` when the header went, whole when it came, else its members that changed.
    private func writePinnedPatch(
        _ frame: borrowing Frame, from base: borrowing Frame, _ changes: FrameChanges, to w: inout JSONWriter
    ) {
        guard let pinned = frame.pinned else {
            w.literal(#","pinned":null"#)
            return
        }
        guard base.pinned != nil else {
            frames.appendPinned(pinned, to: &w)
            return
        }
        var open = false
        if changes.contains(.pinnedSection) {
            opening(&open, #","pinned":{"section":"#, #","section":"#, &w)
            w.string(pinned.section)
        }
        if changes.contains(.pinnedY) { member(&open, #","pinned":{"y":"#, #","y":"#, &w, pinned.y, .length) }
        close(open, &w)
    }

    /// `"ack":{…}` with each member whose acknowledged `seq` changed, and `null` for each member whose entry
    /// was dropped (``AcknowledgementTable``); nothing when none changed. Both maps are in member order.
    ///
    /// Both maps are borrowed (a copy retains their storage: docs/PERFORMANCE.md, "No copies per input"); the
    /// usual case, the same members with one `seq` moved, is compared entry by entry.
    private func writeAckPatch(
        _ acks: borrowing Acknowledgements, from base: borrowing Acknowledgements, to w: inout JSONWriter
    ) {
        var open = false
        if let changed = acks.changedSeqs(from: base) {  // up to four members, the same in both
            guard changed != 0 else { return }
            // Each index a constant, each entry read where it is stored: a loop's subscript jumped on its index
            // (docs/PERFORMANCE.md, "The delta encoder").
            if changed & 1 != 0 { ackMember(acks[0], &open, &w) }
            if changed & 2 != 0 { ackMember(acks[1], &open, &w) }
            if changed & 4 != 0 { ackMember(acks[2], &open, &w) }
            if changed & 8 != 0 { ackMember(acks[3], &open, &w) }
            close(open, &w)
            return
        }
        writeAckMerge(acks, from: base, to: &w)
    }

    /// ``writeAckPatch(_:from:to:)`` for maps of other members, or of more than four: out of line, so that the
    /// usual patch does not set up the registers and the frame of the merge.
    @inline(never)
    private func writeAckMerge(
        _ acks: borrowing Acknowledgements, from base: borrowing Acknowledgements, to w: inout JSONWriter
    ) {
        var open = false
        if acks.hasSameMembers(as: base) {
            for index in 0..<acks.count {
                let new = acks[index]
                guard new.seq != base[index].seq else { continue }
                opening(&open, #","ack":{"#, ",", &w)
                frames.appendAckEntry(new, to: &w)
            }
            close(open, &w)
            return
        }
        var i = 0
        var j = 0
        while i < acks.count || j < base.count {
            let new = i < acks.count ? acks[i] : nil
            let old = j < base.count ? base[j] : nil
            if let new, let old, new.member == old.member {  // the same member: written when its seq changed
                if new.seq != old.seq {
                    opening(&open, #","ack":{"#, ",", &w)
                    frames.appendAckEntry(new, to: &w)
                }
                i += 1
                j += 1
            } else if let new, old.map({ new.member < $0.member }) ?? true {  // a member's first entry
                opening(&open, #","ack":{"#, ",", &w)
                frames.appendAckEntry(new, to: &w)
                i += 1
            } else if let old {  // a member's entry was dropped
                opening(&open, #","ack":{"#, ",", &w)
                w.byte(.quote)
                w.digits(UInt64(old.member))
                w.literal(#"":null"#)
                j += 1
            }
        }
        close(open, &w)
    }

    /// An entry of the `ack` patch (``opening(_:_:_:_:)``, then appendAckEntry's text).
    @inline(__always)
    private func ackMember(_ entry: Acknowledgements.Entry, _ open: inout Bool, _ w: inout JSONWriter) {
        opening(&open, #","ack":{"#, ",", &w)
        w.digitsMember(UInt64(entry.member), entry.seq)
    }

    /// `"segment":null` when the motion ended, else `"segment":{…}` with each changed axis: its chain whole,
    /// or `null` when that axis stopped.
    private func writeSegmentPatch(_ frame: Frame, _ changes: FrameChanges, to w: inout JSONWriter) {
        guard !frame.horizontalMotion.isEmpty || !frame.verticalMotion.isEmpty else {
            w.literal(#","segment":null"#)
            return
        }
        w.literal(#","segment":{"#)
        if changes.contains(.segmentX) {
            w.literal(#""x":"#)
            if frame.horizontalMotion.isEmpty {
                w.literal("null")
            } else {
                frames.appendChain(frame.horizontalMotion, to: &w)
            }
            if changes.contains(.segmentY) { w.byte(.comma) }
        }
        if changes.contains(.segmentY) {
            w.literal(#""y":"#)
            if frame.verticalMotion.isEmpty {
                w.literal("null")
            } else {
                frames.appendChain(frame.verticalMotion, to: &w)
            }
        }
        w.byte(.closeBrace)
    }

    /// `"edges":{"top":{…},…}` with the entries that changed (the same edges as `base`, in the same order).
    private func writeEdgesPatch(_ frame: Frame, from base: Frame, _ scroll: FrameScroll, to w: inout JSONWriter) {
        var open = false
        // Through buffer pointers: a subscript copies each whole entry out (docs/PERFORMANCE.md, "No copies per input").
        base.edges.withUnsafeBufferPointer { bases in
            frame.edges.withUnsafeBufferPointer { edges in
                for i in 0..<min(bases.count, edges.count) {
                    let changes = EdgeChanges(
                        from: bases.baseAddress! + i, to: edges.baseAddress! + i, scroll: scroll.along(edges[i].edge))
                    guard !changes.isEmpty else { continue }
                    if open { w.byte(.comma) } else { w.literal(#","edges":{"#) }
                    open = true
                    w.plainString(edges[i].edge.rawValue)
                    w.byte(.colon)
                    writeEdgePatch(edges[i], changes, to: &w)
                }
            }
        }
        close(open, &w)
    }

    private func writeEdgePatch(_ edge: EdgeFrame, _ changes: EdgeChanges, to w: inout JSONWriter) {
        var open = false
        if changes.contains(.state) {
            opening(&open, #"{"state":"#, #","state":"#, &w)
            w.plainString(edge.state.rawValue)
        }
        if changes.contains(.distance) { member(&open, #"{"distance":"#, #","distance":"#, &w, edge.distance, .length) }
        if changes.contains(.progress) {
            member(&open, #"{"progress":"#, #","progress":"#, &w, edge.progress, .fraction)
        }
        if changes.contains(.velocity) {
            member(&open, #"{"velocity":"#, #","velocity":"#, &w, edge.velocity, .velocity)
        }
        if !changes.isDisjoint(with: .control) {
            opening(&open, #"{"control":"#, #","control":"#, &w)
            writeRectPatch(edge.control, changes.rawValue >> 4, to: &w)
        }
        if !changes.isDisjoint(with: .view) {
            opening(&open, #"{"view":"#, #","view":"#, &w)
            writeRectPatch(edge.view, changes.rawValue >> 8, to: &w)
        }
        if changes.contains(.scale) { member(&open, #"{"scale":"#, #","scale":"#, &w, edge.scale, .fraction) }
        if changes.contains(.cycleRemoved) {
            opening(&open, #"{"cycle":null"#, #","cycle":null"#, &w)
        } else if let cycle = edge.cycle, !changes.isDisjoint(with: [.cycleAdded, .cyclePatch]) {
            let all = changes.contains(.cycleAdded)
            var inner = false
            opening(&open, #"{"cycle":"#, #","cycle":"#, &w)
            if all || changes.contains(.cycleIndex) {
                opening(&inner, #"{"index":"#, #","index":"#, &w)
                w.integer(Int64(cycle.index))
            }
            if all || changes.contains(.cycleStart) {
                opening(&inner, #"{"t0":"#, #","t0":"#, &w)
                w.milliseconds(cycle.start)
            }
            if all || changes.contains(.cycleDuration) {
                member(&inner, #"{"duration":"#, #","duration":"#, &w, cycle.duration, .duration)
            }
            if all || changes.contains(.cycleDelay) {
                member(&inner, #"{"delay":"#, #","delay":"#, &w, cycle.delay, .duration)
            }
            if all || changes.contains(.cycleKind) {
                opening(&inner, #"{"kind":"#, #","kind":"#, &w)
                w.plainString(cycle.kind.rawValue)
            }
            close(inner, &w)
        }
        if changes.contains(.exitRemoved) {
            opening(&open, #"{"exit":null"#, #","exit":null"#, &w)
        } else if let exit = edge.exit, !changes.isDisjoint(with: [.exitAdded, .exitPatch]) {
            let all = changes.contains(.exitAdded)
            var inner = false
            opening(&open, #"{"exit":"#, #","exit":"#, &w)
            if all || changes.contains(.exitStart) {
                opening(&inner, #"{"t0":"#, #","t0":"#, &w)
                w.milliseconds(exit.start)
            }
            if all || changes.contains(.exitDuration) {
                member(&inner, #"{"duration":"#, #","duration":"#, &w, exit.duration, .duration)
            }
            close(inner, &w)
        }
        close(open, &w)
    }

    /// `{"x":…,"y":…,"w":…,"h":…}` with the members whose bits (x, y, w, h = bits 0…3 of `bits`) are set.
    private func writeRectPatch(_ rect: Rect, _ bits: UInt32, to w: inout JSONWriter) {
        var open = false
        if bits & 1 != 0 { member(&open, #"{"x":"#, #","x":"#, &w, rect.origin.x, .length) }
        if bits & 2 != 0 { member(&open, #"{"y":"#, #","y":"#, &w, rect.origin.y, .length) }
        if bits & 4 != 0 { member(&open, #"{"w":"#, #","w":"#, &w, rect.size.width, .length) }
        if bits & 8 != 0 { member(&open, #"{"h":"#, #","h":"#, &w, rect.size.height, .length) }
        close(open, &w)
    }

    // MARK: Objects written member by member

    /// Starts a member of an object opened by its first member: `first` (the opening and the first key, e.g.
    /// `,"offset":{"y":`) when nothing was written yet, else `next` (`,"y":`).
    @inline(__always)
    private func opening(_ open: inout Bool, _ first: StaticString, _ next: StaticString, _ w: inout JSONWriter) {
        // A literal apiece: each then has a length known where it is inlined, and is stored without a call to
        // `memcpy` (`open ? next : first` chose the length at run time).
        if open {
            w.literal(next)
        } else {
            w.literal(first)
            open = true
        }
    }

    /// A number member (``opening(_:_:_:_:)``, then `value` at `precision`).
    @inline(__always)
    private func member(
        _ open: inout Bool, _ first: StaticString, _ next: StaticString, _ w: inout JSONWriter, _ value: Double,
        _ precision: WirePrecision
    ) {
        opening(&open, first, next, &w)
        w.fixed(value, precision)
    }

    /// A number member whose scaled value at a length's or a velocity's precision is known
    /// (``WrittenNumber/scaledOrNot(_:_:)``).
    @inline(__always)
    private func member(
        _ open: inout Bool, _ first: StaticString, _ next: StaticString, _ w: inout JSONWriter, _ value: Double,
        _ scaled: Int64
    ) {
        opening(&open, first, next, &w)
        w.fixed(value, scaled: scaled)
    }

    /// Closes an object that was opened.
    @inline(__always)
    private func close(_ open: Bool, _ w: inout JSONWriter) {
        if open { w.byte(.closeBrace) }
    }
}
