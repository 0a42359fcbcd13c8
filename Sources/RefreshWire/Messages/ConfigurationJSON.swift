import RefreshKit

/// A session's configuration (`welcome.config`, `config`) and the schema that describes it
/// (`welcome.schema`) as JSON, both following ``ConfigurationSchema``: its fields in its order. The `welcome`, the
/// `config` message and preset files write them with it.
enum ConfigurationJSON {
    /// `{"edges":{…},"insets":{…},"feed":{…},"physics":{…},"events":…}`: edges in the order top, bottom, left, right,
    /// every number exact (it reads back as the same `Double`), integers without a fraction.
    static func appendConfiguration(_ configuration: ListConfiguration, to w: inout JSONWriter) {
        w.literal(#"{"edges":{"#)
        var first = true
        for edge in Edge.allCases {
            guard let c = configuration.edges[edge] else { continue }
            if !first { w.byte(.comma) }
            first = false
            w.plainString(edge.rawValue)
            w.byte(.colon)
            appendFields(of: c, to: &w)
        }
        w.literal(#"},"insets":"#)
        appendFields(of: configuration.insets, to: &w)
        w.literal(#","feed":"#)
        appendFields(of: configuration.feed, to: &w)
        w.literal(#","physics":"#)
        appendFields(of: configuration, to: &w)
        w.literal(#","events":"#)
        w.plainString((configuration.events ?? .refreshkit).rawValue)
        w.byte(.closeBrace)
    }

    /// `{"name":value,…}` for every field of `Root`.
    private static func appendFields<Root: Configurable>(of root: Root, to w: inout JSONWriter) {
        w.byte(.openBrace)
        for (index, field) in Root.configurationFields.enumerated() {
            if index > 0 { w.byte(.comma) }
            w.plainString(field.name)
            w.byte(.colon)
            switch field.value(in: root) {
            case .number(let number): w.exact(number)
            case .integer(let integer): w.integer(Int64(integer))
            case .bool(let bool): w.bool(bool)
            case .name(let name): w.string(name)
            }
        }
        w.byte(.closeBrace)
    }

    /// `welcome.schema`: ``ConfigurationSchema`` as JSON (docs/PROTOCOL.md, "configure"), written once: it
    /// does not change while the process runs, so a welcome copies these bytes.
    static let schemaJSON: [UInt8] = {
        var buffer: [UInt8] = []
        appendJSON(to: &buffer, bound: 16 * 1024) { w in
            w.literal(#"{"edges":"#)
            appendSchema(ConfigurationSchema.edge, to: &w)
            w.literal(#","insets":"#)
            appendSchema(ConfigurationSchema.insets, to: &w)
            w.literal(#","feed":"#)
            appendSchema(ConfigurationSchema.feed, to: &w)
            w.literal(#","physics":"#)
            appendSchema(ConfigurationSchema.physics, to: &w)
            w.byte(.closeBrace)
        }
        return buffer
    }()

    /// `[{"name","kind",…,"label","section"?,"meaning"},…]`: a number's or an integer's `min`, `max`, `step`
    /// and `unit?`, an enumeration's `names`.
    private static func appendSchema<Root>(_ fields: [ConfigurationField<Root>], to w: inout JSONWriter) {
        w.byte(.openBracket)
        for (index, field) in fields.enumerated() {
            if index > 0 { w.byte(.comma) }
            w.literal(#"{"name":"#)
            w.string(field.name)
            switch field.kind {
            case .number(let rule):
                w.literal(#","kind":"number""#)
                appendRule(rule, to: &w)
            case .integer(let rule):
                w.literal(#","kind":"integer""#)
                appendRule(rule, to: &w)
            case .bool:
                w.literal(#","kind":"bool""#)
            case .enumeration(let names):
                w.literal(#","kind":"enum","names":["#)
                for (index, name) in names.enumerated() {
                    if index > 0 { w.byte(.comma) }
                    w.string(name)
                }
                w.byte(.closeBracket)
            case .name:
                w.literal(#","kind":"name""#)
            }
            w.literal(#","label":"#)
            w.string(field.label)
            w.member(#","section":"#, string: field.section?.rawValue)
            w.literal(#","meaning":"#)
            w.string(field.meaning)
            w.byte(.closeBrace)
        }
        w.byte(.closeBracket)
    }

    private static func appendRule(_ rule: NumberRule, to w: inout JSONWriter) {
        w.literal(#","min":"#)
        w.exact(rule.range.lowerBound)
        w.literal(#","max":"#)
        w.exact(rule.range.upperBound)
        w.literal(#","step":"#)
        w.exact(rule.step)
        w.member(#","unit":"#, string: rule.unit?.rawValue)
    }
}
