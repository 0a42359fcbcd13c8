import RefreshSessions

/// The pieces of messages one turn of the loop has read, in the order lws delivered them, each with the connection
/// it came on and the time it was read: handed to the host together once the turn's reads are done
/// (``ServiceLoop/handOverTurnInputs()``), or earlier, before any other event is told to the host.
///
/// Why not one at a time, as lws delivers them: at 1 000 sessions a turn's `epoll_wait` reports some twenty
/// sockets, and each input finds its session cold in the cache, a chain of loads from memory. Held, an input costs
/// its connection's line (which the transport reads anyway) and a copy of its ~60 bytes, and its session's memory
/// is fetched while lws reads the next sockets (``SessionPrefetch``); handed over, the host finds it in the cache
/// (docs/PERFORMANCE.md, "A turn's inputs together"). What the host sees does not change: every piece reaches it
/// in the order it was read, with the time it was read, and before any other event of the turn.
struct TurnInputs {
    /// One piece as lws delivered it: where its bytes are in ``bytes``, and what lws said of it.
    struct Piece {
        let connection: Unmanaged<Connection>
        let start: Int
        let count: Int
        let binary: Bool
        let isLast: Bool
        let time: Int64
    }

    /// Longer pieces are not held (a `touch` is under 130 bytes; a piece of a `configure` or a preset file may be
    /// 1 KiB): the turn's pieces so far are handed over, then it goes to the host at once.
    static let largestPiece = 512
    /// The most bytes held at once: a turn of a flood hands its pieces over as they reach it, so the memory kept
    /// for the next turn stays this small.
    static let heldBytesLimit = 64 << 10

    private(set) var pieces: [Piece] = []
    private var bytes: [UInt8] = []

    init() {
        pieces.reserveCapacity(64)
        bytes.reserveCapacity(64 * 128)
    }

    var isEmpty: Bool { pieces.isEmpty }

    /// Whether `count` more bytes can be held now (else: hand the held pieces over first, or, for a piece over
    /// ``largestPiece``, give it to the host at once).
    func canHold(_ count: Int) -> Bool {
        count <= Self.largestPiece && bytes.count + count <= Self.heldBytesLimit
    }

    /// Holds `piece` until the turn's pieces are handed over (``canHold(_:)`` said it can).
    mutating func hold(
        _ piece: UnsafeRawBufferPointer, binary: Bool, isLast: Bool, on connection: Unmanaged<Connection>,
        at time: Int64
    ) {
        pieces.append(
            Piece(
                connection: connection, start: bytes.count, count: piece.count, binary: binary, isLast: isLast,
                time: time))
        bytes.append(contentsOf: piece)
    }

    /// Hands each held piece to `body` in the order it was read, then forgets them (keeping the memory for the
    /// next turn). `body` must not hold pieces meanwhile.
    mutating func handOver(_ body: (_ bytes: UnsafeRawBufferPointer, _ piece: Piece) -> Void) {
        bytes.withUnsafeBytes { all in
            for piece in pieces {
                body(UnsafeRawBufferPointer(rebasing: all[piece.start..<piece.start + piece.count]), piece)
            }
        }
        pieces.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }
}
