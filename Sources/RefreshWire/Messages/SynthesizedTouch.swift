import RefreshKit

/// Page messages the server applies on a page's behalf, made with the text a trace records for them.
///
/// A member that leaves with a finger down would hold the drag forever, so its host lifts each pointer with a
/// `touch cancel` of its own. Like every applied message it is recorded as text (a replay reads it back with
/// ``MessageDecoder``), so the input and its text are made here together, from the same values.
public enum SynthesizedTouch {
    /// A `touch cancel` of `pointer` (the page's id) at the page time of its latest sample.
    public static func cancel(pointer: Int, pageTime: Double) -> (input: Input, text: [UInt8]) {
        let input = Input.touch(TouchInput(phase: .cancel, delta: .zero, pageTime: pageTime, pointer: pointer))
        let text = #"{"type":"touch","phase":"cancel","dx":0,"dy":0,"t":\#(pageTime),"id":\#(pointer)}"#
        return (input, Array(text.utf8))
    }
}
