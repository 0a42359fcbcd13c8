/// A list's configuration, held once for every model that has it.
///
/// Every session a server starts on one preset has that preset's configuration, and keeps it unless a `configure`
/// changes it: a model holds the preset's (``Preset/sharedConfiguration``) by reference instead of a copy each
/// (docs/PERFORMANCE.md, "Memory per connected session"), as its controls hold their edges'
/// (``SharedEdgeConfiguration``). A `ManagedBuffer` whose header is the configuration, read through its address
/// (``ListModel/configuration``) without retaining the box. Immutable once made: a model given another
/// configuration holds another one. Equal and hashed by value; coded as the configuration itself.
///
/// `@unchecked Sendable`: the box's header is written once, as it is made, before anyone shares it.
struct SharedListConfiguration: Hashable, Codable, @unchecked Sendable {
    private let box: ManagedBuffer<ListConfiguration, Void>

    init(_ value: ListConfiguration) {
        box = .create(minimumCapacity: 0) { _ in value }
    }

    /// Where the configuration lies, for as long as a holder of this value lives.
    var address: UnsafePointer<ListConfiguration> {
        box.withUnsafeMutablePointerToHeader { UnsafePointer($0) }
    }

    var value: ListConfiguration { box.header }

    /// Whether `other` is this very configuration, not only an equal one (what sharing saves).
    func isShared(with other: SharedListConfiguration) -> Bool { box === other.box }

    static func == (a: SharedListConfiguration, b: SharedListConfiguration) -> Bool {
        a.box === b.box || a.box.header == b.box.header
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(box.header)
    }

    /// Decodes the configuration itself, as a model coded it before it held one by reference.
    init(from decoder: any Decoder) throws {
        self.init(try ListConfiguration(from: decoder))
    }

    /// Encodes the configuration itself (``init(from:)``).
    func encode(to encoder: any Encoder) throws {
        try box.header.encode(to: encoder)
    }
}
