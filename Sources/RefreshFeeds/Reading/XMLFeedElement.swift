import Foundation

/// One element of a feed's XML, as the readers need it: its namespace URI and local name (never its prefix,
/// which each feed chooses), its attributes, its children in order, and the base address in scope.
struct XMLFeedElement: Sendable {
    /// The namespace URI, `""` for none (RSS 0.9x and 2.0's own elements).
    var namespace: String
    /// The local name, without a prefix.
    var name: String
    /// Attributes by their name as written (`href`, `xml:base`, `rdf:about`).
    var attributes: [String: String]
    var children: [XMLFeedNode] = []
    /// The address relative links inside resolve against: `xml:base` resolved against the parent's base, else
    /// the parent's, else the document's address (docs/FEEDS.md, "Reading feeds: the field mapping").
    var base: String?

    /// Child elements in order.
    var elements: [XMLFeedElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// Whether the element has child elements (inline XHTML, for instance).
    var hasElements: Bool {
        children.contains { if case .element = $0 { true } else { false } }
    }

    /// The child elements named `name` in `namespace`.
    func all(_ namespace: String, _ name: String) -> [XMLFeedElement] {
        var found: [XMLFeedElement] = []
        for case .element(let element) in children where element.name == name && element.namespace == namespace {
            found.append(element)
        }
        return found
    }

    /// The first child element named `name` in `namespace`.
    func first(_ namespace: String, _ name: String) -> XMLFeedElement? {
        for case .element(let element) in children where element.name == name && element.namespace == namespace {
            return element
        }
        return nil
    }

    /// The trimmed text of the first child named `name` in `namespace`, when there is some.
    func text(_ namespace: String, _ name: String) -> String? {
        first(namespace, name).flatMap(\.trimmedText)
    }

    /// The element's own text (character data and CDATA, entities decoded), child elements left out.
    var text: String {
        var text = ""
        for case .text(let part) in children { text += part }
        return text
    }

    /// ``text`` trimmed, `nil` when that leaves nothing.
    var trimmedText: String? {
        let trimmed = FeedText.trimmed(text)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The children written back as markup: the HTML of an XHTML content (Atom's `type="xhtml"`), which
    /// ``HTMLText`` then reduces to text.
    var innerMarkup: String {
        var markup = ""
        for child in children {
            switch child {
            case .text(let text): markup += Self.escaped(text)
            case .element(let element):
                markup += "<\(element.name)>\(element.innerMarkup)</\(element.name)>"
            }
        }
        return markup
    }

    /// `link` made absolute against ``base``; as it is when there is no base or it cannot be resolved.
    func resolve(_ link: String) -> String {
        guard let base, let resolved = URL(string: link, relativeTo: URL(string: base)) else { return link }
        return resolved.absoluteString
    }

    private static func escaped(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
        return text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// A child of an element: an element, or text.
enum XMLFeedNode: Sendable {
    case element(XMLFeedElement)
    case text(String)
}
