import RefreshKit
import RefreshWire

/// One session and the devices that share it: its id (the share link's `?s=`), the recorded list model, the
/// members admitted so far with their tokens, and the last frame: encoded once as a `frame` message for every
/// member that takes whole frames, and once per base as a `delta` for the members that take deltas, in the
/// host's `FrameMessages` (a session keeps no message buffers of its own).
///
/// Owned by the thread that drives the host, like ``Connection``. A session with no connected member lives until
/// `expiresAt` (the session grace period), so a page that drops can resume it. Its stored properties skip
/// the runtime's exclusivity checks, for the reason ``Connection`` gives.
public final class Session {
    /// A device admitted to the session. Its token lets it resume; its number namespaces its pointers (the
    /// ones it has down are the recorded model's, ``TracedListModel/pointersDown``).
    struct Member {
        let number: Int
        let token: String
        /// What the member may do (``MemberRole``): the owner started the session, the others joined with a key.
        var role = MemberRole.owner
        /// For a member adopted from a store (``adopt(_:)``): the hash of its token, which the session checks
        /// instead (``token`` is then empty: the session never learns it until the page sends it).
        var tokenHash: String?
        /// The connection that is this member now, if any.
        var connection: Connection?
        /// When the member was last detached (µs), to forget the oldest first when the session is full.
        var detachedAt: Int64 = 0
    }

    /// The session's id: the share link's `?s=`.
    public let id: String
    // What the host reads of the session on every input (its members, connections, versions and message buffers)
    // comes first, together at the object's start, before the recorded model, the largest part
    // (docs/PERFORMANCE.md, "Cold lines").
    /// The members by number (ascending: numbers only grow). An array: a session has a handful, and one is
    /// looked up on every input.
    @exclusivity(unchecked) private(set) var members: [Member] = []
    /// The connections of the members connected now, kept as members attach and detach: every frame goes
    /// to each of them.
    @exclusivity(unchecked) private(set) var connections: [Connection] = []
    /// Bumped by every change of the session; the session's latest frame is current when it matches (it
    /// starts behind, so the first ``prepareFrame()`` makes one).
    @exclusivity(unchecked) private var version: UInt64 = 1
    @exclusivity(unchecked) private var frameVersion: UInt64 = 0
    /// The host's buffers for the messages that carry frames (shared by every session), and this session's
    /// name in them.
    private let messages: FrameMessages
    private let owner: FrameMessages.Owner
    /// While no member is connected: when the session is freed (µs, server clock).
    @exclusivity(unchecked) var expiresAt: Int64?
    @exclusivity(unchecked) private var nextMember = 0
    /// Trace bytes already counted against the server's budget (``SessionRegistry/account(_:)``).
    @exclusivity(unchecked) var accountedTraceBytes = 0
    @exclusivity(unchecked) private(set) var traced: TracedListModel
    /// The external feed's requests and notices, as far as the members were told (SessionHost+Feed.swift).
    var feed = SessionFeed()
    /// Its share keys, one per role a link gives (``SessionKeys``).
    private(set) var keys = SessionKeys.make()
    private let encoder = MessageEncoder()

    /// A session whose model is `traced`, writing its frame messages in the host's `messages`.
    init(id: String, traced: TracedListModel, messages: FrameMessages) {
        self.id = id
        self.traced = traced
        self.messages = messages
        owner = messages.newOwner()
    }

    /// A session with buffers of its own whose frame messages leave `headroom` bytes free before them (the
    /// transport writes its header there).
    convenience init(id: String, traced: TracedListModel, headroom: Int = 0) {
        self.init(id: id, traced: traced, messages: FrameMessages(headroom: headroom))
    }

    /// Read in place: a plain getter would copy the whole `ListModel` (and retain everything in it) on every
    /// `session.model.isActive`, several times per input.
    var model: ListModel {
        _read { yield traced.model }
    }

    /// Devices connected now.
    public var connectedCount: Int { connections.count }

    /// Notes where this session's object and the buffers its next input reads lie (``InputMemory``).
    func noteInputMemory(_ memory: inout InputMemory) {
        memory.session = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        memory.connections = connections.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        traced.noteInputMemory(&memory)
    }

    /// Whether the session moves by itself (``ListModel/isActive``).
    var isMoving: Bool { traced.isActive }

    /// The session's next deadline (``ListModel/nextDeadline``).
    var nextDeadline: Timestamp? { traced.nextDeadline }

    /// Member `number`, if the session still knows it.
    func member(_ number: Int) -> Member? {
        index(of: number).map { members[$0] }
    }

    private func index(of number: Int) -> Int? {
        members.firstIndex { $0.number == number }
    }

    private func rebuildConnections() {
        connections = members.compactMap(\.connection)
    }

    // MARK: - Members

    /// Admits a new member with a fresh token and `role`. When `limit` members exist, the one detached longest ago
    /// is forgotten (its token stops working); when all of them are connected, nobody is admitted (`nil`).
    func addMember(limit: Int, role: MemberRole) -> Member? {
        if members.count >= limit {
            guard
                let oldest = members.indices.filter({ members[$0].connection == nil }).min(by: {
                    members[$0].detachedAt < members[$1].detachedAt
                })
            else { return nil }
            members.remove(at: oldest)
        }
        let member = Member(number: nextMember, token: RandomIdentifier.make128(), role: role)
        nextMember += 1
        members.append(member)
        return member
    }

    /// The member whose token is `token` (compared in constant time), if any.
    func member(token: String) -> Member? {
        var found: Member?
        var hashed: String?
        for member in members {
            if let stored = member.tokenHash {
                let hash = hashed ?? TokenHash.hex(token)
                hashed = hash
                if RandomIdentifier.equal(stored, hash) { found = member }
            } else if RandomIdentifier.equal(member.token, token) {
                found = member
            }
        }
        return found
    }

    /// The members as a store keeps them: numbers, token hashes and roles, and the share keys' hashes.
    func storedMembers() -> StoredMembers {
        StoredMembers(
            members: members.map { ($0.number, $0.tokenHash ?? TokenHash.hex($0.token)) }, next: nextMember,
            roles: Dictionary(uniqueKeysWithValues: members.map { ($0.number, $0.role) }), keyHashes: keys.hashes)
    }

    /// Takes the members a store kept (a session taken over from another process): each resumes with its
    /// token, checked against its hash, and its role; the share keys are known by their hashes (new ones when the
    /// store kept none).
    func adopt(_ stored: StoredMembers) {
        members = stored.members.map {
            Member(number: $0.number, token: "", role: stored.role(of: $0.number), tokenHash: $0.tokenHash)
        }
        nextMember = stored.next
        keys = SessionKeys.stored(stored.keyHashes) ?? SessionKeys.make()
        rebuildConnections()
    }

    /// Makes `connection` member `number`'s connection. - Returns: the connection it replaces, if any.
    func attach(_ connection: Connection, member number: Int) -> Connection? {
        guard let index = index(of: number) else { return nil }
        let previous = members[index].connection
        members[index].connection = connection
        rebuildConnections()
        connection.frameBase = nil  // it holds none of this session's frames: the next one is whole
        connection.heldFrameBase = nil
        expiresAt = nil
        return previous
    }

    /// Detaches member `number`'s connection at `time`, lifting its pointers (a synthesised `touch cancel`
    /// each, in the order of their ids, applied and recorded like any message), so a vanished finger never
    /// holds a drag. - Returns: whether the session changed.
    ///
    /// Its pointers are the ones the recorded model has down (``TracedListModel/pointersDown``: every touch
    /// it was given, the page's id and its latest page time). The host gives it only touches its decoder
    /// accepted, which the engine never refuses (the same bounds), so these are the touches the session
    /// applied. (Not a list of its own in each member, which would be kept as well on every touch.)
    @discardableResult
    func detach(member number: Int, at time: Timestamp) -> Bool {
        guard let index = index(of: number) else { return false }
        let pointers = traced.pointersDown.filter { $0.member == number }.sorted { $0.pointer < $1.pointer }
        members[index].connection = nil
        members[index].detachedAt = time.microseconds
        rebuildConnections()
        var changed = false
        for down in pointers {
            let cancel = SynthesizedTouch.cancel(pointer: down.pointer, pageTime: down.pageTime)
            let accepted = cancel.text.withUnsafeBytes { text in
                (try? traced.apply(ReceivedInput(cancel.input, text: text), member: number, at: time)) != nil
            }
            changed = changed || accepted
        }
        if changed { version &+= 1 }
        return changed
    }

    // MARK: - The session

    /// Moves the session's clock to `time` (one nobody was connected to did not tick) and, for a session just started
    /// with a `hello.position`, puts it where that page's reader was (``restore(_:member:at:)``).
    func admitted(member number: Int, at time: Timestamp, restoring position: ReaderPosition?) {
        advance(to: time)
        if let position { _ = restore(position, member: number, at: time) }
    }

    /// Puts the session where member `number`'s reader was (`hello.position`, docs/PROTOCOL.md, "Your place, kept"):
    /// its `scrollToItem`, recorded as that member's, so a replay does the same. - Returns: whether the session took
    /// it (a feed outside the engine; an id the engine's own feed has not loaded is refused: it starts at the top).
    func restore(_ position: ReaderPosition, member number: Int, at time: Timestamp) -> Bool {
        let restore = SynthesizedCommand.restore(position)
        let accepted = restore.text.withUnsafeBytes { text in
            (try? traced.apply(ReceivedInput(restore.input, text: text), member: number, at: time)) != nil
        }
        if accepted { version &+= 1 }
        return accepted
    }

    /// Applies member `number`'s input.
    func apply(_ received: ReceivedInput, member number: Int, at time: Timestamp) throws(ListModelError) {
        try traced.apply(received, member: number, at: time)
        version &+= 1
    }

    /// Applies member `number`'s `touch`, received as `text` with `seq`, `binary` or JSON
    /// (``TracedListModel/apply(_:seq:text:binary:member:at:)``).
    func apply(
        _ touch: TouchInput, seq: UInt64?, text: UnsafeRawBufferPointer, binary: Bool, member number: Int,
        at time: Timestamp
    ) throws(ListModelError) {
        try traced.apply(touch, seq: seq, text: text, binary: binary, member: number, at: time)
        version &+= 1
    }

    /// Applies the feed source's `answer`, recorded as member −1's `feed_answer` (``TracedListModel/apply(feedAnswer:at:)``).
    func apply(feedAnswer answer: FeedAnswerInput, at time: Timestamp) throws(ListModelError) {
        try traced.apply(feedAnswer: answer, at: time)
        version &+= 1
    }

    func advance(to time: Timestamp) {
        traced.advance(to: time)
        version &+= 1
    }

    func takeEvents() -> [Event] { traced.takeEvents() }

    func takeRowsUpdates() -> [RowsUpdate]? { traced.takeRowsUpdates() }

    /// The `seq` of member `number`'s last applied input, if it has an acknowledgement (`welcome.ack`).
    func acknowledged(member number: Int) -> UInt64? { traced.acknowledgements.seq(of: number) }

    /// Member `number`'s last applied `seq` when its input `seq` is at or below it: applied already, since a page
    /// numbers its inputs upwards (a resend that crossed its first sending: docs/SCALING.md, "Resending").
    @inline(__always)
    func appliedAlready(_ seq: UInt64, member number: Int) -> UInt64? {
        guard let last = traced.acknowledgements.seq(of: number), seq <= last else { return nil }
        return last
    }

    func stopRecording() { traced.stopRecording() }

    /// Makes the recorded session's latest frame (``TracedListModel/latest``) its current one, producing (and
    /// recording) a new frame only when the session changed since the last.
    func prepareFrame() {
        guard frameVersion != version else { return }
        keepFrameBases()
        // The update from the previous frame is what the members that took it need, and what the recording
        // digests: made once, here. Without a previous frame it is the whole frame, which no delta key names.
        let base = traced.latestSequence
        messages.delta.removeAll()
        traced.makeFrame(appendingUpdateTo: &messages.delta)
        messages.deltaKey = base.map { .init(owner: owner, base: $0, frame: traced.latestSequence!) }
        frameVersion = version
    }

    /// Before a new frame replaces the session's ``TracedListModel/previous``: each connection that still holds
    /// it (it was not written the latest frame) keeps a copy, the base of its next delta.
    @inline(__always)
    private func keepFrameBases() {
        guard let previous = traced.previousSequence else { return }
        // (By index, and the copy out of line: a loop over the array with a call in it retained the array, and
        // the copy's code, inline, made the loop a call of its own: docs/PERFORMANCE.md, "No copies per input".)
        for index in connections.indices where connections[index].frameBase == previous {
            keepPreviousFrame(for: connections[index])
        }
    }

    @inline(never)
    private func keepPreviousFrame(for connection: Connection) {
        connection.heldFrameBase = traced.previous
    }

    /// Calls `body` with the message that brings `connection` to the latest frame (mutable, for `lws_write`'s
    /// in-place header), and takes note that the connection holds that frame from now on: the `frame` message
    /// for a connection that takes whole frames or holds none yet, else the `delta` from the frame it holds.
    func withFrameMessage<R>(for connection: Connection, _ body: (UnsafeMutableRawBufferPointer) -> R) -> R {
        prepareFrame()
        let latest = traced.latestSequence!  // prepareFrame always leaves one
        guard connection.frameFormat == .delta else { return withWholeFrame(latest, body) }
        defer { written(latest, to: connection) }
        guard let base = connection.frameBase else { return withWholeFrame(latest, body) }
        let key = FrameMessages.DeltaKey(owner: owner, base: base, frame: latest)
        if messages.deltaKey != key {
            // A sequence number names one frame of this session, and a connection's base is always one of
            // this session's frames (attach clears it), so equal keys mean equal bytes.
            messages.delta.removeAll()
            if !traced.encodeLatestDelta(from: base, into: &messages.delta) {
                traced.encodeLatestDelta(from: connection.heldFrameBase!, into: &messages.delta)
            }
            messages.deltaKey = key
        }
        return messages.delta.withUnsafeMutableBytesIncludingHeadroom(body)
    }

    /// Notes that `connection` holds frame `latest` now.
    private func written(_ latest: UInt64, to connection: Connection) {
        connection.frameBase = latest
        if connection.holdsFrameBase { connection.heldFrameBase = nil }
    }

    /// Calls `body` with the `frame` message of the latest frame (sequence number `latest`), encoding it if it is
    /// not yet.
    private func withWholeFrame<R>(_ latest: UInt64, _ body: (UnsafeMutableRawBufferPointer) -> R) -> R {
        let key = FrameMessages.WholeKey(owner: owner, frame: latest)
        if messages.wholeKey != key {
            messages.whole.removeAll()
            traced.encodeLatest(into: &messages.whole)
            messages.wholeKey = key
        }
        return messages.whole.withUnsafeMutableBytesIncludingHeadroom(body)
    }
}
