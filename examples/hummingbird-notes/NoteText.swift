import Foundation
import Hummingbird
import RefreshHummingbird

/// What `POST /notes` takes: `{"text": "…"}`, at most ``maxBytes`` of JSON; anything else is refused with a JSON
/// error, as the libwebsockets server's `POST /feed/items` refuses a bad post.
enum NoteText {
    static let maxBytes = 4096

    /// The request's body, whole. - Throws: 413 `too_large` past ``maxBytes``.
    static func body(of request: Request) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: maxBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw RequestRefused(
                status: .contentTooLarge, code: "too_large", message: "a note is at most \(maxBytes) bytes of JSON")
        }
    }

    /// The note's text, trimmed. - Throws: 400 `bad_json` for a body that is not a JSON object, 400 `bad_field` for
    /// a `text` that is missing, not a string or blank.
    static func read(_ body: ByteBuffer) throws(RequestRefused) -> String {
        let parsed = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))
        guard let object = parsed as? [String: Any] else {
            throw RequestRefused(
                status: .badRequest, code: "bad_json", message: #"a note is a JSON object: {"text": "…"}"#)
        }
        guard let text = (object["text"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty
        else {
            throw RequestRefused(status: .badRequest, code: "bad_field", message: "text: a note needs some text")
        }
        return text
    }
}
