import RefreshKit

/// A `command` the server applies on a page's behalf, made with the text a trace records for it (as
/// ``SynthesizedTouch``): the input and its text from the same values, so a replay decodes the same input.
public enum SynthesizedCommand {
    /// The `scrollToItem` that puts a new session where its page's reader was (`hello.position`, docs/PROTOCOL.md,
    /// "Your place, kept"): the item's row at the top, `position.offset` px into it, at once.
    public static func restore(_ position: ReaderPosition) -> (input: Input, text: [UInt8]) {
        let command = Command(.scrollToItem, animated: false, amount: position.offset, item: .id(position.id))
        var text: [UInt8] = []
        appendJSON(to: &text, bound: 96 + 6 * position.id.utf8.count) { w in
            w.literal(#"{"type":"command","name":"scrollToItem","id":"#)
            w.string(position.id)
            w.literal(#","offset":"#)
            w.fixed(position.offset, .length)
            w.literal(#","animated":false}"#)
        }
        return (.command(command), text)
    }
}
