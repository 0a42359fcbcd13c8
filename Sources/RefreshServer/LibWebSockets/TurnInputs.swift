import RefreshSessions

/// The pieces of messages one turn of the loop has read, in the order lws delivered them, each with the connection
/// it came on and the time it was read: handed to the host together once the turn's reads are done
/// (``ServiceLoop/handOverTurnInputs()``), or earlier: before any other event is told to the host, and whenever
/// ``heldPiecesLimit`` are held.
///
/// Why not one at a time, as lws delivers them: at 1 000 sessions a turn's `epoll_wait` reports some twenty
/// sockets, and each input finds its session cold in the cache, a chain of loads from memory. Held, an input costs
/// its connection's line (which the transport reads anyway) and a copy of its bytes, and its session's memory
/// is fetched while lws reads the next sockets (``SessionPrefetch``); handed over, the host finds it in the cache
/// (docs/PERFORMANCE.md, "A turn's inputs together"). What the host sees does not change: every piece reaches it
/// in the order it was read, with the time it was read, and before any other event of the turn.
final class TurnInputs {
    /// One piece as lws delivered it: where its bytes are in ``bytes``, and what lws said of it.
    struct Piece {
        let connection: Unmanaged<Connection>
        /// Where lws's memory of the connection keeps its ``InputMemory``.
        let memory: UnsafeMutableRawPointer
        let start: Int
        let count: Int
        let binary: Bool
        let isLast: Bool
        let time: Int64
    }

    /// Longer pieces are not held (a `touch` is under 130 bytes; a piece of a `configure` or a preset file may be
    /// 1 KiB): the turn's pieces so far are handed over, then it goes to the host at once.
    static let largestPiece = 512
    /// The most pieces held at once: a larger turn hands them over every so many. The generator's bursts bring
    /// turns of 400–900 sockets, and an input held until the turn had read them all waited for every read after
    /// it (lws's echo answers each in its read); 32 reads are far more than a fetch needs to arrive, and a short
    /// enough wait (the server's own input-to-frame p99 at 1 000 sessions 0.25–1 ms, against 1–16 ms when a turn
    /// held up to 1 024: docs/PERFORMANCE.md, "A burst handed over 32 inputs at a time").
    static let heldPiecesLimit = 32
    /// The most bytes held at once: as many pieces of the largest size.
    static let heldBytesLimit = heldPiecesLimit * largestPiece

    /// Memory of their own, allocated once at their full size and never zeroed (pages a turn never reaches are
    /// never touched): holding a piece is written in place, not by an array's appends, each checking capacity and
    /// uniqueness (docs/PERFORMANCE.md, "A turn's inputs together").
    private let pieces: UnsafeMutableBufferPointer<Piece>
    private let bytes: UnsafeMutableRawPointer
    private var pieceCount = 0
    private var byteCount = 0

    init() {
        pieces = .allocate(capacity: Self.heldPiecesLimit)
        bytes = .allocate(byteCount: Self.heldBytesLimit, alignment: 16)
    }

    deinit {
        pieces.deallocate()
        bytes.deallocate()
    }

    var isEmpty: Bool { pieceCount == 0 }

    /// Whether a piece of `count` bytes can be held now (else: hand the held pieces over first, or, for a piece
    /// over ``largestPiece``, give it to the host at once).
    func canHold(_ count: Int) -> Bool {
        count <= Self.largestPiece && byteCount &+ count <= Self.heldBytesLimit && pieceCount < Self.heldPiecesLimit
    }

    /// Holds `piece` until the turn's pieces are handed over (``canHold(_:)`` said it can).
    func hold(
        _ piece: UnsafeRawBufferPointer, binary: Bool, isLast: Bool, on connection: Unmanaged<Connection>,
        memory: UnsafeMutableRawPointer, at time: Int64
    ) {
        assert(canHold(piece.count) && !isHandingOver, "a piece held past the turn's bounds, or while handed over")
        (pieces.baseAddress! + pieceCount).initialize(
            to: Piece(
                connection: connection, memory: memory, start: byteCount, count: piece.count, binary: binary,
                isLast: isLast,
                time: time))
        if let source = piece.baseAddress { (bytes + byteCount).copyMemory(from: source, byteCount: piece.count) }
        pieceCount &+= 1
        byteCount &+= piece.count
    }

    /// Whether ``handOver(_:)`` is under way. A piece names its connection unretained: lws must not report a
    /// connection closed meanwhile, and does not (the host's writes, `lws_write`, never close a socket from
    /// inside; a failed one is closed later, from lws's timeout check: `ServiceLoop.kill`).
    private(set) var isHandingOver = false

    /// Hands each held piece to `body` in the order it was read, and forgets them: a hand-over asked for from
    /// inside `body` finds none. `body` must not hold pieces.
    func handOver(_ body: (_ bytes: UnsafeRawBufferPointer, _ piece: Piece) -> Void) {
        let count = pieceCount
        guard count > 0 else { return }
        (pieceCount, byteCount) = (0, 0)
        isHandingOver = true
        defer { isHandingOver = false }
        for index in 0..<count {
            let piece = pieces[index]
            body(UnsafeRawBufferPointer(start: bytes + piece.start, count: piece.count), piece)
        }
    }
}
