import Foundation
import RefreshKit

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Parses a feed's XML into a tree of ``XMLFeedElement``s with Foundation's `XMLParser` (libxml2 underneath on
/// Linux; docs/FEEDS.md, "Reading feeds: the parser", says why this parser and no package).
///
/// Namespaces are processed, so readers match elements by namespace URI and local name, never by the prefix a
/// feed chose. External entities are never resolved: a feed must not make the server read a file or an address
/// of the feed's choosing (XXE). Past ``FeedLimits/maxEntries`` entries the parse stops, `oversized`.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLFeedElement] = []
    private var root: XMLFeedElement?
    private var entries = 0
    private var stopped: FeedError?
    private let limits: FeedLimits

    private init(url: String?, limits: FeedLimits) {
        self.limits = limits
        stack = [XMLFeedElement(namespace: "", name: "", attributes: [:], base: url)]
    }

    /// The document's root element.
    ///
    /// A document that uses HTML entities without declaring them (`&nbsp;`: not well-formed, and common) is
    /// read again with them written as character references, as feed readers take such feeds.
    static func parse(_ data: Data, url: String?, limits: FeedLimits) throws(FeedError) -> XMLFeedElement {
        switch parseOnce(data, url: url, limits: limits) {
        case .success(let root):
            return root
        case .failure(let failure):
            guard failure.code == undeclaredEntity, let repaired = HTMLEntities.asCharacterReferences(data) else {
                throw failure.error
            }
            return try parseOnce(repaired, url: url, limits: limits).mapError(\.error).get()
        }
    }

    /// libxml2's `XML_ERR_UNDECLARED_ENTITY`.
    private static let undeclaredEntity = 26

    /// Why a parse failed: libxml2's error code (0 for a limit) and the error to throw.
    private struct Failure: Error {
        var code: Int
        var error: FeedError
    }

    private static func parseOnce(_ data: Data, url: String?, limits: FeedLimits) -> Result<XMLFeedElement, Failure> {
        let builder = XMLTreeBuilder(url: url, limits: limits)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let stopped = builder.stopped { return .failure(Failure(code: 0, error: stopped)) }
        guard parsed, let root = builder.root else {
            let code = (parser.parserError as? NSError)?.code ?? 0
            let fault = "\(fault(code)), at line \(parser.lineNumber), column \(parser.columnNumber)"
            return .failure(Failure(code: code, error: .malformed("the XML is not well-formed: \(fault)")))
        }
        return .success(root)
    }

    /// What libxml2's error `code` means (its `xmlParserErrors`, which `XMLParser` passes on as its error's
    /// code), for the faults feeds show.
    private static func fault(_ code: Int) -> String {
        switch code {
        case 4: "there is no root element"
        case 5, 77: "it ends before its root element does (truncated?)"
        case 9: "a character XML does not allow"
        case 26: "an entity that is not declared (an HTML entity such as &nbsp;?)"
        case 76: "an end tag that does not match its start tag"
        case 89: "entities that refer to each other without end (an entity bomb)"
        default: "libxml2 error \(code)"
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let parentBase = stack.last?.base
        var base = parentBase
        if let declared = attributes["xml:base"] {
            base = URL(string: declared, relativeTo: parentBase.flatMap { URL(string: $0) })?.absoluteString ?? base
        }
        let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
        stack.append(
            XMLFeedElement(namespace: namespaceURI ?? "", name: local, attributes: attributes, base: base))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        guard stack.count > 1, let element = stack.popLast() else { return }
        if element.name == "item" || element.name == "entry" {
            entries += 1
            if entries > limits.maxEntries {
                stopped = .oversized(what: "feed (over \(limits.maxEntries) entries)", limit: limits.maxEntries)
                parser.abortParsing()
            }
        }
        if stack.count == 1 {
            root = element
        } else {
            stack[stack.count - 1].children.append(.element(element))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        append(string)
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        append(String(decoding: block, as: UTF8.self))
    }

    /// Adjacent text (character data split by libxml2, entities, CDATA) is kept as one part.
    private func append(_ text: String) {
        guard stack.count > 1 else { return }
        let last = stack.count - 1
        if case .text(let before) = stack[last].children.last {
            stack[last].children[stack[last].children.count - 1] = .text(before + text)
        } else {
            stack[last].children.append(.text(text))
        }
    }
}
