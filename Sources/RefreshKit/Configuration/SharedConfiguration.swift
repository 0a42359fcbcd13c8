/// A configuration held once for every holder that has it: an edge's for its controls (``SharedEdgeConfiguration``),
/// a list's for its models (``SharedListConfiguration``).
///
/// Every session a server starts on one preset has that preset's configurations, and keeps them unless a `configure`
/// changes one: a holder keeps the preset's (``Preset/sharedEdge(_:)``, ``Preset/sharedConfiguration``) by reference
/// instead of a copy each (docs/PERFORMANCE.md, "Memory per connected session"). The box is a `ManagedBuffer` whose
/// header is the configuration, so that a holder reads it through an address (``EdgeControl/configuration``,
/// ``ListModel/configuration``) without retaining the box: a control's configuration is read many times an input.
/// Immutable once made: a holder given another configuration holds another one. Equal and hashed by value, so a
/// model's equality does not depend on where its configuration came from; coded as the configuration itself.
///
/// `@unchecked Sendable`: the box's header is written once, as it is made, before anyone shares it.
struct SharedConfiguration<Value: Hashable & Sendable>: Hashable, @unchecked Sendable {
    private let box: ManagedBuffer<Value, Void>

    init(_ value: Value) {
        box = .create(minimumCapacity: 0) { _ in value }
    }

    /// Where the configuration lies, for as long as a holder of this value lives.
    var address: UnsafePointer<Value> {
        box.withUnsafeMutablePointerToHeader { UnsafePointer($0) }
    }

    var value: Value { box.header }

    /// Whether `other` is this very configuration, not only an equal one (what sharing saves).
    func isShared(with other: Self) -> Bool { box === other.box }

    static func == (a: Self, b: Self) -> Bool {
        a.box === b.box || a.box.header == b.box.header
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(box.header)
    }
}

extension SharedConfiguration: Codable where Value: Codable {
    /// Decodes the configuration itself, as a holder coded it before it held one by reference.
    init(from decoder: any Decoder) throws {
        self.init(try Value(from: decoder))
    }

    /// Encodes the configuration itself (``init(from:)``).
    func encode(to encoder: any Encoder) throws {
        try box.header.encode(to: encoder)
    }
}

/// An edge's configuration, shared by the controls of every session on one preset.
typealias SharedEdgeConfiguration = SharedConfiguration<EdgeConfiguration>
/// A list's configuration, shared by the models of every session on one preset until a `configure`.
typealias SharedListConfiguration = SharedConfiguration<ListConfiguration>
