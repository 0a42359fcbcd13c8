/// New values for some of the fields of one part of the configuration (an edge, the feed, the physics),
/// by wire name; the fields left out keep their values. The values are checked when the patch is applied.
///
/// Set a field by its key path, `changes[\.triggerDistance] = 80`, or by its schema entry (what the
/// decoder does).
public struct FieldChanges<Root: Configurable>: Hashable, Sendable {
    /// The new values, by wire name.
    public private(set) var values: [String: ConfigurationValue] = [:]

    public init() {}

    /// Whether no field changes.
    public var isEmpty: Bool { values.isEmpty }

    /// Sets `field` to `value` (nil: leaves it unchanged).
    public mutating func set(_ field: ConfigurationField<Root>, to value: ConfigurationValue?) {
        values[field.name] = value
    }

    /// The new value of `field`, if it changes.
    public subscript(field: ConfigurationField<Root>) -> ConfigurationValue? { values[field.name] }

    public subscript(path: WritableKeyPath<Root, Double>) -> Double? {
        get {
            guard case .number(let value) = values[Self.field(path).name] else { return nil }
            return value
        }
        set { set(Self.field(path), to: newValue.map { .number($0) }) }
    }

    public subscript(path: WritableKeyPath<Root, Int>) -> Int? {
        get {
            guard case .integer(let value) = values[Self.field(path).name] else { return nil }
            return value
        }
        set { set(Self.field(path), to: newValue.map { .integer($0) }) }
    }

    public subscript(path: WritableKeyPath<Root, Bool>) -> Bool? {
        get {
            guard case .bool(let value) = values[Self.field(path).name] else { return nil }
            return value
        }
        set { set(Self.field(path), to: newValue.map { .bool($0) }) }
    }

    public subscript(path: WritableKeyPath<Root, String>) -> String? {
        get {
            guard case .name(let value) = values[Self.field(path).name] else { return nil }
            return value
        }
        set { set(Self.field(path), to: newValue.map { .name($0) }) }
    }

    public subscript(path: WritableKeyPath<Root, ControlName>) -> ControlName? {
        get {
            guard case .name(let value) = values[Self.field(path).name] else { return nil }
            return ControlName(validating: value)
        }
        set { set(Self.field(path), to: newValue.map { .name($0.description) }) }
    }

    public subscript<Choice: RawRepresentable>(path: WritableKeyPath<Root, Choice>) -> Choice?
    where Choice.RawValue == String {
        get {
            guard case .name(let value) = values[Self.field(path).name] else { return nil }
            return Choice(rawValue: value)
        }
        set { set(Self.field(path), to: newValue.map { .name($0.rawValue) }) }
    }

    /// The schema's field stored at `path`; a key path the schema does not list is a programming error.
    private static func field(_ path: AnyKeyPath) -> ConfigurationField<Root> {
        guard let field = Root.configurationFields.first(where: { $0.path == path }) else {
            preconditionFailure("\(path) is not a configurable field of \(Root.self) (ConfigurationSchema)")
        }
        return field
    }

    /// Checks every change, in the schema's order, then stores them all in `root`; `scope` names the part
    /// in errors (`edges.top`). Nothing is stored when a value is refused.
    func apply(to root: inout Root, scope: String) throws(ListModelError) {
        guard !values.isEmpty else { return }
        var result = root
        for field in Root.configurationFields {
            guard let value = values[field.name] else { continue }
            try field.check(value, in: scope)
            let stored = field.write(&result, value)
            assert(stored, "a checked value fits its field")
        }
        root = result
    }
}
