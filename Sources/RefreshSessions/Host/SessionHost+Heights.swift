import RefreshKit
import RefreshWire

// Rows of measured heights (docs/LAYOUT.md, "Wiring"; docs/PROTOCOL.md, "measure, heights"): a page's `measure`
// is applied as a timed input like any other; the heights the engine accepted go to every member, so that every
// device draws the rows at the same heights, and a page that joins gets every height measured so far.
extension SessionHost {
    /// After an applied `measure`: every member, the sender too, gets the heights the engine accepted (`heights`),
    /// the rows ``ListModel/measuredRows(of:)`` names. A batch made at another width changed nothing, and nothing
    /// is sent; of one that named rows of a page the window dropped while it was on its way, the rows it applied
    /// (a page waits for a `heights` naming each row it sent; it forgets what it sent of a page dropped).
    func announceHeights(_ batch: MeasureInput, of session: Session) {
        let rows = session.model.measuredRows(of: batch)
        guard !rows.isEmpty else { return }
        let message = ServerMessage.heights(Self.accepted(rows))
        for connection in session.connections where connection.lifecycle.takesSessionOutput {
            enqueue(message, on: connection)
        }
    }

    /// After the `rows` `replace` that follows `welcome`: every height measured so far, in one `heights`.
    func welcomeHeights(_ connection: Connection, to session: Session) {
        let heights = session.model.pager.measuredHeights
        guard !heights.isEmpty else { return }
        enqueue(.heights(heights), on: connection)
    }

    /// The heights a batch leaves: a row named twice keeps its last height, at its last place.
    static func accepted(_ rows: [RowMeasurement]) -> [RowMeasurement] {
        var last: [String: Int] = [:]
        for (index, row) in rows.enumerated() { last[row.id] = index }
        guard last.count < rows.count else { return rows }
        return rows.enumerated().filter { last[$0.element.id] == $0.offset }.map(\.element)
    }
}
