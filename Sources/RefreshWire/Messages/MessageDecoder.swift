// Over 400 lines on purpose: every message's validation in one place, so that every refusal the page can get
// comes from one path (the page's own touch spelling, read in one pass, is in PlainTouch.swift).
import RefreshKit

/// Decodes the page's JSON messages (PROTOCOL.md, "Page → server") into typed, validated
/// ``ClientMessage``s.
///
/// The parser is hand-written over UTF-8 bytes and allocates nothing for `touch`, `wheel` and `ping`. It
/// reads the text twice without recursing: once to check the whole text against RFC 8259 (UTF-8, nesting at
/// most ``DecodingLimits/maxDepth``; anything else is `bad_json`), then once to pick the fields of the
/// message's `type`, which may appear anywhere in the object. Field names are compared as bytes, escapes
/// decoded.
///
/// Rules beyond the grammar:
/// - Unknown fields are ignored. When a key repeats, the last occurrence wins (earlier ones are not
///   looked at, even if invalid).
/// - `null` for an optional field means "absent"; for a required field it is `bad_field`.
/// - Numbers must be finite as parsed: `1e400` is `bad_field`. Integer fields (`id`, `mode`, the feed's
///   counts) accept any number with an integral value (`2`, `2.0`, `2e0`) up to 2⁵³ in magnitude.
/// - Strings must be well-formed UTF-8; `\u` escapes must not leave a surrogate unpaired.
/// - Errors name the field (`"wheel.dy must be a finite number"`) and carry the message's `type` as `ref`.
///   Fields are checked in the order PROTOCOL.md lists them; the first problem is reported. A `touch` or
///   `wheel`'s `seq` is checked last, and an error about its other fields carries it when it is valid.
public struct MessageDecoder: Sendable {
    public var limits: DecodingLimits
    /// The presets a `configure.presetFile`'s `base` may name.
    public var presets: PresetCatalogue

    public init(limits: DecodingLimits = .init(), presets: PresetCatalogue = .seeds) {
        self.limits = limits
        self.presets = presets
    }

    /// Decodes one message from its UTF-8 text.
    public func decode(_ text: UnsafeRawBufferPointer) throws(WireError) -> ClientMessage {
        if let plain = plainTouch(text) { return .input(.touch(plain.0), seq: plain.seq) }
        return try decodeAnySpelling(text)
    }

    /// ``decode(_:)`` without the page-spelling shortcut (``plainTouch(_:)``): every message, every error.
    func decodeAnySpelling(_ text: UnsafeRawBufferPointer) throws(WireError) -> ClientMessage {
        let json = JSONText(text)
        let outline = try json.validate(maxDepth: limits.maxDepth)
        guard outline.isObject else {
            throw WireError(code: .badMessage, message: "a message must be a JSON object")
        }
        guard outline.typeValue >= 0, json.kind(at: outline.typeValue) == .string else {
            throw WireError(code: .badMessage, message: "a message needs a string \"type\"")
        }
        let type = json.string(at: outline.typeValue)
        let object = outline.start
        switch type.end - type.start {
        case 4 where json.equals(type, "ping"):
            return .ping(t: try decodePing(FieldReader(json, limits, "ping"), object))
        case 5 where json.equals(type, "touch"):
            let (touch, seq) = try decodeTouch(FieldReader(json, limits, "touch"), object)
            return .input(.touch(touch), seq: seq)
        case 5 where json.equals(type, "wheel"):
            let (wheel, seq) = try decodeWheel(FieldReader(json, limits, "wheel"), object)
            return .input(.wheel(wheel), seq: seq)
        case 5 where json.equals(type, "hello"):
            return .hello(try decodeHello(FieldReader(json, limits, "hello"), object))
        case 6 where json.equals(type, "resize"):
            return .input(.resize(try decodeResize(FieldReader(json, limits, "resize"), object)))
        case 7 where json.equals(type, "command"):
            return .input(.command(try decodeCommand(FieldReader(json, limits, "command"), object)))
        case 5 where json.equals(type, "trace"):
            return .trace
        case 9 where json.equals(type, "configure"):
            return .input(.configure(try decodeConfigure(FieldReader(json, limits, "configure"), object)))
        case 11 where json.equals(type, "feed_answer"):
            throw Self.feedAnswerFromPage
        case 7 where json.equals(type, "measure"):
            let (batch, seq) = try decodeMeasure(FieldReader(json, limits, "measure"), object)
            return .input(.measure(batch), seq: seq)
        default:
            if type.escaped { return try decodeEscapedType(json, type, object) }
            throw unknownType(json, type)
        }
    }

    /// Decodes one message from its text.
    public func decode(_ text: String) throws(WireError) -> ClientMessage {
        let result: Result<ClientMessage, WireError>? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            Result { () throws(WireError) in try decode(UnsafeRawBufferPointer(utf8)) }
        }
        if let result { return try result.get() }
        let copy = Array(text.utf8)
        return try copy.withUnsafeBytes { bytes in Result { () throws(WireError) in try decode(bytes) } }.get()
    }

    /// A `type` spelled with escapes (`"t\u006fuch"`): rare, so it is compared the slow way.
    private func decodeEscapedType(_ json: JSONText, _ type: StringRef, _ object: Int) throws(WireError)
        -> ClientMessage
    {
        let name = json.makeString(type)
        let reader = FieldReader(json, limits, name)
        switch name {
        case "ping": return .ping(t: try decodePing(reader, object))
        case "touch":
            let (touch, seq) = try decodeTouch(reader, object)
            return .input(.touch(touch), seq: seq)
        case "wheel":
            let (wheel, seq) = try decodeWheel(reader, object)
            return .input(.wheel(wheel), seq: seq)
        case "hello": return .hello(try decodeHello(reader, object))
        case "resize": return .input(.resize(try decodeResize(reader, object)))
        case "command": return .input(.command(try decodeCommand(reader, object)))
        case "configure": return .input(.configure(try decodeConfigure(reader, object)))
        case "trace": return .trace
        case "feed_answer": throw Self.feedAnswerFromPage
        case "measure":
            let (batch, seq) = try decodeMeasure(reader, object)
            return .input(.measure(batch), seq: seq)
        default: throw unknownType(json, type)
        }
    }

    /// The reply to a page that sends a `feed_answer` (FeedAnswerDecoder.swift reads the source's own).
    static let feedAnswerFromPage = WireError(
        code: .badMessage, message: "feed_answer comes from the server's feed source, not from a page",
        ref: "feed_answer")

    private func unknownType(_ json: JSONText, _ type: StringRef) -> WireError {
        let known = "hello, touch, wheel, resize, command, configure, measure, ping, trace"
        // Echo the type only when it is short: the error should not grow with what the page sent.
        guard json.decodedLength(type) <= 64 else {
            return WireError(
                code: .unknownType, message: "unknown message type; expected one of \(known)")
        }
        let name = json.makeString(type)
        return WireError(
            code: .unknownType, message: "unknown message type \"\(name)\"; expected one of \(known)",
            ref: name)
    }

    // MARK: Messages

    private func decodePing(_ r: FieldReader, _ object: Int) throws(WireError) -> Double {
        var t: Int?
        try r.text.forEachMember(ofObjectAt: object) { key, value in
            if r.text.equals(key, "t") { t = value }
        }
        return try r.time(t, "ping.t")
    }

    /// A `touch` and its `seq`. An error about another field carries the `seq` when that is valid.
    private func decodeTouch(_ r: FieldReader, _ object: Int) throws(WireError) -> (TouchInput, UInt64?) {
        var phase: Int?
        var dx: Int?
        var dy: Int?
        var t: Int?
        var id: Int?
        var seq: Int?
        try r.text.forEachMember(ofObjectAt: object) { key, value in
            switch key.end - key.start {
            case 1 where r.text.equals(key, "t"): t = value
            case 2 where r.text.equals(key, "dx"): dx = value
            case 2 where r.text.equals(key, "dy"): dy = value
            case 2 where r.text.equals(key, "id"): id = value
            case 3 where r.text.equals(key, "seq"): seq = value
            case 5 where r.text.equals(key, "phase"): phase = value
            default:
                if key.escaped {
                    if r.text.equals(key, "t") { t = value }
                    if r.text.equals(key, "dx") { dx = value }
                    if r.text.equals(key, "dy") { dy = value }
                    if r.text.equals(key, "id") { id = value }
                    if r.text.equals(key, "seq") { seq = value }
                    if r.text.equals(key, "phase") { phase = value }
                }
            }
        }
        let sequence = Result { () throws(WireError) in try r.sequenceNumber(seq, "touch.seq") }
        do throws(WireError) {
            let touchPhase = try r.touchPhase(phase)
            let delta = Point(x: try r.delta(dx, "touch.dx"), y: try r.delta(dy, "touch.dy"))
            let time = try r.time(t, "touch.t")
            let pointer = try r.integer(id, "touch.id") ?? 0
            return (TouchInput(phase: touchPhase, delta: delta, pageTime: time, pointer: pointer), try sequence.get())
        } catch {
            throw error.answering(seq: try? sequence.get())
        }
    }

    /// A `wheel` and its `seq`. An error about another field carries the `seq` when that is valid.
    private func decodeWheel(_ r: FieldReader, _ object: Int) throws(WireError) -> (WheelInput, UInt64?) {
        var dx: Int?
        var dy: Int?
        var mode: Int?
        var t: Int?
        var seq: Int?
        try r.text.forEachMember(ofObjectAt: object) { key, value in
            if r.text.equals(key, "t") {
                t = value
            } else if r.text.equals(key, "dx") {
                dx = value
            } else if r.text.equals(key, "dy") {
                dy = value
            } else if r.text.equals(key, "mode") {
                mode = value
            } else if r.text.equals(key, "seq") {
                seq = value
            }
        }
        let sequence = Result { () throws(WireError) in try r.sequenceNumber(seq, "wheel.seq") }
        do throws(WireError) {
            let delta = Point(x: try r.delta(dx, "wheel.dx"), y: try r.delta(dy, "wheel.dy"))
            let deltaMode = try r.wheelMode(mode)
            let time = try r.time(t, "wheel.t")
            return (WheelInput(delta: delta, mode: deltaMode, pageTime: time), try sequence.get())
        } catch {
            throw error.answering(seq: try? sequence.get())
        }
    }

    private func decodeHello(_ r: FieldReader, _ object: Int) throws(WireError) -> Hello {
        let fields = try r.members(of: object, HelloField.self)
        let viewport = try r.viewport(fields[.viewport], "hello.viewport")
        let dpr = try r.requiredNumber(fields[.dpr], "hello.dpr")
        guard dpr > 0 && dpr <= limits.maxDevicePixelRatio else {
            throw r.outOfRange("hello.dpr must be > 0 and ≤ \(describe(limits.maxDevicePixelRatio))")
        }
        var hello = Hello(
            viewport: viewport,
            dpr: dpr,
            preset: try r.string(fields[.preset], "hello.preset"),
            session: try r.string(fields[.session], "hello.session"),
            token: try r.string(fields[.token], "hello.token"),
            key: try r.string(fields[.key], "hello.key"),
            seed: try seed(r, fields[.seed]),
            frames: try r.enumeration(fields[.frames], "hello.frames", FrameFormat.self) ?? .full
        )
        hello.position = try position(r, fields[.position])
        return hello
    }

    /// `hello.position`: `{id, offset?}`, an item's id and how far into its row the viewport's top was (px, at most
    /// a row's largest height in magnitude), or absent.
    private func position(_ r: FieldReader, _ at: Int?) throws(WireError) -> ReaderPosition? {
        guard let object = try r.object(at, "hello.position") else { return nil }
        var (id, offset): (Int?, Int?) = (nil, nil)
        try r.text.forEachMember(ofObjectAt: object) { key, value in
            if r.text.equals(key, "id") { id = value } else if r.text.equals(key, "offset") { offset = value }
        }
        guard let text = try r.string(id, "hello.position.id") else { throw r.missing("hello.position.id") }
        guard !text.isEmpty else { throw r.badField("hello.position.id must not be empty") }
        let into = try r.number(offset, "hello.position.offset") ?? 0
        guard abs(into) <= RowLayout.maximumRowHeight else {
            throw r.outOfRange(
                "hello.position.offset must be at most \(describe(RowLayout.maximumRowHeight)) in magnitude")
        }
        return ReaderPosition(id: text, offset: into)
    }

    /// `hello.seed`: an integer in 0…2⁵³, or absent.
    private func seed(_ r: FieldReader, _ position: Int?) throws(WireError) -> UInt64? {
        guard let value = try r.integer(position, "hello.seed") else { return nil }
        guard value >= 0 else { throw r.outOfRange("hello.seed must be ≥ 0") }
        return UInt64(value)
    }

    private func decodeResize(_ r: FieldReader, _ object: Int) throws(WireError) -> Size {
        var viewport: Int?
        try r.text.forEachMember(ofObjectAt: object) { key, value in
            if r.text.equals(key, "viewport") { viewport = value }
        }
        return try r.viewport(viewport, "resize.viewport")
    }

    private func decodeCommand(_ r: FieldReader, _ object: Int) throws(WireError) -> Command {
        let fields = try r.members(of: object, CommandField.self)
        guard let namePosition = fields[.name] else { throw r.missing("command.name") }
        guard r.text.kind(at: namePosition) == .string else { throw r.badField("command.name must be a string") }
        let nameString = r.text.string(at: namePosition)
        guard let name = Command.Name.allCases.first(where: { r.text.equals(nameString, string: $0.rawValue) }) else {
            let shown = r.text.decodedLength(nameString) <= 64 ? " \"\(r.text.makeString(nameString))\"" : ""
            throw WireError(
                code: .unknownCommand,
                message: "unknown command\(shown); expected one of \(allowed(Command.Name.self))", ref: r.ref)
        }
        let edge: Edge? = try r.enumeration(fields[.edge], "command.edge")
        let animated = try r.bool(fields[.animated], "command.animated") ?? true
        let amount = try r.number(fields[.amount], "command.amount") ?? 0
        guard abs(amount) <= limits.maxAmount else {
            throw r.outOfRange("command.amount must be at most \(describe(limits.maxAmount)) in magnitude")
        }
        guard name == .scrollToItem else { return Command(name, edge: edge, animated: animated, amount: amount) }
        // How far below its alignment the row lands, into it (a place kept: docs/PROTOCOL.md, "scrollToItem").
        let offset = try r.number(fields[.offset], "command.offset") ?? 0
        guard abs(offset) <= RowLayout.maximumRowHeight else {
            throw r.outOfRange("command.offset must be at most \(describe(RowLayout.maximumRowHeight)) in magnitude")
        }
        return Command(
            name, animated: animated, amount: offset, item: try itemTarget(r, fields),
            align: try r.enumeration(fields[.align], "command.align") ?? .start)
    }

    /// `scrollToItem`'s row: `id` (a loaded item's, at most ``DecodingLimits/maxStringLength`` bytes) or `index` (a row of
    /// the whole list), one of them.
    private func itemTarget(_ r: FieldReader, _ fields: [CommandField: Int]) throws(WireError) -> ItemTarget {
        let id = try r.string(fields[.id], "command.id")
        let index = try r.integer(fields[.index], "command.index")
        switch (id, index) {
        case (let id?, nil): return .id(id)
        case (nil, let index?):
            guard index >= 0 else { throw r.outOfRange("command.index must be 0 or more") }
            return .index(index)
        case (nil, nil): throw r.missing("command.id (or command.index)")
        case (_?, _?): throw r.badField("scrollToItem takes command.id or command.index, not both")
        }
    }

    private func decodeConfigure(_ r: FieldReader, _ object: Int) throws(WireError) -> ConfigurationPatch {
        let fields = try r.members(of: object, ConfigureField.self)
        var patch = ConfigurationPatch()
        patch.preset = try r.string(fields[.preset], "configure.preset")
        if let file = try r.object(fields[.presetFile], "configure.presetFile") {
            patch.presetValue = try PresetFile.read(JSONTree.tree(r.text, at: file), presets: presets, ref: r.ref)
        }
        if let edges = try r.object(fields[.edges], "configure.edges") {
            var positions: [Edge: Int] = [:]
            try r.text.forEachMember(ofObjectAt: edges) { (key, value) throws(WireError) in
                guard let edge = Edge.allCases.first(where: { r.text.equals(key, string: $0.rawValue) }) else {
                    let shown = r.text.decodedLength(key) <= 64 ? r.text.makeString(key) : "…"
                    throw r.badField("configure.edges.\(shown) is not an edge; expected one of \(allowed(Edge.self))")
                }
                positions[edge] = value
            }
            for edge in Edge.allCases {
                guard let position = positions[edge] else { continue }
                if let edgeObject = try r.object(position, "configure.edges.\(edge.rawValue)") {
                    patch.edges[edge] = try r.changes(of: edgeObject, "configure.edges.\(edge.rawValue).")
                }
            }
        }
        if let insets = try r.object(fields[.insets], "configure.insets") {
            // All four sides at once: a side left out is 0.
            var value = EdgeInsets.zero
            try r.decodeFields(ConfigurationSchema.insets, of: insets, "configure.insets.") { field, given in
                field.store(given, in: &value)
            }
            patch.insets = value
        }
        if let feed = try r.object(fields[.feed], "configure.feed") {
            patch.feed = try r.changes(of: feed, "configure.feed.")
        }
        if let physics = try r.object(fields[.physics], "configure.physics") {
            patch.physics = try r.changes(of: physics, "configure.physics.")
        }
        patch.events = try r.enumeration(fields[.events], "configure.events")
        return patch
    }
}

// MARK: - Field names of the rarer messages

private enum HelloField: String, CaseIterable {
    case viewport, dpr, preset, session, token, key, seed, frames, position
}

private enum CommandField: String, CaseIterable {
    case name, edge, animated, amount, id, index, align, offset
}

private enum ConfigureField: String, CaseIterable {
    case preset, presetFile, insets, edges, feed, physics, events
}

// MARK: - Fields

/// Reads the typed fields of one message out of validated text; errors name the field and carry `ref`.
/// Every reader takes the position of the field's value, nil when the field is absent.
struct FieldReader {
    let text: JSONText
    let limits: DecodingLimits
    /// The message's `type`.
    let ref: String

    init(_ text: JSONText, _ limits: DecodingLimits, _ ref: String) {
        self.text = text
        self.limits = limits
        self.ref = ref
    }

    func missing(_ name: String) -> WireError {
        WireError(code: .missingField, message: "\(name) is required", ref: ref)
    }

    func badField(_ message: String) -> WireError {
        WireError(code: .badField, message: message, ref: ref)
    }

    func outOfRange(_ message: String) -> WireError {
        WireError(code: .outOfRange, message: message, ref: ref)
    }

    /// The positions of the members of `object` named like `F`'s cases; the last occurrence wins.
    func members<F: RawRepresentable & CaseIterable & Hashable>(of object: Int, _: F.Type) throws(WireError) -> [F: Int]
    where F.RawValue == String {
        var found: [F: Int] = [:]
        try text.forEachMember(ofObjectAt: object) { key, value in
            if let field = F.allCases.first(where: { text.equals(key, string: $0.rawValue) }) { found[field] = value }
        }
        return found
    }

    /// Reads the members of `object` that `fields` name, in the fields' order, each by its kind (a number, an
    /// integer, true or false, one of its names), and hands each present one to `found`. Ranges are the
    /// engine's to check. `prefix` names the object in errors (`configure.feed.`).
    func decodeFields<Root>(
        _ fields: [ConfigurationField<Root>], of object: Int, _ prefix: String,
        _ found: (ConfigurationField<Root>, ConfigurationValue) -> Void
    ) throws(WireError) {
        var positions = [Int?](repeating: nil, count: fields.count)
        try text.forEachMember(ofObjectAt: object) { key, value in
            if let index = fields.firstIndex(where: { text.equals(key, string: $0.name) }) { positions[index] = value }
        }
        for (field, position) in zip(fields, positions) {
            guard let position else { continue }
            let name = prefix + field.name
            let value: ConfigurationValue? =
                switch field.kind {
                case .number: try number(position, name).map { .number($0) }
                case .integer: try integer(position, name).map { .integer($0) }
                case .bool: try bool(position, name).map { .bool($0) }
                case .enumeration(let names): try oneOf(position, name, names).map { .name($0) }
                case .name: try string(position, name).map { .name($0) }
                }
            if let value { found(field, value) }
        }
    }

    /// The changes `object` asks for to the fields of `Root` (``ConfigurationSchema``).
    func changes<Root: Configurable>(of object: Int, _ prefix: String) throws(WireError) -> FieldChanges<Root> {
        var changes = FieldChanges<Root>()
        try decodeFields(Root.configurationFields, of: object, prefix) { field, value in changes.set(field, to: value) }
        return changes
    }

    /// A finite number; nil when absent or null.
    @inline(__always)
    func number(_ position: Int?, _ name: @autoclosure () -> String) throws(WireError) -> Double? {
        guard let position else { return nil }
        guard let value = text.number(at: position), value.isFinite else {
            if text.kind(at: position) == .null { return nil }
            throw badField("\(name()) must be a finite number")
        }
        return value
    }

    @inline(__always)
    func requiredNumber(_ position: Int?, _ name: @autoclosure () -> String) throws(WireError) -> Double {
        guard let position else { throw missing(name()) }
        guard let value = text.number(at: position), value.isFinite else {
            throw badField("\(name()) must be a finite number")
        }
        return value
    }

    /// A required finite `dx`/`dy` within ``DecodingLimits/maxDelta``.
    @inline(__always)
    func delta(_ position: Int?, _ name: StaticString) throws(WireError) -> Double {
        try requiredNumber(position, name, magnitudeAtMost: limits.maxDelta)
    }

    /// A required page timestamp within ``DecodingLimits/maxTime``.
    @inline(__always)
    func time(_ position: Int?, _ name: StaticString) throws(WireError) -> Double {
        try requiredNumber(position, name, magnitudeAtMost: limits.maxTime)
    }

    /// A required finite number no larger than `limit` in magnitude.
    @inline(__always)
    func requiredNumber(_ position: Int?, _ name: StaticString, magnitudeAtMost limit: Double) throws(WireError)
        -> Double
    {
        let value = try requiredNumber(position, "\(name)")
        guard abs(value) <= limit else {
            throw outOfRange("\(name) must be at most \(describe(limit)) in magnitude")
        }
        return value
    }

    /// An integral number up to 2⁵³ in magnitude; nil when absent or null.
    func integer(_ position: Int?, _ name: @autoclosure () -> String) throws(WireError) -> Int? {
        guard let position, text.kind(at: position) != .null else { return nil }
        guard let value = text.number(at: position), value.isFinite, value.rounded(.towardZero) == value else {
            throw badField("\(name()) must be an integer")
        }
        guard abs(value) <= 9_007_199_254_740_992 else {
            throw outOfRange("\(name()) must be at most 9007199254740992 in magnitude")
        }
        return Int(value)
    }

    /// An input's `seq` (`touch.seq`, `wheel.seq`): an integer in 0…2⁵³; nil when absent or null. Checked
    /// after the message's other fields.
    func sequenceNumber(_ position: Int?, _ name: StaticString) throws(WireError) -> UInt64? {
        guard let position, text.kind(at: position) != .null else { return nil }
        guard let value = text.number(at: position), value.isFinite, value.rounded(.towardZero) == value else {
            throw badField("\(name) must be an integer from 0 to 9007199254740992")
        }
        guard value >= 0, value <= 9_007_199_254_740_992 else {
            throw outOfRange("\(name) must be from 0 to 9007199254740992")
        }
        return UInt64(value)
    }

    /// `true` or `false`; nil when absent or null.
    func bool(_ position: Int?, _ name: @autoclosure () -> String) throws(WireError) -> Bool? {
        guard let position else { return nil }
        switch text.byte(position) {
        case .t: return true
        case .f: return false
        case .n: return nil
        default: throw badField("\(name()) must be true or false")
        }
    }

    /// A string of at most ``DecodingLimits/maxStringLength`` UTF-8 bytes; nil when absent or null.
    func string(_ position: Int?, _ name: @autoclosure () -> String) throws(WireError) -> String? {
        guard let position, text.kind(at: position) != .null else { return nil }
        guard text.kind(at: position) == .string else { throw badField("\(name()) must be a string") }
        let string = text.string(at: position)
        guard text.decodedLength(string) <= limits.maxStringLength else {
            throw outOfRange("\(name()) must be at most \(limits.maxStringLength) bytes long")
        }
        return text.makeString(string)
    }

    /// The position of an object; nil when absent or null.
    func object(_ position: Int?, _ name: @autoclosure () -> String) throws(WireError) -> Int? {
        guard let position, text.kind(at: position) != .null else { return nil }
        guard text.kind(at: position) == .object else { throw badField("\(name()) must be an object") }
        return position
    }

    /// One of `E`'s raw values; nil when absent or null.
    func enumeration<E: RawRepresentable & CaseIterable>(
        _ position: Int?, _ name: @autoclosure () -> String, _: E.Type = E.self
    ) throws(WireError) -> E? where E.RawValue == String {
        guard let position, text.kind(at: position) != .null else { return nil }
        if text.kind(at: position) == .string {
            let string = text.string(at: position)
            if let value = E.allCases.first(where: { text.equals(string, string: $0.rawValue) }) { return value }
        }
        throw badField("\(name()) must be one of \(allowed(E.self))")
    }

    /// A string that must be one of `values` (names the engine owns, such as ``Spring/presetNames``).
    func oneOf(_ position: Int?, _ name: @autoclosure () -> String, _ values: [String]) throws(WireError) -> String? {
        guard let position, text.kind(at: position) != .null else { return nil }
        if text.kind(at: position) == .string {
            let string = text.string(at: position)
            if let value = values.first(where: { text.equals(string, string: $0) }) { return value }
        }
        throw badField("\(name()) must be one of \(values.joined(separator: ", "))")
    }

    /// `touch.phase`, compared byte-wise: this is the hot path.
    @inline(__always)
    func touchPhase(_ position: Int?) throws(WireError) -> TouchPhase {
        guard let position else { throw missing("touch.phase") }
        if text.byte(position) == .quote {
            let s = text.string(at: position)
            if text.equals(s, "move") { return .move }
            if text.equals(s, "start") { return .start }
            if text.equals(s, "end") { return .end }
            if text.equals(s, "cancel") { return .cancel }
        }
        throw badField("touch.phase must be one of \(allowed(TouchPhase.self))")
    }

    /// `wheel.mode`: 0, 1 or 2.
    @inline(__always)
    func wheelMode(_ position: Int?) throws(WireError) -> WheelDeltaMode {
        guard let position else { throw missing("wheel.mode") }
        switch text.number(at: position) {
        case 0: return .pixel
        case 1: return .line
        case 2: return .page
        default: throw badField("wheel.mode must be 0 (pixel), 1 (line) or 2 (page)")
        }
    }

    /// A required `{w, h}` with finite sides in `(0, maxViewport]`.
    func viewport(_ position: Int?, _ name: String) throws(WireError) -> Size {
        guard let position else { throw missing(name) }
        guard text.kind(at: position) == .object else { throw badField("\(name) must be an object {w, h}") }
        var w: Int?
        var h: Int?
        try text.forEachMember(ofObjectAt: position) { key, value in
            if text.equals(key, "w") {
                w = value
            } else if text.equals(key, "h") {
                h = value
            }
        }
        let width = try requiredNumber(w, "\(name).w")
        let height = try requiredNumber(h, "\(name).h")
        for (side, value) in [("w", width), ("h", height)] where !(value > 0 && value <= limits.maxViewport) {
            throw outOfRange("\(name).\(side) must be > 0 and ≤ \(describe(limits.maxViewport))")
        }
        return Size(width: width, height: height)
    }
}

/// `a, b, c`: the raw values of `E`, for error messages.
private func allowed<E: RawRepresentable & CaseIterable>(_: E.Type) -> String where E.RawValue == String {
    E.allCases.map(\.rawValue).joined(separator: ", ")
}

/// A limit as people write it: `100000`, not `100000.0`.
private func describe(_ value: Double) -> String {
    if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
}
