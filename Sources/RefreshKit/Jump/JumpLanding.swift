extension SourceRequest {
    /// Where a ``Kind/jump`` lands its item once the page is in: the command's alignment and animation, and its
    /// offset into the row in quarter pixels (±8 191.75 px, a quarter of a device pixel at 4×: four bytes in all, so
    /// a request takes no more room than before).
    public struct Landing: Hashable, Sendable, Codable {
        public var align: ItemAlignment
        public var animated: Bool
        public var quarters: Int16

        public init(align: ItemAlignment, animated: Bool, offset: Double = 0) {
            self.align = align
            self.animated = animated
            quarters = Int16(clamping: Int((offset * 4).rounded()))
        }

        /// The offset into the row, px.
        public var offset: Double { Double(quarters) / 4 }
    }
}
