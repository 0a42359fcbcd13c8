import RefreshKit
import RefreshWire
import Testing

@Suite("Decoding errors: the exact code, a message naming the field, the ref")
struct DecodeErrorTests {
    @Test(arguments: [
        "", "   ", "{", "{\"type\":\"ping\",\"t\":1", "nope", "{\"type\":\"ping\",\"t\":1}}", "{'type':1}",
    ])
    func badJSON(text: String) {
        expectError(text, .badJSON, ref: .some(nil))
    }

    @Test func badJSONMessages() {
        expectError("", .badJSON, message: "not JSON: the message is empty")
        expectError(
            "{\"type\":\"ping\",\"t\":01}", .badJSON,
            message: "not JSON: leading zeros are not allowed in a number at byte 19")
        expectError(
            "{\"type\":\"ping\",\"t\":1} x", .badJSON,
            message: "not JSON: unexpected character, expecting the end of the message at byte 22")
        expectError("{\"type\":\"ping\"", .badJSON, message: "not JSON: unexpected end of text, expecting ',' or '}'")
    }

    @Test(arguments: ["[]", "[{\"type\":\"ping\",\"t\":1}]", "\"ping\"", "3", "true", "null"])
    func notAnObject(text: String) {
        expectError(text, .badMessage, message: "a message must be a JSON object", ref: .some(nil))
    }

    @Test(arguments: [
        "{}", "{\"t\":1}", "{\"type\":1}", "{\"type\":null}", "{\"type\":[\"ping\"]}", "{\"x\":{\"type\":\"ping\"}}",
    ])
    func noStringType(text: String) {
        expectError(text, .badMessage, message: "a message needs a string \"type\"", ref: .some(nil))
    }

    @Test func unknownType() {
        expectError(
            #"{"type":"tap"}"#, .unknownType,
            message:
                "unknown message type \"tap\"; expected one of hello, touch, wheel, resize, command, configure, measure, ping, trace",
            ref: "tap")
        expectError(#"{"type":"Ping","t":1}"#, .unknownType, ref: "Ping")
        expectError(#"{"type":""}"#, .unknownType, ref: "")
        expectError(#"{"type":"pong","t":1}"#, .unknownType, ref: "pong")
        let long = String(repeating: "x", count: 1000)
        expectError(#"{"type":"\#(long)"}"#, .unknownType, ref: .some(nil))
    }

    @Test(arguments: [
        (#"{"type":"hello","dpr":1}"#, "hello.viewport is required", "hello"),
        (#"{"type":"hello","viewport":{"h":1},"dpr":1}"#, "hello.viewport.w is required", "hello"),
        (#"{"type":"hello","viewport":{"w":1},"dpr":1}"#, "hello.viewport.h is required", "hello"),
        (#"{"type":"hello","viewport":{"w":1,"h":1}}"#, "hello.dpr is required", "hello"),
        (#"{"type":"touch","dx":0,"dy":0,"t":1}"#, "touch.phase is required", "touch"),
        (#"{"type":"touch","phase":"move","dy":0,"t":1}"#, "touch.dx is required", "touch"),
        (#"{"type":"touch","phase":"move","dx":0,"t":1}"#, "touch.dy is required", "touch"),
        (#"{"type":"touch","phase":"move","dx":0,"dy":0}"#, "touch.t is required", "touch"),
        (#"{"type":"wheel","dy":0,"mode":0,"t":1}"#, "wheel.dx is required", "wheel"),
        (#"{"type":"wheel","dx":0,"mode":0,"t":1}"#, "wheel.dy is required", "wheel"),
        (#"{"type":"wheel","dx":0,"dy":0,"t":1}"#, "wheel.mode is required", "wheel"),
        (#"{"type":"wheel","dx":0,"dy":0,"mode":0}"#, "wheel.t is required", "wheel"),
        (#"{"type":"resize"}"#, "resize.viewport is required", "resize"),
        (#"{"type":"resize","viewport":{}}"#, "resize.viewport.w is required", "resize"),
        (#"{"type":"command"}"#, "command.name is required", "command"),
        (#"{"type":"ping"}"#, "ping.t is required", "ping"),
    ])
    func missingField(text: String, message: String, ref: String) {
        expectError(text, .missingField, message: message, ref: ref)
    }

    /// A message with a field of the wrong type or value, and the error it gets. Typed, so that the compiler does
    /// not infer a literal this long.
    static let badFields: [(String, String)] = [
        (#"{"type":"wheel","dx":0,"dy":"a lot","mode":0,"t":1300}"#, "wheel.dy must be a finite number"),
        (#"{"type":"wheel","dx":null,"dy":0,"mode":0,"t":1}"#, "wheel.dx must be a finite number"),
        (#"{"type":"wheel","dx":0,"dy":0,"mode":3,"t":1}"#, "wheel.mode must be 0 (pixel), 1 (line) or 2 (page)"),
        (#"{"type":"wheel","dx":0,"dy":0,"mode":"0","t":1}"#, "wheel.mode must be 0 (pixel), 1 (line) or 2 (page)"),
        (#"{"type":"wheel","dx":0,"dy":0,"mode":0.5,"t":1}"#, "wheel.mode must be 0 (pixel), 1 (line) or 2 (page)"),
        (#"{"type":"wheel","dx":0,"dy":0,"mode":0,"t":true}"#, "wheel.t must be a finite number"),
        (
            #"{"type":"touch","phase":"hover","dx":0,"dy":0,"t":1}"#,
            "touch.phase must be one of start, move, end, cancel"
        ),
        (#"{"type":"touch","phase":1,"dx":0,"dy":0,"t":1}"#, "touch.phase must be one of start, move, end, cancel"),
        (
            #"{"type":"touch","phase":"Move","dx":0,"dy":0,"t":1}"#,
            "touch.phase must be one of start, move, end, cancel"
        ),
        (#"{"type":"touch","phase":"move","dx":1e400,"dy":0,"t":1}"#, "touch.dx must be a finite number"),
        (#"{"type":"touch","phase":"move","dx":0,"dy":[1],"t":1}"#, "touch.dy must be a finite number"),
        (#"{"type":"touch","phase":"move","dx":0,"dy":0,"t":{}}"#, "touch.t must be a finite number"),
        (#"{"type":"touch","phase":"move","dx":0,"dy":0,"t":1,"id":1.5}"#, "touch.id must be an integer"),
        (#"{"type":"touch","phase":"move","dx":0,"dy":0,"t":1,"id":"1"}"#, "touch.id must be an integer"),
        (#"{"type":"ping","t":"now"}"#, "ping.t must be a finite number"),
        (#"{"type":"ping","t":-1e309}"#, "ping.t must be a finite number"),
        (#"{"type":"hello","viewport":[390,844],"dpr":1}"#, "hello.viewport must be an object {w, h}"),
        (#"{"type":"hello","viewport":{"w":"390","h":844},"dpr":1}"#, "hello.viewport.w must be a finite number"),
        (#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":"3"}"#, "hello.dpr must be a finite number"),
        (#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"preset":3}"#, "hello.preset must be a string"),
        (#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"session":{}}"#, "hello.session must be a string"),
        (#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"token":false}"#, "hello.token must be a string"),
        (#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"position":"7"}"#, "hello.position must be an object"),
        (
            #"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"position":{"id":7}}"#,
            "hello.position.id must be a string"
        ),
        (
            #"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"position":{"id":"7","offset":"3"}}"#,
            "hello.position.offset must be a finite number"
        ),
        (#"{"type":"command","name":"scrollToItem","id":"7","offset":[]}"#, "command.offset must be a finite number"),
        (#"{"type":"resize","viewport":{"w":1,"h":null}}"#, "resize.viewport.h must be a finite number"),
        (#"{"type":"command","name":7}"#, "command.name must be a string"),
        (#"{"type":"command","name":null}"#, "command.name must be a string"),
        (#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":null}"#, "hello.dpr must be a finite number"),
        (#"{"type":"touch","phase":null,"dx":0,"dy":0,"t":1}"#, "touch.phase must be one of start, move, end, cancel"),
        (#"{"type":"wheel","dx":0,"dy":0,"mode":null,"t":1}"#, "wheel.mode must be 0 (pixel), 1 (line) or 2 (page)"),
        (#"{"type":"resize","viewport":null}"#, "resize.viewport must be an object {w, h}"),
        (
            #"{"type":"command","name":"refresh","edge":"middle"}"#,
            "command.edge must be one of top, bottom, left, right"
        ),
        (#"{"type":"command","name":"refresh","animated":"yes"}"#, "command.animated must be true or false"),
        (#"{"type":"command","name":"scrollBy","amount":"10"}"#, "command.amount must be a finite number"),
        (#"{"type":"configure","preset":1}"#, "configure.preset must be a string"),
        (#"{"type":"configure","edges":[]}"#, "configure.edges must be an object"),
        (#"{"type":"configure","edges":{"top":1}}"#, "configure.edges.top must be an object"),
        (
            #"{"type":"configure","edges":{"middle":{}}}"#,
            "configure.edges.middle is not an edge; expected one of top, bottom, left, right"
        ),
        (
            #"{"type":"configure","edges":{"top":{"role":"reload"}}}"#,
            "configure.edges.top.role must be one of refresh, loadMore"
        ),
        (#"{"type":"configure","edges":{"left":{"enabled":1}}}"#, "configure.edges.left.enabled must be true or false"),
        (
            #"{"type":"configure","edges":{"top":{"triggerDistance":"far"}}}"#,
            "configure.edges.top.triggerDistance must be a finite number"
        ),
        (
            #"{"type":"configure","edges":{"top":{"trigger":"now"}}}"#,
            "configure.edges.top.trigger must be one of onRelease, whileDragging, onReachEdge, manual"
        ),
        (
            #"{"type":"configure","edges":{"top":{"strictness":1}}}"#,
            "configure.edges.top.strictness must be one of strict, inclusive"
        ),
        (
            #"{"type":"configure","edges":{"top":{"fling":"maybe"}}}"#,
            "configure.edges.top.fling must be one of ignore, trigger"
        ),
        (
            #"{"type":"configure","edges":{"top":{"shortContent":true}}}"#,
            "configure.edges.top.shortContent must be one of enabled, disabled"
        ),
        (
            #"{"type":"configure","edges":{"top":{"presentation":"overlay"}}}"#,
            "configure.edges.top.presentation must be one of slideDown, background"
        ),
        (
            #"{"type":"configure","edges":{"bottom":{"anchor":"centre"}}}"#,
            "configure.edges.bottom.anchor must be one of top, middle, bottom"
        ),
        (
            #"{"type":"configure","edges":{"top":{"viewBehaviour":"fixed"}}}"#,
            "configure.edges.top.viewBehaviour must be one of stretches, fixedTop, fixedBottom, anchored"
        ),
        (
            #"{"type":"configure","edges":{"top":{"cycleKind":"bounce"}}}"#,
            "configure.edges.top.cycleKind must be one of default, keyframe, spring"
        ),
        (
            #"{"type":"configure","edges":{"right":{"height":1e999}}}"#,
            "configure.edges.right.height must be a finite number"
        ),
        (
            #"{"type":"configure","edges":{"top":{"exitDuration":null,"cycleDelay":"0"}}}"#,
            "configure.edges.top.cycleDelay must be a finite number"
        ),
        (#"{"type":"configure","feed":3}"#, "configure.feed must be an object"),
        (#"{"type":"configure","feed":{"pageSize":2.5}}"#, "configure.feed.pageSize must be an integer"),
        (#"{"type":"configure","feed":{"totalItems":"all"}}"#, "configure.feed.totalItems must be an integer"),
        (
            #"{"type":"configure","feed":{"newItemsPerRefresh":true}}"#,
            "configure.feed.newItemsPerRefresh must be an integer"
        ),
        (#"{"type":"configure","feed":{"latencyMs":"slow"}}"#, "configure.feed.latencyMs must be a finite number"),
        (#"{"type":"configure","feed":{"failureRate":[]}}"#, "configure.feed.failureRate must be a finite number"),
        (#"{"type":"configure","feed":{"rowHeight":{}}}"#, "configure.feed.rowHeight must be a finite number"),
        (#"{"type":"configure","feed":{"timeoutMs":false}}"#, "configure.feed.timeoutMs must be a finite number"),
        (#"{"type":"configure","physics":"fast"}"#, "configure.physics must be an object"),
        (
            #"{"type":"configure","physics":{"spring":"bouncy"}}"#,
            "configure.physics.spring must be one of ios, pop, critical, fast"
        ),
        (
            #"{"type":"configure","physics":{"decelerationRate":"normal"}}"#,
            "configure.physics.decelerationRate must be a finite number"
        ),
        (
            #"{"type":"configure","physics":{"rubberBand":null,"spring":1}}"#,
            "configure.physics.spring must be one of ios, pop, critical, fast"
        ),
        (#"{"type":"configure","physics":{"rubberBand":"1"}}"#, "configure.physics.rubberBand must be a finite number"),
    ]

    @Test(arguments: badFields)
    func badField(text: String, message: String) {
        expectError(text, .badField, message: message)
    }

    @Test(arguments: [
        (#"{"type":"hello","viewport":{"w":0,"h":844},"dpr":1}"#, "hello.viewport.w must be > 0 and ≤ 100000"),
        (#"{"type":"hello","viewport":{"w":390,"h":-1},"dpr":1}"#, "hello.viewport.h must be > 0 and ≤ 100000"),
        (#"{"type":"hello","viewport":{"w":100001,"h":1},"dpr":1}"#, "hello.viewport.w must be > 0 and ≤ 100000"),
        (#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":0}"#, "hello.dpr must be > 0 and ≤ 16"),
        (#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":16.5}"#, "hello.dpr must be > 0 and ≤ 16"),
        (#"{"type":"resize","viewport":{"w":1e6,"h":1}}"#, "resize.viewport.w must be > 0 and ≤ 100000"),
        (
            #"{"type":"touch","phase":"move","dx":1000001,"dy":0,"t":1}"#,
            "touch.dx must be at most 1000000 in magnitude"
        ),
        (#"{"type":"touch","phase":"move","dx":0,"dy":-1e7,"t":1}"#, "touch.dy must be at most 1000000 in magnitude"),
        (
            #"{"type":"touch","phase":"move","dx":0,"dy":0,"t":1e13}"#,
            "touch.t must be at most 1000000000000 in magnitude"
        ),
        (
            #"{"type":"touch","phase":"move","dx":0,"dy":0,"t":1,"id":1e300}"#,
            "touch.id must be at most 9007199254740992 in magnitude"
        ),
        (#"{"type":"wheel","dx":-2e6,"dy":0,"mode":0,"t":1}"#, "wheel.dx must be at most 1000000 in magnitude"),
        (#"{"type":"wheel","dx":0,"dy":0,"mode":0,"t":-2e12}"#, "wheel.t must be at most 1000000000000 in magnitude"),
        (#"{"type":"ping","t":1e20}"#, "ping.t must be at most 1000000000000 in magnitude"),
        (#"{"type":"command","name":"scrollBy","amount":-1e9}"#, "command.amount must be at most 1000000 in magnitude"),
        (
            #"{"type":"configure","feed":{"pageSize":1e100}}"#,
            "configure.feed.pageSize must be at most 9007199254740992 in magnitude"
        ),
    ])
    func outOfRange(text: String, message: String) {
        expectError(text, .outOfRange, message: message)
    }

    @Test func stringsLongerThanTheLimitAreOutOfRange() {
        let long = String(repeating: "a", count: 257)
        let hello = #"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"token":"\#(long)"}"#
        expectError(hello, .outOfRange, message: "hello.token must be at most 256 bytes long", ref: "hello")
        // The limit counts bytes after unescaping: 256 escapes of 6 characters are 256 bytes, within it.
        let escaped = String(repeating: "\\u0041", count: 256)
        let decoded = try? decode(#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"token":"\#(escaped)"}"#)
        #expect(
            decoded
                == .hello(Hello(viewport: Size(width: 1, height: 1), dpr: 1, token: String(repeating: "A", count: 256)))
        )
    }

    @Test func unknownCommand() {
        expectError(
            #"{"type":"command","name":"explode"}"#, .unknownCommand,
            message: "unknown command \"explode\"; expected one of refresh, finish, loadMore, retry, scrollToEdge, "
                + "scrollByPage, scrollBy, scrollToItem",
            ref: "command")
        expectError(#"{"type":"command","name":"Refresh"}"#, .unknownCommand, ref: "command")
        expectError(#"{"type":"command","name":""}"#, .unknownCommand, ref: "command")
    }

    @Test func scrollToItemNamesOneRowAndAnAlignment() {
        expectError(
            #"{"type":"command","name":"scrollToItem"}"#, .missingField,
            message: "command.id (or command.index) is required", ref: "command")
        expectError(
            #"{"type":"command","name":"scrollToItem","id":"a","index":3}"#, .badField,
            message: "scrollToItem takes command.id or command.index, not both", ref: "command")
        expectError(
            #"{"type":"command","name":"scrollToItem","index":-1}"#, .outOfRange,
            message: "command.index must be 0 or more", ref: "command")
        expectError(#"{"type":"command","name":"scrollToItem","index":1.5}"#, .badField, ref: "command")
        expectError(#"{"type":"command","name":"scrollToItem","id":7}"#, .badField, ref: "command")
        expectError(#"{"type":"command","name":"scrollToItem","id":"a","align":"top"}"#, .badField, ref: "command")
    }

    @Test func refIsTheMessageType() {
        expectError(#"{"type":"touch"}"#, .missingField, ref: "touch")
        expectError(#"{"type":"t\u006fuch"}"#, .missingField, ref: "touch")
        expectError(#"{"type":"configure","feed":1}"#, .badField, ref: "configure")
        expectError(#"{"type":"resize","viewport":{"w":0,"h":1}}"#, .outOfRange, ref: "resize")
    }

    @Test func fieldsAreCheckedInProtocolOrder() {
        // Both dx and t are wrong: dx comes first in PROTOCOL.md, whatever the order in the text.
        expectError(
            #"{"type":"touch","t":"x","phase":"move","dy":0,"dx":"y"}"#, .badField,
            message: "touch.dx must be a finite number")
    }

    @Test func syntaxErrorsWinOverFieldErrors() {
        // The field error comes first in the text, but the text is not JSON.
        expectError(#"{"type":"wheel","dy":"a lot","x":01}"#, .badJSON)
    }

    @Test func serverSideErrors() {
        #expect(
            WireError.notReady(ref: "touch") == WireError(code: .notReady, message: "send hello first", ref: "touch"))
        #expect(WireError.notABinaryTouch(count: 3, first: 7).code == .binaryUnsupported)
        let engine = ListModelError(.unknownPreset, message: "no preset named 'x'")
        #expect(
            WireError(engine, ref: "configure")
                == WireError(code: .unknownPreset, message: "no preset named 'x'", ref: "configure"))
    }
}
