/// The text of a feed's HTML (a JSON Feed's `content_html`, an RSS `description`, Atom `html` and `xhtml`
/// text): tags dropped (a `<br>` or the end of a block becomes a line break), white space collapsed as a
/// browser collapses it (a run of spaces, tabs and the source's own line breaks is one space; none at the
/// start or end of a line), the common entities decoded (``HTMLEntities``). A list row shows text, not markup.
enum HTMLText {
    static func plain(_ html: String) -> String {
        var text = ""
        var tag = ""
        var inTag = false
        for character in html {
            if inTag {
                if character == ">" {
                    inTag = false
                    let name = tag.lowercased().split(whereSeparator: { $0 == " " || $0 == "/" }).first ?? ""
                    if ["br", "p", "div", "li", "h1", "h2", "h3", "blockquote"].contains(name) || tag.hasPrefix("/p")
                        || tag.hasPrefix("/div") || tag.hasPrefix("/li")
                    {
                        while text.last == " " { text.removeLast() }
                        if !text.hasSuffix("\n") && !text.isEmpty { text.append("\n") }
                    }
                } else {
                    tag.append(character)
                }
            } else if character == "<" {
                inTag = true
                tag = ""
            } else if character.isASCII, character.isWhitespace {  // a no-break space is kept, as browsers keep it
                if let last = text.last, last != " ", last != "\n" { text.append(" ") }
            } else {
                text.append(character)
            }
        }
        while text.last == " " || text.last == "\n" { text.removeLast() }
        return decodeEntities(text)
    }

    private static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            if let semicolon = after.prefix(10).firstIndex(of: ";") {
                let name = String(after[..<semicolon])
                if let value = entity(name) {
                    result += value
                    rest = after[after.index(after: semicolon)...]
                    continue
                }
            }
            result += "&"
            rest = after
        }
        return result + rest
    }

    private static func entity(_ name: String) -> String? {
        if let value = HTMLEntities.named[name] { return String(Character(value)) }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let code =
            digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        return code.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
}
