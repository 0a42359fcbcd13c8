/// Storage a value keeps from one call to the next that is not part of its state: a buffer to reuse, or a
/// cache that changes the work, never the result. Every scratch value equals every other and hashes to
/// nothing, so two models in the same state are equal whatever they computed or produced before.
struct Scratch<Value: Sendable>: Hashable, Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }

    static func == (_: Self, _: Self) -> Bool { true }

    func hash(into _: inout Hasher) {}
}

extension Scratch: Codable where Value: Codable {}
