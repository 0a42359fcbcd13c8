import Foundation

/// The HTML entities feeds use, by name: what ``HTMLText`` decodes, and what an XML feed that writes them
/// without declaring them (`&nbsp;` in an RSS title, not well-formed XML) is repaired with (docs/FEEDS.md,
/// "Reading feeds: the parser"). The five of XML itself (`amp`, `lt`, `gt`, `quot`, `apos`) come first.
enum HTMLEntities {
    static let named: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'",
        "nbsp": "\u{A0}", "iexcl": "¡", "cent": "¢", "pound": "£", "curren": "¤", "yen": "¥", "brvbar": "¦",
        "sect": "§", "uml": "¨", "copy": "©", "ordf": "ª", "laquo": "«", "not": "¬", "shy": "\u{AD}", "reg": "®",
        "macr": "¯", "deg": "°", "plusmn": "±", "sup2": "²", "sup3": "³", "acute": "´", "micro": "µ", "para": "¶",
        "middot": "·", "cedil": "¸", "sup1": "¹", "ordm": "º", "raquo": "»", "frac14": "¼", "frac12": "½",
        "frac34": "¾", "iquest": "¿", "times": "×", "divide": "÷", "szlig": "ß",
        "Agrave": "À", "Aacute": "Á", "Acirc": "Â", "Atilde": "Ã", "Auml": "Ä", "Aring": "Å", "AElig": "Æ",
        "Ccedil": "Ç", "Egrave": "È", "Eacute": "É", "Ecirc": "Ê", "Euml": "Ë", "Igrave": "Ì", "Iacute": "Í",
        "Icirc": "Î", "Iuml": "Ï", "Ntilde": "Ñ", "Ograve": "Ò", "Oacute": "Ó", "Ocirc": "Ô", "Otilde": "Õ",
        "Ouml": "Ö", "Oslash": "Ø", "Ugrave": "Ù", "Uacute": "Ú", "Ucirc": "Û", "Uuml": "Ü", "Yacute": "Ý",
        "agrave": "à", "aacute": "á", "acirc": "â", "atilde": "ã", "auml": "ä", "aring": "å", "aelig": "æ",
        "ccedil": "ç", "egrave": "è", "eacute": "é", "ecirc": "ê", "euml": "ë", "igrave": "ì", "iacute": "í",
        "icirc": "î", "iuml": "ï", "ntilde": "ñ", "ograve": "ò", "oacute": "ó", "ocirc": "ô", "otilde": "õ",
        "ouml": "ö", "oslash": "ø", "ugrave": "ù", "uacute": "ú", "ucirc": "û", "uuml": "ü", "yacute": "ý",
        "yuml": "ÿ", "OElig": "Œ", "oelig": "œ", "Scaron": "Š", "scaron": "š", "euro": "€", "ensp": "\u{2002}",
        "emsp": "\u{2003}", "thinsp": "\u{2009}", "zwnj": "\u{200C}", "zwj": "\u{200D}", "ndash": "–",
        "mdash": "—", "lsquo": "‘", "rsquo": "’", "sbquo": "‚", "ldquo": "“", "rdquo": "”", "bdquo": "„",
        "dagger": "†", "Dagger": "‡", "bull": "•", "hellip": "…", "permil": "‰", "prime": "′", "lsaquo": "‹",
        "rsaquo": "›", "trade": "™", "larr": "←", "rarr": "→", "uarr": "↑", "darr": "↓", "harr": "↔",
    ]

    /// XML's own five, which a parser decodes itself.
    private static let xml: Set<String> = ["amp", "lt", "gt", "quot", "apos"]

    /// `data` with every HTML entity XML does not know (`&nbsp;`) written as a character reference
    /// (`&#160;`), or `nil` when it holds none. Text in CDATA is changed too, which is harmless here: the
    /// readers decode that text's entities as HTML anyway (``HTMLText``).
    static func asCharacterReferences(_ data: Data) -> Data? {
        var output = Data()
        output.reserveCapacity(data.count + 64)
        var replaced = false
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            var end = index + 1
            while end < data.endIndex, end - index <= 10, isNameByte(data[end]) { end += 1 }
            let name = String(decoding: data[(index + 1)..<end], as: UTF8.self)
            if end < data.endIndex, data[end] == UInt8(ascii: ";"), !xml.contains(name), let scalar = named[name] {
                output.append(contentsOf: Array("&#\(scalar.value);".utf8))
                replaced = true
                index = end + 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return replaced ? output : nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte)
    }
}
