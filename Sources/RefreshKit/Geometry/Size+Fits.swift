extension Size {
    /// Whether content of this size is no longer than `viewport` less the app's `insets` along `axis`:
    /// HTRefreshView's test for hiding its footer, `C ≤ H − orig.top − orig.bottom` (docs/SEEDS.md §3.4, HT state
    /// machine and callbacks, "contentSize changes").
    func fits(in viewport: Size, less insets: EdgeInsets, along axis: Axis) -> Bool {
        switch axis {
        case .vertical: height <= viewport.height - insets.top - insets.bottom
        case .horizontal: width <= viewport.width - insets.left - insets.right
        }
    }
}
