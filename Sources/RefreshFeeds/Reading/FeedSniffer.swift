import Foundation

/// What a body is, from its first bytes: a JSON object, an XML document and the name of its root element, or
/// neither (docs/FEEDS.md, "Reading feeds": formats are found from the body, never from the address).
///
/// Only a first look: the XML reader confirms the root's namespace, the JSON reader the `version`.
enum FeedSniffer {
    enum Kind: Equatable {
        case json
        /// XML whose root element is named `root` (with its prefix, as written: `rss`, `rdf:RDF`, `feed`).
        case xml(root: String)
        /// No feed; the reason says what the body is instead.
        case neither(String)
    }

    static func kind(of data: Data) -> Kind {
        data.withUnsafeBytes { raw in kind(of: raw.bindMemory(to: UInt8.self)) }
    }

    private static func kind(of bytes: UnsafeBufferPointer<UInt8>) -> Kind {
        var index = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        // UTF-16 or UTF-32 XML, which libxml2 decodes: its root is read by the XML reader.
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return .xml(root: "") }
        skipSpace(bytes, &index)
        guard index < bytes.count else { return .neither("the body is empty") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .json
        case UInt8(ascii: "<"): return markup(bytes, from: index)
        case UInt8(ascii: "["): return .neither("the body is a JSON array, not a JSON Feed object")
        default: return .neither("the body starts with \(quoted(bytes, from: index))")
        }
    }

    /// The root element's name, after the XML declaration, processing instructions, comments and the DOCTYPE.
    private static func markup(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Kind {
        var index = start
        while index < bytes.count {
            skipSpace(bytes, &index)
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "<") else { break }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "?") {
                guard let end = find("?>", in: bytes, from: index) else { break }
                index = end
            } else if matches("<!--", bytes, at: index) {
                guard let end = find("-->", in: bytes, from: index) else { break }
                index = end
            } else if next == UInt8(ascii: "!") {
                if lowercased(bytes, from: index, count: 14).hasPrefix("<!doctype html") {
                    return .neither("the body is an HTML page (<!DOCTYPE html>)")
                }
                // A DOCTYPE, with an internal subset in brackets when it has one.
                guard let end = find(">", in: bytes, from: doctypeSubsetEnd(bytes, from: index)) else { break }
                index = end
            } else {
                var end = index + 1
                while end < bytes.count, !isSpace(bytes[end]), bytes[end] != UInt8(ascii: ">"),
                    bytes[end] != UInt8(ascii: "/")
                {
                    end += 1
                }
                let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                let local = name.split(separator: ":").last.map(String.init) ?? name
                switch local {
                case "rss", "RDF", "feed": return .xml(root: name)
                case _ where local.lowercased() == "html":
                    return .neither("the body is an HTML page (its root element is <\(name)>)")
                default:
                    return .neither(
                        "the body is XML whose root element is <\(name.prefix(40))>, not <rss>, <rdf:RDF> or <feed>")
                }
            }
        }
        return .neither("the body is markup with no root element")
    }

    private static func doctypeSubsetEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
            if bytes[index] == UInt8(ascii: "[") { return find("]", in: bytes, from: index) ?? bytes.count }
            index += 1
        }
        return index
    }

    /// The index just past the first `text` at or after `start`.
    private static func find(_ text: String, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let pattern = Array(text.utf8)
        var index = start
        while index + pattern.count <= bytes.count {
            if matches(text, bytes, at: index) { return index + pattern.count }
            index += 1
        }
        return nil
    }

    private static func matches(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let pattern = Array(text.utf8)
        guard index + pattern.count <= bytes.count else { return false }
        return (0..<pattern.count).allSatisfy { bytes[index + $0] == pattern[$0] }
    }

    private static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> String {
        String(decoding: bytes[start..<min(bytes.count, start + count)], as: UTF8.self).lowercased()
    }

    private static func quoted(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> String {
        let text = String(decoding: bytes[start..<min(bytes.count, start + 40)], as: UTF8.self)
        return "\"\(text.replacingOccurrences(of: "\n", with: " "))\""
    }

    private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
