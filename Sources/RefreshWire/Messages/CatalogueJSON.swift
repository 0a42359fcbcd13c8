import RefreshKit

/// `welcome.catalogue`: what the page shows about each preset it may choose (docs/PROTOCOL.md, "welcome"),
/// written from the presets themselves, so that the page keeps no table of its own.
extension MessageEncoder {
    /// `{"ios":{"library":"UIRefreshControl","summary":"…","controls":{"top":"spinner","bottom":"footer"},
    /// "eventNames":{"didEnd":["endRefreshing"],…}},…}`: one member per preset, in the catalogue's order; `library`
    /// only for a preset that imitates one; `controls`, the control of each edge the preset configures, in
    /// ``Edge`` order (what the page falls back to when a control chosen over it fails); its event names in our
    /// names' order (sorted), a list, or `{"refresh":[…],"loadMore":[…]}` when the library names the two roles
    /// differently.
    func appendCatalogue(_ presets: [Preset], to w: inout JSONWriter) {
        w.byte(.openBrace)
        for (index, preset) in presets.enumerated() {
            if index > 0 { w.byte(.comma) }
            w.string(preset.name)
            w.byte(.colon)
            w.byte(.openBrace)
            if let library = preset.library {
                w.literal(#""library":"#)
                w.string(library.name)
                w.byte(.comma)
            }
            w.literal(#""summary":"#)
            w.string(preset.summary)
            w.literal(#","controls":{"#)
            var first = true
            for edge in Edge.allCases {
                guard let configuration = preset.configuration.edges[edge] else { continue }
                if !first { w.byte(.comma) }
                first = false
                w.string(edge.rawValue)
                w.byte(.colon)
                w.string(configuration.control.description)
            }
            w.literal(#"},"eventNames":{"#)
            let names = preset.library?.eventNames ?? [:]
            for (index, event) in names.keys.sorted().enumerated() {
                if index > 0 { w.byte(.comma) }
                w.string(event)
                w.byte(.colon)
                guard let given = names[event] else { continue }
                if given.isSameForBothRoles {
                    appendNames(given.refresh, to: &w)
                } else {
                    w.literal(#"{"refresh":"#)
                    appendNames(given.refresh, to: &w)
                    w.literal(#","loadMore":"#)
                    appendNames(given.loadMore, to: &w)
                    w.byte(.closeBrace)
                }
            }
            w.literal("}}")
        }
        w.byte(.closeBrace)
    }

    /// A bound on the bytes ``appendCatalogue(_:to:)`` writes for `presets` (every character escaped).
    static func catalogueBound(_ presets: [Preset]) -> Int {
        presets.reduce(2) { total, preset in
            let library = preset.library
            let strings =
                [preset.name, preset.summary, library?.name ?? ""]
                + (library?.eventNames ?? [:]).flatMap { [$0.key] + $0.value.refresh + $0.value.loadMore }
            let controls = Edge.allCases.count * (16 + 6 * ControlName.maximumLength)
            return total + 80 + controls + strings.reduce(0) { $0 + 6 * $1.utf8.count + 8 }
        }
    }

    private func appendNames(_ names: [String], to w: inout JSONWriter) {
        w.byte(.openBracket)
        for (index, name) in names.enumerated() {
            if index > 0 { w.byte(.comma) }
            w.string(name)
        }
        w.byte(.closeBracket)
    }
}
