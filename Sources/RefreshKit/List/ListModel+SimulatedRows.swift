/// The simulated feed's rows on top (docs/LAYOUT.md, "The simulated feed"): its rows are `feed.rowHeight` each,
/// so rows a refresh put above the loaded ones move every row down by their height, and the offset moves with
/// them: the first visible row stays where it is on screen, at rest, during a drag and during a fling, whose
/// velocity is left as it is (``ScrollModel/shift(by:contentSize:)``, as for an external feed's rows).
extension ListModel {
    /// Takes the content size after an answer, first moving the offset by the `onTop` rows put above.
    mutating func keepRowsStill(under onTop: Int) {
        guard onTop > 0 else {
            scroll.setContentSize(contentSize)
            return
        }
        scroll.shift(by: Double(onTop) * configuration.feed.rowHeight, contentSize: contentSize)
    }
}
