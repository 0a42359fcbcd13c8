/// Names the client in each HTTP request the link passes upstream: `X-Forwarded-For: <client>`, so a server that
/// trusts the link (`refreshkit serve --trusted-proxy 127.0.0.1`) counts and judges the real client, not the link's
/// loopback address (docs/LINK.md, "The client's address"; docs/HARDENING.md, "Proxies").
///
/// The link is the first hop, so any `X-Forwarded-For` or `Forwarded` line the client sent is its own claim and is
/// dropped. Requests are followed through a connection: a head, then a body of its `Content-Length`, then the next
/// head. After an `Upgrade` (the WebSocket) or a body it cannot measure (chunked), the rest of the connection is
/// passed on as it is; a later request on it then reaches the server without the header, and the server gives a
/// client its proxy did not name no rights. A connection that does not begin as an HTTP request is carried as it is.
struct ForwardedFor {
    private enum State {
        /// Collecting a request head (up to its blank line).
        case head([UInt8])
        /// Passing `remaining` bytes of a body on.
        case body(remaining: Int)
        /// Passing everything on.
        case through
    }

    /// A head longer than this is passed on untouched (the server refuses it anyway: lws takes 4 KiB).
    static let maxHeadBytes = 16 * 1024

    let client: String
    private var state = State.head([])

    init(client: String) {
        self.client = client
    }

    /// The bytes to send upstream for `bytes` read from the client (a head is held until it is whole).
    mutating func pass(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var input = bytes[...]
        while !input.isEmpty {
            switch state {
            case .through:
                output += input
                return output
            case .body(let remaining):
                let taken = min(remaining, input.count)
                output += input.prefix(taken)
                input = input.dropFirst(taken)
                state = remaining == taken ? .head([]) : .body(remaining: remaining - taken)
            case .head(var held):
                held += input
                input = []
                guard Self.couldBeRequest(held) else {  // not HTTP (a test's raw bytes): carried as they are
                    output += held
                    state = .through
                    return output
                }
                guard let end = Self.endOfHead(held) else {
                    if held.count > Self.maxHeadBytes {
                        output += held
                        state = .through
                    } else {
                        state = .head(held)
                    }
                    return output
                }
                let (head, next) = rewrite(held[..<end])
                output += head
                state = next
                input = held[end...]
            }
        }
        return output
    }

    /// What a head held at the end of the stream comes to: passed on as it is.
    mutating func finish() -> [UInt8] {
        guard case .head(let held) = state else { return [] }
        state = .through
        return held
    }

    /// Whether `bytes` begin as a request line does: a method (capital letters) and a space, or a part of one.
    static func couldBeRequest(_ bytes: [UInt8]) -> Bool {
        for (index, byte) in bytes.prefix(17).enumerated() {
            if byte == UInt8(ascii: " ") { return index > 0 }
            guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) else { return false }
        }
        return bytes.count < 17
    }

    /// The index just past the head's blank line (`\r\n\r\n`), nil until it came.
    static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    /// The head with the client's claims dropped and the link's line added after the request line, and what
    /// follows it.
    private func rewrite(_ head: ArraySlice<UInt8>) -> ([UInt8], State) {
        let lines = head.split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
        var output: [UInt8] = []
        var next = State.head([])
        for (index, line) in lines.enumerated() where !line.isEmpty || index == 0 {
            let name = line.prefix { $0 != UInt8(ascii: ":") }
            let lowered = String(decoding: name, as: UTF8.self).lowercased().trimmingSpaces()
            let value = String(decoding: line.dropFirst(name.count + 1), as: UTF8.self).trimmingSpaces()
            switch lowered {
            case "x-forwarded-for", "forwarded":
                continue
            case "content-length":
                if case .head = next, let length = Int(value), length > 0 { next = .body(remaining: length) }
            case "transfer-encoding", "upgrade":
                next = .through
            default:
                break
            }
            output += line + [13, 10]
            if index == 0 { output += Array("X-Forwarded-For: \(client)\r\n".utf8) }
        }
        output += [13, 10]
        return (output, next)
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
