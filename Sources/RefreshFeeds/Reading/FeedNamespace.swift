/// The namespace URIs feeds use, matched by URI and never by prefix: a feed may bind any prefix to them
/// (docs/FEEDS.md, "Reading feeds: the field mapping").
enum FeedNamespace {
    /// RSS 0.91, 0.92 and 2.0's own elements, which are in no namespace.
    static let none = ""
    static let atom10 = "http://www.w3.org/2005/Atom"
    static let atom03 = "http://purl.org/atom/ns#"
    static let rss10 = "http://purl.org/rss/1.0/"
    static let rss090 = "http://my.netscape.com/rdf/simple/0.9/"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let dublinCoreTerms = "http://purl.org/dc/terms/"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    static let xhtml = "http://www.w3.org/1999/xhtml"
    /// Media RSS; feeds write it with and without the final slash.
    static let media = ["http://search.yahoo.com/mrss/", "http://search.yahoo.com/mrss"]
}
