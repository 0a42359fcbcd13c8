import RefreshKit

/// What a trace starts from: the arguments of the session's initialiser (docs/TRACE.md).
public struct TraceHeader: Hashable, Sendable {
    public var preset: String
    /// The session's viewport at its start, CSS px.
    public var viewport: Size
    public var devicePixelRatio: Double
    /// The simulated feed's seed.
    public var seed: UInt64
    /// The session's start on the engine's time axis (the server's clock: µs since the Unix epoch).
    public var start: Timestamp
    /// The external feed source's address as shown to people (`sqlite:demo.sqlite`), or `nil` for the
    /// simulated feed. The model of a trace with a source starts in `FeedMode.external` and takes the
    /// source's answers from the trace (member -1), so it replays without the source.
    public var feedSource: String?

    public init(
        preset: String, viewport: Size, devicePixelRatio: Double, seed: UInt64, start: Timestamp,
        feedSource: String? = nil
    ) {
        self.preset = preset
        self.viewport = viewport
        self.devicePixelRatio = devicePixelRatio
        self.seed = seed
        self.start = start
        self.feedSource = feedSource
    }

    /// The feed mode of the session's model: external when it has a ``feedSource``.
    public var feedMode: FeedMode { feedSource == nil ? .simulated : .external }
}

/// How much a ``TraceRecorder`` keeps, and how often it starts over from a snapshot of the session
/// (docs/TRACE.md, "Snapshots"): a recording holds the operations since its latest ``SessionSnapshot`` only, so
/// a session of any length records, stores and is taken over with a bounded trace.
public struct TraceLimits: Hashable, Sendable {
    /// Operations recorded after the latest snapshot at most; 0 records nothing.
    public var maxOperations: Int
    /// Bytes the recorded operations take at most, in the recorder's compact form (the page's messages
    /// included, as received, plus each operation's own few bytes: docs/TRACE.md, "Limits").
    public var maxBytes: Int
    /// A snapshot is taken (with the next frame) once this many operations were recorded since the last one.
    public var snapshotOperations: Int
    /// … or once the operations recorded since the last one take this many bytes.
    public var snapshotBytes: Int

    /// The defaults take a snapshot every 5 000 operations or 256 KiB (about half a minute of dragging at
    /// 60 Hz), which bounds a take-over's replay to milliseconds (docs/SCALING.md), well inside the limits,
    /// which a recording reaches only when the snapshots are made rarer than them.
    public init(
        maxOperations: Int = 50_000, maxBytes: Int = 2 << 20, snapshotOperations: Int = 5_000,
        snapshotBytes: Int = 256 << 10
    ) {
        self.maxOperations = maxOperations
        self.maxBytes = maxBytes
        self.snapshotOperations = snapshotOperations
        self.snapshotBytes = snapshotBytes
    }

    /// No bound and no snapshots (a replay, which re-records what it was given).
    public static let unlimited = TraceLimits(
        maxOperations: .max, maxBytes: .max, snapshotOperations: .max, snapshotBytes: .max)
}

/// One recorded call on the session, in the order the server made them.
public enum TraceOperation: Hashable, Sendable {
    /// `ListModel.apply` at `time` of a page message from `member`, its text exactly as received; or, from
    /// member ``feedSourceMember``, of a `feed_answer` the server made from its feed source's answer.
    case apply(time: Timestamp, member: Int, text: [UInt8])
    /// `ListModel.advance(to:)`.
    case advance(Timestamp)
    /// `ListModel.frame()` (the frame was encoded and sent).
    case frame
}

extension TraceOperation {
    /// The member number of the server's feed source: its answers (`feed_answer`) are recorded as applied by
    /// member -1, beside the pages' members, which count up from 0 (docs/TRACE.md).
    public static let feedSourceMember = -1
}

/// The running digest of a session's frames, and their count. Two runs that produce the same frames have
/// the same digest. There are three kinds (docs/TRACE.md, "digest"):
/// - ``Kind/deltas`` (what the server records): a 64-bit hash of the messages that bring a page from each
///   frame to the next — the `delta`s, the first frame's whole `frame` message — which the server makes
///   for its pages anyway (``addUpdate(_:)``);
/// - ``Kind/values`` (recorded by the servers before it): a 64-bit hash of every frame's values as its
///   `frame` message writes them (``add(_:)-(Frame)``);
/// - ``Kind/text`` (traces recorded before that, which carry no `digestOf`): 64-bit FNV-1a over the encoded
///   bytes of every frame, in order.
public struct FrameDigest: Hashable, Sendable, Codable {
    /// What the digest is taken over.
    public enum Kind: String, Hashable, Sendable, CaseIterable, Codable {
        /// The encoded `frame` messages' bytes.
        case text
        /// The values the `frame` messages write.
        case values
        /// The messages that bring a page from each frame to the next.
        case deltas
    }

    /// What this digest is taken over; a replay checks a trace with a digest of the trace's kind.
    public let kind: Kind
    /// The hash so far (the starting value when no frame was added).
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    /// Frames added.
    public private(set) var count: UInt64 = 0

    /// An empty digest of `kind` (new recordings digest ``Kind/deltas``).
    public init(kind: Kind) {
        self.kind = kind
    }

    init(kind: Kind, value: UInt64, count: UInt64) {
        self.kind = kind
        self.value = value
        self.count = count
    }

    /// Adds one frame's encoded bytes (a ``Kind/text`` digest).
    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        assert(kind == .text, "the text of a frame added to a digest of values")
        var hash = value
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        value = hash
        count &+= 1
    }

    /// Adds one frame by the message that brings a page holding the previous frame to it (a ``Kind/deltas``
    /// digest): its `delta` from the previous frame, or the whole `frame` message for the first frame. The
    /// words are the message's length, then its bytes 8 to a word, little-endian, zero-padded, mixed like
    /// ``Kind/values`` words. The deltas determine the frames (a page rebuilds each frame from them, exactly),
    /// so two runs with the same deltas have the same frames, and the other way round.
    public mutating func addUpdate(_ message: UnsafeRawBufferPointer) {
        assert(kind == .deltas, "an update message added to a digest of another kind")
        // The hash in a local and the words loaded through the base address, two to a turn of the loop: no
        // store of `value`, no bounds check, less loop per word; and the last, partial word in one load (the
        // same words, mixed the same way; docs/PERFORMANCE.md, "The trace's records").
        let length = message.count
        var hash = Self.mixed(value, UInt64(length))
        if let base = message.baseAddress {
            var i = 0
            while i &+ 16 <= length {
                hash = Self.mixed(hash, Self.word(base, at: i))
                hash = Self.mixed(hash, Self.word(base, at: i &+ 8))
                i &+= 16
            }
            if i &+ 8 <= length {
                hash = Self.mixed(hash, Self.word(base, at: i))
                i &+= 8
            }
            if i < length, length >= 8 {
                // The message's last 8 bytes, shifted down to the `length - i` not mixed yet: the word the
                // loop below makes, zero-padded, in one load, not byte by byte.
                hash = Self.mixed(hash, Self.word(base, at: length &- 8) &>> UInt64(8 &* (8 &- (length &- i))))
            } else if i < length {
                var word: UInt64 = 0
                var shift: UInt64 = 0
                while i < length {
                    word |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) &<< shift
                    shift &+= 8
                    i &+= 1
                }
                hash = Self.mixed(hash, word)
            }
        }
        value = hash
        count &+= 1
    }

    /// The little-endian word of the 8 bytes at `offset` from `base`.
    @inline(__always)
    private static func word(_ base: UnsafeRawPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Continues a ``Kind/values`` digest with one word of a frame's canonical form.
    @inline(__always)
    mutating func mix(_ word: UInt64) {
        value = Self.mixed(value, word)
    }

    /// `hash` continued with `word`: FNV-1a's step on a whole word, then the high half folded down (a
    /// multiplication only carries differences upwards, so without the fold the low bits would never see the
    /// high ones).
    @inline(__always)
    static func mixed(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let product = (hash ^ word) &* 0x0000_0100_0000_01b3
        return product ^ (product >> 32)
    }

    mutating func countFrame() {
        count &+= 1
    }

    /// The digest as 16 lowercase hex digits.
    public var hex: String { Self.hex(value) }

    static func hex(_ value: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 {
            bytes[index] = digits[Int((value >> UInt64(60 - 4 * index)) & 0xF)]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A trace that cannot be read or replayed.
public struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A recorded trace, read back from its JSON (docs/TRACE.md): the session's start, every operation, and the
/// digest of the frames the recording produced.
public struct Trace: Hashable, Sendable {
    /// The format written now (docs/TRACE.md, "Versions").
    public static let format = "refreshkit.trace.v2"
    /// The format before it, still read: its frames carried the simulated feed's `newest` and that feed's rows
    /// as they were then, so a replay of it runs but cannot check its digest.
    public static let formatV1 = "refreshkit.trace.v1"

    /// The format's version: 2, or 1 for a trace recorded before ``format``.
    public var version = 2
    public var header: TraceHeader
    /// The binary form of the ``SessionSnapshot`` the operations start from (`nil`: they start at the
    /// session's start, as the header describes it).
    public var snapshot: [UInt8]?
    public var operations: [TraceOperation]
    /// The frames produced while recording (from the session's start, those before the snapshot included),
    /// and their digest.
    public var frames: FrameDigest
    /// Whether the recording stopped at its limit (the operations and the digest stop at the same point).
    public var truncated: Bool
    /// Whether the trace holds only one member's messages (`"partial":true`: exported by a member that is not the
    /// session's owner, PROTOCOL.md "trace"): its frames cannot be reproduced from it.
    public var partial = false
    /// For a partial trace: the member whose messages it holds.
    public var partialMember: Int?

    public init(
        header: TraceHeader, snapshot: [UInt8]? = nil, operations: [TraceOperation], frames: FrameDigest,
        truncated: Bool
    ) {
        self.header = header
        self.snapshot = snapshot
        self.operations = operations
        self.frames = frames
        self.truncated = truncated
    }

    /// Reads a trace from its JSON text.
    public init(json: [UInt8]) throws(TraceError) {
        let result: Result<Trace, TraceError> = json.withUnsafeBytes { bytes in
            Result { () throws(TraceError) in try Trace(json: bytes) }
        }
        self = try result.get()
    }

    /// Reads a trace from its JSON text.
    public init(json bytes: UnsafeRawBufferPointer) throws(TraceError) {
        let text = JSONText(bytes)
        let outline: JSONText.Outline
        do {
            outline = try text.validate(maxDepth: 64)
        } catch {
            throw TraceError("not a trace: \(error.message)")
        }
        guard outline.isObject else { throw TraceError("not a trace: the JSON is not an object") }
        var fields: [String: Int] = [:]
        try Self.members(text, outline.start) { name, value in fields[name] = value }

        guard let format = fields["format"], text.kind(at: format) == .string,
            let version = [Self.formatV1: 1, Self.format: 2][text.makeString(text.string(at: format))]
        else {
            throw TraceError("not a trace: \"format\" must be \"\(Self.format)\" (or \"\(Self.formatV1)\")")
        }
        guard let presetPosition = fields["preset"], text.kind(at: presetPosition) == .string else {
            throw TraceError("\"preset\" must be a string")
        }
        let preset = text.makeString(text.string(at: presetPosition))
        guard let viewportPosition = fields["viewport"], text.kind(at: viewportPosition) == .object else {
            throw TraceError("\"viewport\" must be an object {w, h}")
        }
        var sides: [String: Int] = [:]
        try Self.members(text, viewportPosition) { name, value in sides[name] = value }
        guard let w = sides["w"].flatMap(text.number(at:)), let h = sides["h"].flatMap(text.number(at:)) else {
            throw TraceError("\"viewport\" must be an object {w, h} of numbers")
        }
        guard let dpr = fields["dpr"].flatMap(text.number(at:)) else { throw TraceError("\"dpr\" must be a number") }
        guard let seed = fields["seed"].flatMap({ Self.unsigned(text, $0) }) else {
            throw TraceError("\"seed\" must be a non-negative integer")
        }
        guard let start = fields["start"].flatMap({ Self.integer(text, $0) }) else {
            throw TraceError("\"start\" must be an integer (µs)")
        }
        guard let frames = fields["frames"].flatMap({ Self.integer(text, $0) }), frames >= 0 else {
            throw TraceError("\"frames\" must be a non-negative integer")
        }
        guard let digestPosition = fields["digest"], text.kind(at: digestPosition) == .string,
            let digest = UInt64(text.makeString(text.string(at: digestPosition)), radix: 16)
        else {
            throw TraceError("\"digest\" must be a string of hex digits")
        }
        // Traces recorded before value digests have no "digestOf": theirs is over the frames' text.
        var digestKind = FrameDigest.Kind.text
        if let position = fields["digestOf"] {
            guard text.kind(at: position) == .string,
                let kind = FrameDigest.Kind(rawValue: text.makeString(text.string(at: position)))
            else {
                throw TraceError("\"digestOf\" must be \"deltas\", \"values\" or \"text\"")
            }
            digestKind = kind
        }
        var feedSource: String?
        if let position = fields["feedSource"] {
            guard text.kind(at: position) == .string else { throw TraceError("\"feedSource\" must be a string") }
            feedSource = text.makeString(text.string(at: position))
        }
        let truncated = fields["truncated"].map { text.byte($0) == .t } ?? false
        var snapshot: [UInt8]?
        if let position = fields["snapshot"] {
            guard text.kind(at: position) == .string,
                let bytes = Base64.decode(Array(text.makeString(text.string(at: position)).utf8))
            else {
                throw TraceError("\"snapshot\" must be a string of base64 (a session snapshot, docs/TRACE.md)")
            }
            snapshot = bytes
        }
        guard let opsPosition = fields["ops"], text.kind(at: opsPosition) == .array else {
            throw TraceError("\"ops\" must be an array")
        }
        var positions: [Int] = []
        do {
            try text.forEachElement(ofArrayAt: opsPosition) { positions.append($0) }
        } catch {
            throw TraceError("\"ops\": \(error.message)")
        }
        var operations: [TraceOperation] = []
        operations.reserveCapacity(positions.count)
        for (index, position) in positions.enumerated() {
            operations.append(try Self.operation(text, position, index: index))
        }
        self.init(
            header: TraceHeader(
                preset: preset, viewport: Size(width: w, height: h), devicePixelRatio: dpr, seed: seed,
                start: Timestamp(microseconds: start), feedSource: feedSource),
            snapshot: snapshot, operations: operations,
            frames: FrameDigest(kind: digestKind, value: digest, count: UInt64(frames)),
            truncated: truncated)
        self.version = version
        if let position = fields["partial"], text.byte(position) == .t {
            partial = true
            partialMember = fields["member"].flatMap { Self.integer(text, $0) }.flatMap { Int(exactly: $0) }
        }
    }

    private static func operation(_ text: JSONText, _ position: Int, index: Int) throws(TraceError) -> TraceOperation {
        guard text.kind(at: position) == .object else { throw TraceError("ops[\(index)] must be an object") }
        var fields: [String: Int] = [:]
        try members(text, position) { name, value in fields[name] = value }
        if let value = fields["frame"], text.byte(value) == .t {
            return .frame
        }
        guard let time = fields["t"].flatMap({ integer(text, $0) }) else {
            throw TraceError("ops[\(index)] needs an integer \"t\" (µs), or \"frame\": true")
        }
        if let value = fields["advance"], text.byte(value) == .t {
            return .advance(Timestamp(microseconds: time))
        }
        guard let message = fields["apply"], text.kind(at: message) == .object else {
            throw TraceError(
                "ops[\(index)] must be {\"frame\":true}, {\"t\",\"advance\":true} or {\"t\",\"apply\":{…}}")
        }
        let member = fields["member"].flatMap { integer(text, $0) } ?? 0
        guard (Int64(TraceOperation.feedSourceMember)...Int64(Int32.max)).contains(member) else {
            throw TraceError("ops[\(index)].member must be a small non-negative integer, or -1 (the feed source)")
        }
        let end = text.valueEnd(message)
        let bytes = Array(UnsafeRawBufferPointer(rebasing: text.bytes[message..<end]))
        return .apply(time: Timestamp(microseconds: time), member: Int(member), text: bytes)
    }

    /// Every member of the object at `position`: its (unescaped) name and where its value starts.
    private static func members(_ text: JSONText, _ position: Int, _ body: (String, Int) -> Void) throws(TraceError) {
        do {
            try text.forEachMember(ofObjectAt: position) { key, value in body(text.makeString(key), value) }
        } catch {
            throw TraceError(error.message)
        }
    }

    /// An integer written with digits only (an optional `-`, no fraction or exponent), read exactly.
    static func integer(_ text: JSONText, _ position: Int) -> Int64? {
        guard let (negative, magnitude) = digits(text, position) else { return nil }
        if negative {
            return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// A non-negative integer written with digits only, read exactly (up to 2⁶⁴ − 1).
    static func unsigned(_ text: JSONText, _ position: Int) -> UInt64? {
        guard let (negative, magnitude) = digits(text, position), !negative || magnitude == 0 else { return nil }
        return magnitude
    }

    private static func digits(_ text: JSONText, _ position: Int) -> (negative: Bool, magnitude: UInt64)? {
        var index = position
        let negative = text.byte(index) == .minus
        if negative { index += 1 }
        var magnitude: UInt64 = 0
        var digits = 0
        while text.byte(index).isDigit {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(text.byte(index) &- .digit0))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        switch text.byte(index) {
        case .dot, .e, .capitalE: return nil
        default: return (negative, magnitude)
        }
    }
}
