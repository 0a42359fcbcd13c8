import RefreshKit
import RefreshWire

// Rows of measured heights (docs/LAYOUT.md, "Wiring"; docs/PROTOCOL.md, "measure, heights"): a page's `measure`
// is applied as a timed input like any other; the heights the engine accepted go to every member, so that every
// device draws the rows at the same heights, and a page that joins gets every height measured so far.
extension SessionHost {
    /// After an applied `measure` (`staleBefore`: the session's count of stale batches before it): every member,
    /// the sender too, gets the heights the engine accepted (`heights`). A batch made at another width changed
    /// nothing, and nothing is sent; one that named rows of a page the window dropped while it was on its way had
    /// its other rows applied, and those are sent (a page waits for them: the rows it sent stay "sent, not
    /// accepted" until a `heights` names them).
    func announceHeights(_ batch: MeasureInput, staleBefore: Int, of session: Session) {
        var rows = batch.rows
        if session.model.staleMeasurements != staleBefore {
            // The rows held now: those it applied, less any of a page the window dropped after it, in the same
            // step (a page forgets what it sent of a page dropped, and waits for no height of it).
            guard batch.width == session.model.viewport.width, let layout = session.model.rowLayout else { return }
            rows = layout.withoutDroppedRows(rows)
        }
        guard !rows.isEmpty else { return }
        let message = ServerMessage.heights(Self.accepted(rows))
        for connection in session.connections where connection.lifecycle.takesSessionOutput {
            enqueue(message, on: connection)
        }
    }

    /// After the `rows` `replace` that follows `welcome`: every height measured so far, in one `heights`.
    func welcomeHeights(_ connection: Connection, to session: Session) {
        let heights = session.model.measuredHeights
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
