import RefreshKit

/// `welcome.catalogue`: what the page shows about each preset it may choose (docs/PROTOCOL.md, "welcome"),
/// written from the presets themselves, so that the page keeps no table of its own.
extension MessageEncoder {
    /// `{"ios":{"library":"UIRefreshControl","summary":"…","eventNames":{"didEnd":["endRefreshing"],…}},…}`:
    /// one member per preset, in the catalogue's order; `library` only for a preset that imitates one, its
    /// event names in our names' order (sorted), a list, or `{"refresh":[…],"loadMore":[…]}` when the library
    /// names the two roles differently.
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
            w.literal(#","eventNames":{"#)
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
            return total + 64 + strings.reduce(0) { $0 + 6 * $1.utf8.count + 8 }
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
