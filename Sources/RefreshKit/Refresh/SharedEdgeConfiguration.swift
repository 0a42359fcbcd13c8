/// An edge's configuration, held once for every control that has it.
///
/// Every session a server starts on one preset has the same four edge configurations; its controls hold the
/// preset's (``Preset/sharedEdge(_:)``) by reference instead of a copy each (docs/PERFORMANCE.md, "Memory per
/// connected session"). The box is a `ManagedBuffer` whose header is the configuration, so that a control reads it
/// through an address (``EdgeControl/configuration``) without retaining the box on every read: a control's
/// configuration is read many times an input. Immutable once made: a control given another configuration holds
/// another one. Equal and hashed by value, so a model's equality does not depend on where its configuration came
/// from.
///
/// `@unchecked Sendable`: the box's header is written once, as it is made, before anyone shares it.
struct SharedEdgeConfiguration: Hashable, @unchecked Sendable {
    private let box: ManagedBuffer<EdgeConfiguration, Void>

    init(_ value: EdgeConfiguration) {
        box = .create(minimumCapacity: 0) { _ in value }
    }

    /// Where the configuration lies, for as long as a holder of this value lives.
    var address: UnsafePointer<EdgeConfiguration> {
        box.withUnsafeMutablePointerToHeader { UnsafePointer($0) }
    }

    var value: EdgeConfiguration { box.header }

    /// Whether `other` is this very configuration, not only an equal one (what sharing saves).
    func isShared(with other: SharedEdgeConfiguration) -> Bool { box === other.box }

    static func == (a: SharedEdgeConfiguration, b: SharedEdgeConfiguration) -> Bool {
        a.box === b.box || a.box.header == b.box.header
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(box.header)
    }
}
