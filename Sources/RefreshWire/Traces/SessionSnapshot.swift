import RefreshKit

/// A recorded session's whole state at one moment (docs/TRACE.md, "Snapshots"): what a replay needs to go on
/// from there instead of from the session's start. A trace that starts from a snapshot holds only the
/// operations after it, so a session of any length is stored, exported and taken over with a bounded trace.
///
/// It holds the model (`ListModel`, every field), the `ack` map, the latest frame (the base of the next
/// frame's `delta`), and the frames' digest so far; producing the next frame from a restored snapshot gives the
/// same bytes as the live session did, which the digest checks at the end of every replay.
///
/// Its binary form (``encoded()``) is `RKSS`, the format ``version`` as a LEB128 varint, then the state as a
/// ``SnapshotValue`` (the `Codable` conformances of the engine's types, written by ``SnapshotEncoder``).
public struct SessionSnapshot: Sendable, Codable {
    /// The format this build writes and reads; a snapshot of another version is refused with a clear error.
    public static let version: UInt64 = 2
    static let magic = Array("RKSS".utf8)

    /// The frame a host sent last, with its `ack` map.
    public struct Latest: Sendable, Codable {
        public var frame: Frame
        public var acknowledgements: Acknowledgements

        public init(frame: Frame, acknowledgements: Acknowledgements) {
            self.frame = frame
            self.acknowledgements = acknowledgements
        }
    }

    /// A member's pointer that is down (touched, not lifted) at the snapshot: what a process taking the session
    /// over lifts, since nobody is connected to it then.
    public struct Pointer: Sendable, Codable, Hashable {
        public var member: Int
        /// The page's pointer id (not namespaced).
        public var pointer: Int
        /// The `t` of its last touch (ms, the page's clock).
        public var pageTime: Double

        public init(member: Int, pointer: Int, pageTime: Double) {
            self.member = member
            self.pointer = pointer
            self.pageTime = pageTime
        }
    }

    /// The engine's model, every field of it.
    public var model: ListModel
    /// Each member's last applied `seq` (`TracedListModel`'s table, with its order of use).
    public var acknowledgements: AcknowledgementTable
    /// The latest frame, the base of the next frame's `delta`; `nil` before the first frame.
    public var latest: Latest?
    /// The frames recorded before the snapshot, and their digest: the replay's digest goes on from it.
    public var frames: FrameDigest
    /// `ListModel.schedule()` as of the last `apply` or `advance` before the snapshot.
    public var isActive: Bool
    public var nextDeadline: Timestamp?
    /// The pointers down, ordered by member, then pointer.
    public var pointersDown: [Pointer]
    /// Operations the session recorded before the snapshot, from its start (earlier snapshots included).
    public var operationsBefore: Int

    public init(
        model: ListModel, acknowledgements: AcknowledgementTable, latest: Latest?, frames: FrameDigest,
        isActive: Bool, nextDeadline: Timestamp?, pointersDown: [Pointer], operationsBefore: Int
    ) {
        self.model = model
        self.acknowledgements = acknowledgements
        self.latest = latest
        self.frames = frames
        self.isActive = isActive
        self.nextDeadline = nextDeadline
        self.pointersDown = pointersDown
        self.operationsBefore = operationsBefore
    }

    /// The snapshot's binary form.
    public func encoded() -> [UInt8] {
        var bytes = Self.magic
        var version = Self.version
        while version >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: version) | 0x80)
            version >>= 7
        }
        bytes.append(UInt8(version))
        do {
            try SnapshotEncoder().encode(self).write(into: &bytes)
        } catch {
            // The encoder itself never throws, and the engine's conformances are synthesised.
            preconditionFailure("a session snapshot did not encode: \(error)")
        }
        return bytes
    }

    /// Reads a snapshot's binary form. Throws when it is not one, is of another format version, or does not
    /// hold a session's state.
    public init(encoded bytes: [UInt8]) throws(TraceError) {
        guard bytes.count > Self.magic.count, bytes.starts(with: Self.magic) else {
            throw TraceError("not a session snapshot (it must start with \"RKSS\")")
        }
        var at = Self.magic.count
        var version: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard at < bytes.count, shift < 64 else { throw TraceError("the snapshot's version is cut short") }
            let byte = bytes[at]
            at += 1
            version |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        guard version == Self.version else {
            throw TraceError(
                "the snapshot is of format version \(version), which this build does not read (it reads version "
                    + "\(Self.version))")
        }
        let tree = try SnapshotValue.read(bytes[at...])
        do {
            self = try SnapshotDecoder().decode(Self.self, from: tree)
        } catch {
            throw TraceError("the snapshot does not hold a session's state: \(error)")
        }
    }
}
