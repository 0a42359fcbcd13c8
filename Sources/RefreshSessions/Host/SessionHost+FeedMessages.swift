import Foundation
import RefreshKit
import RefreshWire

// The messages of an external feed (docs/PROTOCOL.md): made here, in one place, from the engine's values.
// PENDING the wire's encoders (feeds-engine): until they land, the `feed_answer` text is written here and the
// pages' messages are not sent.
extension SessionHost {
    /// The `feed_answer` text recorded for `answer` (member −1's message).
    func feedAnswerText(_ answer: FeedAnswerInput) -> [UInt8] {
        var object: [String: Any] = ["type": "feed_answer", "request": answer.request, "ms": answer.durationMs]
        switch answer.outcome {
        case .page(let page):
            object["items"] = page.items.map { item -> [String: Any] in
                var fields: [String: Any] = ["id": item.id, "text": item.text, "time": Double(item.timeMicros) / 1000]
                if let author = item.author { fields["author"] = author }
                return fields
            }
            object["older"] = page.olderCursor?.value ?? NSNull()
            object["newer"] = page.newerCursor?.value ?? NSNull()
            object["hasMore"] = page.hasMore
        case .failure(let failure):
            object["error"] = ["code": failure.code, "message": failure.message]
        }
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return Array(data ?? Data())
    }

    /// `rows`: `items` (newest first) put in by `op`, `count` loaded in all.
    func rowsMessage(_ op: String, items: [FeedItem], count: Int) -> ServerMessage? { nil }

    /// `feed_request`: one request that ended.
    func feedRequestMessage(_ entry: AnsweredRequest) -> ServerMessage? { nil }

    /// `new_items`.
    func newItemsMessage(_ news: NewItems) -> ServerMessage? { nil }
}
