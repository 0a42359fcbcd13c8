/// Why the model refused an input. The host sends it to the client as `error {code, message}`; the
/// model itself is unchanged and keeps working.
public struct ListModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of refusal this is, in the engine's terms. The engine does not know the wire: the wire layer
    /// (RefreshWire's `ErrorCode`) maps every reason to its stable code.
    public enum Reason: Hashable, Sendable, CaseIterable {
        /// A value outside its documented range: a viewport side, a delta, a page time, a configuration value.
        case outOfRange
        /// A preset name the engine does not know (``Preset/names`` lists the known ones).
        case unknownPreset
        /// A configuration value of the wrong kind for its field (a name where a number goes); the wire's decoder
        /// refuses these first, so only a Swift caller meets it.
        case wrongKind
        /// A `measure` the layout refuses (a height out of range, a row not held), or one sent to a session
        /// whose feed is simulated; the message names the row.
        case badMeasurement
        /// A `scrollToItem` whose id is not among the loaded rows; the message says how many are.
        case unknownItem
    }

    /// What kind of refusal this is.
    public var reason: Reason
    /// A sentence for people, naming the value.
    public var message: String

    public init(_ reason: Reason, message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(reason): \(message)" }

    static func outOfRange(_ message: String) -> ListModelError { ListModelError(.outOfRange, message: message) }

    /// The refusal of a preset named `name` that does not exist; the message lists the known ones.
    static func unknownPreset(_ name: String, known: [String] = Preset.names) -> ListModelError {
        ListModelError(.unknownPreset, message: "no preset named '\(name)'; known: \(known.joined(separator: ", "))")
    }
}
