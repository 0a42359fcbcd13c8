import RefreshKit

/// Decodes a `feed_answer` (docs/PROTOCOL.md, "Feed"): the server's feed source answering the session's
/// request, written by ``MessageEncoder/encodeFeedAnswer(_:into:)`` and recorded in the trace as applied by
/// member -1 (``TraceOperation/feedSourceMember``). A page may not send one: ``MessageDecoder`` refuses it.
///
/// ```
/// {"type":"feed_answer","request":7,"ms":3.2,"items":[ITEM…],"older":"c"|null,"newer":"c"|null,"hasMore":true,
///  "above":1200}
/// {"type":"feed_answer","request":7,"ms":10000,"error":{"code":"timed_out","message":"…"}}
/// ITEM = {"id":"42","text":"…","author":"…","title":"…","url":"…","section":"…","time":1732480000123.5,
///         "image":{"url":"…","width":640,"height":480}}
/// ```
/// An item's `time` is milliseconds since 1970, exact to the microsecond; `time` (an undated item), `author`,
/// `title`, `url`, `section`, `image` and the image's sizes may be absent (or `null`). Unknown fields are ignored. Errors name the field
/// (`feed_answer.items[2].id must be a string`).
public struct FeedAnswerDecoder: Sendable {
    /// The deepest nesting accepted (an image inside an item inside the items is 4 deep).
    public var maxDepth = 8

    public init() {}

    /// Decodes the `feed_answer` in `bytes`. Every error has the `ref` `feed_answer`.
    public func decode(_ bytes: UnsafeRawBufferPointer) throws(WireError) -> FeedAnswerInput {
        do {
            return try read(bytes)
        } catch {
            var refused = error
            refused.ref = "feed_answer"
            throw refused
        }
    }

    private func read(_ bytes: UnsafeRawBufferPointer) throws(WireError) -> FeedAnswerInput {
        let json = JSONText(bytes)
        let outline = try json.validate(maxDepth: maxDepth)
        guard outline.isObject else { throw Self.bad(.badMessage, "a message must be a JSON object") }
        guard outline.typeValue >= 0, json.kind(at: outline.typeValue) == .string,
            json.equals(json.string(at: outline.typeValue), "feed_answer")
        else {
            throw Self.bad(.badMessage, "the feed source's message must have \"type\":\"feed_answer\"")
        }
        let fields = try Self.members(json, outline.start)
        let request = try Self.integer(json, fields["request"], "feed_answer.request")
        let ms = try Self.optionalNumber(json, fields["ms"], "feed_answer.ms") ?? 0
        guard ms >= 0 else { throw Self.bad(.outOfRange, "feed_answer.ms must be ≥ 0") }
        if let error = fields["error"], json.kind(at: error) != .null {
            return FeedAnswerInput(request: request, outcome: .failure(try Self.failure(json, error)), durationMs: ms)
        }
        guard let itemsAt = fields["items"] else {
            throw Self.bad(.missingField, "feed_answer needs \"items\" (a page) or \"error\"")
        }
        guard json.kind(at: itemsAt) == .array else { throw Self.bad(.badField, "feed_answer.items must be an array") }
        var items: [FeedItem] = []
        var index = 0
        try json.forEachElement(ofArrayAt: itemsAt) { (position: Int) throws(WireError) in
            items.append(try Self.item(json, position, "feed_answer.items[\(index)]"))
            index += 1
        }
        let older = try Self.optionalString(json, fields["older"], "feed_answer.older").map(FeedCursor.init)
        let newer = try Self.optionalString(json, fields["newer"], "feed_answer.newer").map(FeedCursor.init)
        guard let hasMoreAt = fields["hasMore"] else { throw Self.bad(.missingField, "feed_answer.hasMore is missing") }
        guard json.kind(at: hasMoreAt) == .bool else {
            throw Self.bad(.badField, "feed_answer.hasMore must be a boolean")
        }
        let above = try Self.optionalInteger(json, fields["above"], "feed_answer.above")
        if let above, above < 0 { throw Self.bad(.outOfRange, "feed_answer.above must be 0 or more") }
        let page = FeedPage(
            items: items, olderCursor: older, newerCursor: newer, hasMore: json.byte(hasMoreAt) == .t, above: above)
        return FeedAnswerInput(request: request, outcome: .page(page), durationMs: ms)
    }

    /// Decodes the `feed_answer` in `bytes`.
    public func decode(_ bytes: [UInt8]) throws(WireError) -> FeedAnswerInput {
        let result: Result<FeedAnswerInput, WireError> = bytes.withUnsafeBytes { raw in
            Result { () throws(WireError) in try decode(raw) }
        }
        return try result.get()
    }

    // MARK: Parts

    private static func item(_ json: JSONText, _ position: Int, _ name: String) throws(WireError) -> FeedItem {
        guard json.kind(at: position) == .object else { throw bad(.badField, "\(name) must be an object") }
        let fields = try members(json, position)
        let id = try string(json, fields["id"], "\(name).id")
        let text = try string(json, fields["text"], "\(name).text")
        let author = try optionalString(json, fields["author"], "\(name).author")
        let title = try optionalString(json, fields["title"], "\(name).title")
        let url = try optionalString(json, fields["url"], "\(name).url")
        let section = try optionalString(json, fields["section"], "\(name).section")
        var micros: Int64?
        if let timeAt = fields["time"], json.kind(at: timeAt) != .null {  // (absent: an undated item)
            guard let ms = json.number(at: timeAt), ms.isFinite else {
                throw bad(.badField, "\(name).time must be a finite number (ms since 1970)")
            }
            guard abs(ms) <= 1e13 else { throw bad(.outOfRange, "\(name).time must be within ±10¹³ ms") }
            micros = Int64((ms * 1000).rounded())
        }
        var image: FeedImage?
        if let imageAt = fields["image"], json.kind(at: imageAt) != .null {
            guard json.kind(at: imageAt) == .object else { throw bad(.badField, "\(name).image must be an object") }
            let parts = try members(json, imageAt)
            image = FeedImage(
                url: try string(json, parts["url"], "\(name).image.url"),
                width: try optionalInteger(json, parts["width"], "\(name).image.width"),
                height: try optionalInteger(json, parts["height"], "\(name).image.height"))
        }
        return FeedItem(
            id: id, text: text, author: author, timeMicros: micros, image: image, title: title,
            url: url, section: section)
    }

    private static func failure(_ json: JSONText, _ position: Int) throws(WireError) -> FeedFailure {
        guard json.kind(at: position) == .object else {
            throw bad(.badField, "feed_answer.error must be an object {code, message}")
        }
        let fields = try members(json, position)
        return FeedFailure(
            code: try string(json, fields["code"], "feed_answer.error.code"),
            message: try string(json, fields["message"], "feed_answer.error.message"))
    }

    /// The members of the object at `position` (the last of a repeated name wins).
    private static func members(_ json: JSONText, _ position: Int) throws(WireError) -> [String: Int] {
        var fields: [String: Int] = [:]
        try json.forEachMember(ofObjectAt: position) { key, value in fields[json.makeString(key)] = value }
        return fields
    }

    private static func string(_ json: JSONText, _ position: Int?, _ name: String) throws(WireError) -> String {
        guard let position else { throw bad(.missingField, "\(name) is missing") }
        guard let value = try optionalString(json, position, name) else {
            throw bad(.badField, "\(name) must be a string")
        }
        return value
    }

    private static func optionalString(_ json: JSONText, _ position: Int?, _ name: String) throws(WireError)
        -> String?
    {
        guard let position, json.kind(at: position) != .null else { return nil }
        guard json.kind(at: position) == .string else { throw bad(.badField, "\(name) must be a string") }
        return json.makeString(json.string(at: position))
    }

    private static func optionalNumber(_ json: JSONText, _ position: Int?, _ name: String) throws(WireError)
        -> Double?
    {
        guard let position, json.kind(at: position) != .null else { return nil }
        guard let value = json.number(at: position), value.isFinite else {
            throw bad(.badField, "\(name) must be a finite number")
        }
        return value
    }

    private static func integer(_ json: JSONText, _ position: Int?, _ name: String) throws(WireError) -> Int {
        guard position != nil else { throw bad(.missingField, "\(name) is missing") }
        guard let value = try optionalInteger(json, position, name) else {
            throw bad(.badField, "\(name) must be an integer")
        }
        return value
    }

    private static func optionalInteger(_ json: JSONText, _ position: Int?, _ name: String) throws(WireError)
        -> Int?
    {
        guard let value = try optionalNumber(json, position, name) else { return nil }
        guard value == value.rounded(), abs(value) <= 9_007_199_254_740_992 else {
            throw bad(.badField, "\(name) must be an integer")
        }
        return Int(value)
    }

    private static func bad(_ code: ErrorCode, _ message: String) -> WireError {
        WireError(code: code, message: message, ref: "feed_answer")
    }
}
