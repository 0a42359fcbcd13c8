extension ListModel {
    /// Where the model's items come from.
    public var feedMode: FeedMode { pager.mode }

    /// The request the model has running to its external source (``FeedMode/external``), or `nil`. A host
    /// submits it to the source when its ``SourceRequest/id`` differs from the last one it submitted for the
    /// session (so a session rebuilt by a replay asks again), and applies the answer as an
    /// ``Input/feedAnswer(_:)``.
    public var sourceRequest: SourceRequest? { pager.source?.running }

    /// The items an external source has loaded, newest first (empty for the simulated feed, whose rows are
    /// ids: ``FeedFrame/newestID``).
    public var feedItems: [FeedItem] { pager.source?.loaded.items ?? [] }

    /// What the last applied feed answer changed in ``feedItems`` (`nil`: nothing, or it failed).
    public var lastRowsChange: RowsChange? { pager.source?.lastRowsChange }

    /// The last requests to the external source that ended, oldest first (at most
    /// ``SourcePager/logLength``), and how many ended in all.
    public var answeredRequests: (recent: [AnsweredRequest], total: Int) {
        guard let source = pager.source else { return ([], 0) }
        return (source.answered, source.answeredCount)
    }
}
