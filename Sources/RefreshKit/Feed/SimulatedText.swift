/// What the simulated feed's item `id` says (docs/FEEDS.md, "The simulated feed"): its author line, "Item `id`", and
/// one of a dozen texts from one short sentence to a paragraph, picked by a hash of the id alone, so rows of many
/// heights follow one another and every page, replay and process shows the same words.
///
/// The texts are literals and the author line is at most 15 bytes, so an item's strings live in the program or
/// inside the item, and a session's rows cost no allocation per item (docs/PERFORMANCE.md, "Memory per connected
/// session").
enum SimulatedText {
    private static let texts: [String] = [
        "Bring a coat.",
        "Nothing broke, which is the best thing a build can say.",
        "The tide came in early and the boats waited by the harbour wall until the light went.",
        "Tomatoes are late this year; the basil is not. The beans want more water than the packet says.",
        "Release checklist: the notes are written, the figures checked twice, the tag pushed. Trains ran on time "
            + "except the last one, which nobody minded.",
        "Three of us walked the long way round and found the bakery still open.",
        "Weekend plans: the market in the morning, the garden in the afternoon, and a long dinner with whoever "
            + "turns up. Bring something to share; there is always too much bread and never enough cheese. The "
            + "forecast says rain, which it said last week too.",
        "A spring that settles within one device pixel looks at rest to everyone.",
        "Meeting minutes. We moved the review to Thursday so that the figures could be checked twice, agreed "
            + "that the list must hold still while new rows arrive above the one being read, and left the naming "
            + "question for another day.",
        "Photos from the trip are up.",
        "Field report: the north path is clear as far as the bridge; past it the river has taken the lower "
            + "track, so keep to the ridge.",
        "Reading list for the winter: three novels, one book about bridges, and the manual for the new oven, "
            + "which is longer than all of them and has a better plot. Suggestions are welcome, the shorter the "
            + "better.",
    ]

    /// The author line of item `id`.
    static func author(of id: Int) -> String { "Item \(id)" }

    /// The text of item `id`.
    static func text(of id: Int) -> String {
        var hash = SeededGenerator(seed: UInt64(bitPattern: Int64(id)))
        return texts[Int(hash.next() % UInt64(texts.count))]
    }
}
