/// One field `configure` can set, described once: its wire name, where it lives in the configuration, what
/// values it takes, and what it means. ``ConfigurationSchema`` lists them all; applying a patch, checking
/// its values, decoding `configure`, writing `welcome.config` and the page's editors all follow that list.
///
/// A class, immutable: the encoder walks every field of a configuration for each `welcome` and `config`, and
/// handing a field on then costs one reference count, not one for each of its strings and closures.
public final class ConfigurationField<Root>: Sendable {
    /// The field's name on the wire (`triggerDistance`), unique within its scope.
    public let name: String
    /// What values it takes.
    public let kind: ConfigurationFieldKind
    /// A short name for people, as an editor labels it (`Trigger distance`).
    public let label: String
    /// The group an editor shows it in, when its scope has groups (an edge's fields do).
    public let section: ConfigurationSection?
    /// One line on what the field does.
    public let meaning: String
    /// The key path it was declared with, to find it again (``FieldChanges``'s subscripts).
    let path: AnyKeyPath & Sendable
    /// The field's value in `root`.
    @usableFromInline let read: @Sendable (Root) -> ConfigurationValue
    /// Stores `value` in `root`; false (and nothing stored) when `value` is not of the field's kind.
    @usableFromInline let write: @Sendable (inout Root, ConfigurationValue) -> Bool

    init(
        name: String, kind: ConfigurationFieldKind, label: String, section: ConfigurationSection?, meaning: String,
        path: AnyKeyPath & Sendable, read: @escaping @Sendable (Root) -> ConfigurationValue,
        write: @escaping @Sendable (inout Root, ConfigurationValue) -> Bool
    ) {
        self.name = name
        self.kind = kind
        self.label = label
        self.section = section
        self.meaning = meaning
        self.path = path
        self.read = read
        self.write = write
    }

    /// The field's current value in `root`.
    @inlinable public func value(in root: Root) -> ConfigurationValue { read(root) }

    /// Stores `value` in `root` unchecked (``check(_:in:)`` judges the range); false, and nothing stored, when
    /// `value` is not of the field's kind.
    @discardableResult
    @inlinable public func store(_ value: ConfigurationValue, in root: inout Root) -> Bool { write(&root, value) }

    /// Throws unless `value` is of the field's kind and within its range or names. `scope` is how an error
    /// names the field's place (`edges.top`, `feed`).
    public func check(_ value: ConfigurationValue, in scope: String) throws(ListModelError) {
        let name = "\(scope).\(self.name)"
        switch (kind, value) {
        case (.number(let rule), .number(let number)):
            guard number.isFinite, rule.range.contains(number) else { throw rule.outOfRange(name, got: "\(number)") }
        case (.integer(let rule), .integer(let integer)):
            guard rule.range.contains(Double(integer)) else { throw rule.outOfRange(name, got: "\(integer)") }
        case (.bool, .bool):
            break
        case (.enumeration(let names), .name(let given)):
            guard names.contains(given) else {
                throw .outOfRange("\(name) must be one of \(names.joined(separator: ", ")); got '\(given)'")
            }
        case (.name, .name(let given)):
            guard ConfigurationFieldKind.isName(given) else {
                throw .outOfRange("\(name) must be \(kind.expectation); got '\(given.prefix(80))'")
            }
        default:
            throw ListModelError(.wrongKind, message: "\(name) must be \(kind.expectation)")
        }
    }
}

/// A value `configure` sets, as the wire carries it, before its field checks it.
public enum ConfigurationValue: Hashable, Sendable {
    case number(Double)
    case integer(Int)
    case bool(Bool)
    /// One of an enumeration's names.
    case name(String)
}

/// What values a configuration field takes.
public enum ConfigurationFieldKind: Hashable, Sendable {
    /// A finite number within the rule's range, written exactly.
    case number(NumberRule)
    /// A whole number within the rule's range.
    case integer(NumberRule)
    case bool
    /// One of these names.
    case enumeration([String])
    /// A name of something outside the engine (a control on the page): 1 to 64 characters of `A`–`Z`,
    /// `a`–`z`, `0`–`9`, `_` and `-`. The engine stores it and never reads it.
    case name

    /// What a value of this kind is, as an error message says it (`a finite number`, `one of a, b`).
    public var expectation: String {
        switch self {
        case .number: "a finite number"
        case .integer: "an integer"
        case .bool: "true or false"
        case .enumeration(let names): "one of \(names.joined(separator: ", "))"
        case .name: "a name of 1 to 64 characters from A-Z, a-z, 0-9, _ and -"
        }
    }

    /// Whether `text` is a valid value of a ``name`` field (``ControlName/isValid(_:)``).
    public static func isName(_ text: String) -> Bool { ControlName.isValid(text) }
}

/// The range, unit and resolution of a numeric field.
public struct NumberRule: Hashable, Sendable {
    /// The values the model accepts; anything else is `out_of_range`.
    public var range: ClosedRange<Double>
    public var unit: ConfigurationUnit?
    /// The smallest change that matters to people: an editor steps by it. The wire writes the value exactly.
    public var step: Double

    public init(_ range: ClosedRange<Double>, _ unit: ConfigurationUnit?, step: Double) {
        self.range = range
        self.unit = unit
        self.step = step
    }

    func outOfRange(_ name: String, got value: String) -> ListModelError {
        .outOfRange(
            "\(name) must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)), got \(value)"
        )
    }

    /// A bound as people write it: `10000`, not `10000.0`.
    public static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// The unit a numeric field is measured in.
public enum ConfigurationUnit: String, Hashable, Sendable, CaseIterable {
    /// CSS pixels.
    case pixels = "px"
    case seconds = "s"
    case milliseconds = "ms"
}

/// The groups an edge's fields fall into, in the order an editor shows them.
public enum ConfigurationSection: String, Hashable, Sendable, CaseIterable {
    case behaviour = "Behaviour"
    case distances = "Distances"
    case timing = "Timing"
    case look = "Look"
}

// MARK: - Declaring fields

extension ConfigurationField {
    /// A number field stored at `path`.
    static func number(
        _ name: String, _ path: WritableKeyPath<Root, Double> & Sendable, _ range: ClosedRange<Double>,
        _ unit: ConfigurationUnit?, step: Double, _ label: String, in section: ConfigurationSection? = nil,
        _ meaning: String
    ) -> Self {
        Self(
            name: name, kind: .number(NumberRule(range, unit, step: step)), label: label, section: section,
            meaning: meaning, path: path, read: { .number($0[keyPath: path]) },
            write: { root, value in
                guard case .number(let number) = value else { return false }
                root[keyPath: path] = number
                return true
            })
    }

    /// A whole-number field stored at `path`.
    static func integer(
        _ name: String, _ path: WritableKeyPath<Root, Int> & Sendable, _ range: ClosedRange<Double>,
        _ label: String, in section: ConfigurationSection? = nil, _ meaning: String
    ) -> Self {
        Self(
            name: name, kind: .integer(NumberRule(range, nil, step: 1)), label: label, section: section,
            meaning: meaning, path: path, read: { .integer($0[keyPath: path]) },
            write: { root, value in
                guard case .integer(let integer) = value else { return false }
                root[keyPath: path] = integer
                return true
            })
    }

    /// A true-or-false field stored at `path`.
    static func bool(
        _ name: String, _ path: WritableKeyPath<Root, Bool> & Sendable, _ label: String,
        in section: ConfigurationSection? = nil, _ meaning: String
    ) -> Self {
        Self(
            name: name, kind: .bool, label: label, section: section, meaning: meaning, path: path,
            read: { .bool($0[keyPath: path]) },
            write: { root, value in
                guard case .bool(let bool) = value else { return false }
                root[keyPath: path] = bool
                return true
            })
    }

    /// A field holding one of `Choice`'s cases, named by their raw values.
    static func enumeration<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ path: WritableKeyPath<Root, Choice> & Sendable, _ label: String,
        in section: ConfigurationSection? = nil, _ meaning: String
    ) -> Self where Choice.RawValue == String {
        Self(
            name: name, kind: .enumeration(Choice.allCases.map(\.rawValue)), label: label, section: section,
            meaning: meaning, path: path, read: { .name($0[keyPath: path].rawValue) },
            write: { root, value in
                guard case .name(let given) = value, let choice = Choice(rawValue: given) else { return false }
                root[keyPath: path] = choice
                return true
            })
    }

    /// A field holding a name (``ConfigurationFieldKind/name``) stored at `path`.
    static func name(
        _ name: String, _ path: WritableKeyPath<Root, ControlName> & Sendable, _ label: String,
        in section: ConfigurationSection? = nil, _ meaning: String
    ) -> Self {
        Self(
            name: name, kind: .name, label: label, section: section, meaning: meaning, path: path,
            read: { .name($0[keyPath: path].description) },
            write: { root, value in
                guard case .name(let given) = value, let control = ControlName(validating: given) else { return false }
                root[keyPath: path] = control
                return true
            })
    }

    /// A field holding one of `names` as a string (names the engine owns elsewhere, such as a spring's).
    static func enumeration(
        _ name: String, _ path: WritableKeyPath<Root, String> & Sendable, names: [String], _ label: String,
        in section: ConfigurationSection? = nil, _ meaning: String
    ) -> Self {
        Self(
            name: name, kind: .enumeration(names), label: label, section: section, meaning: meaning, path: path,
            read: { .name($0[keyPath: path]) },
            write: { root, value in
                guard case .name(let given) = value, names.contains(given) else { return false }
                root[keyPath: path] = given
                return true
            })
    }
}
