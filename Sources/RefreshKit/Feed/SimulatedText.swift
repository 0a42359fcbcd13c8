/// The text of the simulated feed's item `id`: a title-like line and zero to four more sentences, picked by a
/// hash of the id alone, so rows of many heights follow one another (docs/FEEDS.md, "The simulated feed") and
/// every page, replay and process shows the same words.
enum SimulatedText {
    private static let adjectives = [
        "Morning", "Quiet", "Bright", "Late", "Early", "Small", "Open", "Fresh", "Silver", "Northern", "Golden",
        "Hidden", "Rapid", "Gentle", "Distant", "Urban",
    ]
    private static let subjects = [
        "notes on the harbour", "update from the team", "photos from the trip", "thoughts on springs",
        "release checklist", "weekend plans", "design review", "field report", "reading list", "recipe swap",
        "train timetable", "garden diary", "build results", "meeting minutes", "travel log", "market prices",
    ]
    private static let sentences = [
        "The tide came in early and the boats waited by the wall.",
        "Nothing broke, which is the best thing a build can say.",
        "Three of us walked the long way round and found the bakery still open.",
        "A spring that settles within one device pixel looks at rest to everyone.",
        "The list held still while new rows arrived above the one being read.",
        "Bring a coat.",
        "We moved the meeting to Thursday so that the figures could be checked twice.",
        "The beans want more water than the packet says, and less salt.",
        "Trains ran on time except the last one, which nobody minded.",
        "Tomatoes are late this year; the basil is not.",
    ]

    /// The text of item `id`.
    static func text(of id: Int) -> String {
        var hash = SeededGenerator(seed: UInt64(bitPattern: Int64(id)))
        let first = adjectives[Int(hash.next() % UInt64(adjectives.count))]
        let second = subjects[Int(hash.next() % UInt64(subjects.count))]
        var text = "Item \(id): \(first) \(second)."
        for _ in 0..<Int(hash.next() % 5) {
            text += " " + sentences[Int(hash.next() % UInt64(sentences.count))]
        }
        return text
    }
}
