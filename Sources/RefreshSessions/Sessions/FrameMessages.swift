import RefreshWire

/// The messages that bring members to their session's latest frame, one pair of buffers for every session of
/// a host: the `frame` message of a whole frame, and the `delta` from one base. A session needs its messages
/// only from the moment its frame is made until its members have been written it (the same turn of the
/// loop, usually), so a quiet session holds none and a session that once sent a large frame holds nothing
/// afterwards (docs/PERFORMANCE.md, "Memory per connected session").
///
/// Each buffer remembers whose message it holds: the session's ``Owner`` number and the frames' sequence
/// numbers, which name one frame of one session. A session whose message another session's replaced in
/// between encodes it again (only a session with several members, written between other sessions' writes,
/// ever does; one member is written its frame right after it is made).
///
/// Owned by the thread that drives the host, like the sessions that share it.
final class FrameMessages {
    /// A session's number in this host: never reused, unlike an object's address.
    typealias Owner = UInt64

    /// Which frame's `frame` message ``whole`` holds.
    struct WholeKey: Equatable {
        var owner: Owner
        var frame: UInt64
    }

    /// Which `delta` ``delta`` holds: from frame `base` to frame `frame`.
    struct DeltaKey: Equatable {
        var owner: Owner
        var base: UInt64
        var frame: UInt64
    }

    /// The transport's headroom, then a `frame` message (``wholeKey``'s).
    @exclusivity(unchecked) var whole: MessageBuffer
    @exclusivity(unchecked) var wholeKey: WholeKey?
    /// The transport's headroom, then a `delta` (``deltaKey``'s), or whatever update the latest
    /// ``Session/prepareFrame()`` made (``deltaKey`` nil when it was a whole frame).
    @exclusivity(unchecked) var delta: MessageBuffer
    @exclusivity(unchecked) var deltaKey: DeltaKey?
    @exclusivity(unchecked) private var lastOwner: Owner = 0

    /// Buffers whose messages leave `headroom` bytes free before them (the transport writes its header there).
    init(headroom: Int) {
        whole = MessageBuffer(headroom: headroom, capacity: 0)
        delta = MessageBuffer(headroom: headroom, capacity: 1024)
    }

    /// A number for a new session.
    func newOwner() -> Owner {
        lastOwner &+= 1
        return lastOwner
    }
}
