/// `HOST:PORT` as the command line takes it: `127.0.0.1:8080`, `localhost:0`, `[::1]:8080`, `0.0.0.0:8080`.
public struct LinkAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host without brackets.
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` (IPv6 in brackets); nil for anything else or a port outside 0–65535.
    public init?(_ text: String) {
        var host: Substring
        var portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { return nil }  // IPv6 needs brackets
        }
        guard !host.isEmpty, !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isNumber),
            let port = Int(portText), (0...65535).contains(port)
        else { return nil }
        self.host = String(host)
        self.port = port
    }

    /// For URLs: IPv6 in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
