import RefreshKit
import RefreshWire
import Testing

@Suite("Decoding every message type")
struct DecodeMessageTests {
    @Test func helloWithEveryField() throws {
        let message = try decode(
            #"{"type":"hello","viewport":{"w":390,"h":844.5},"dpr":3,"preset":"jh","session":"s-1","token":"t\"k"}"#)
        let expected = Hello(
            viewport: Size(width: 390, height: 844.5), dpr: 3, preset: "jh", session: "s-1", token: "t\"k")
        #expect(message == .hello(expected))
    }

    /// Where the reader was (docs/PROTOCOL.md, "Your place, kept"), and what is refused of it.
    @Test func helloWithAPosition() throws {
        let message = try decode(
            #"{"type":"hello","viewport":{"w":390,"h":844},"dpr":3,"position":{"id":"4137","offset":30.25}}"#)
        var expected = Hello(viewport: Size(width: 390, height: 844), dpr: 3)
        expected.position = ReaderPosition(id: "4137", offset: 30.25)
        #expect(message == .hello(expected))
        let bare = try decode(#"{"type":"hello","viewport":{"w":390,"h":844},"dpr":3,"position":{"id":"9"}}"#)
        expected.position = ReaderPosition(id: "9")
        #expect(bare == .hello(expected))
        for (text, reason) in [
            (#"{"id":""}"#, "hello.position.id must not be empty"), (#"{"offset":3}"#, "hello.position.id"),
            (#"{"id":"9","offset":20000}"#, "hello.position.offset must be at most 16384 in magnitude"),
        ] {
            #expect(throws: WireError.self) {
                try decode(#"{"type":"hello","viewport":{"w":390,"h":844},"dpr":3,"position":\#(text)}"#)
            }
            do {
                _ = try decode(#"{"type":"hello","viewport":{"w":390,"h":844},"dpr":3,"position":\#(text)}"#)
            } catch {
                #expect(error.message.contains(reason), "\(error.message)")
            }
        }
        let command = try decode(#"{"type":"command","name":"scrollToItem","id":"7","offset":-12.5}"#)
        #expect(command == .input(.command(Command(.scrollToItem, amount: -12.5, item: .id("7")))))
        // the text the server applies for a new session's `position` reads back as the same command
        let restore = SynthesizedCommand.restore(ReaderPosition(id: "a\"b", offset: 7.125))
        #expect(try decode(String(decoding: restore.text, as: UTF8.self)) == .input(restore.input))
    }

    @Test func helloWithOnlyRequiredFields() throws {
        let message = try decode(#"{"viewport":{"h":844,"w":390},"dpr":2.75,"type":"hello"}"#)
        #expect(message == .hello(Hello(viewport: Size(width: 390, height: 844), dpr: 2.75)))
    }

    @Test func helloWithNullOptionalFields() throws {
        let message = try decode(
            #"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"preset":null,"session":null,"token":null}"#)
        #expect(message == .hello(Hello(viewport: Size(width: 1, height: 1), dpr: 1)))
    }

    @Test(arguments: TouchPhase.allCases)
    func touchWithEveryField(phase: TouchPhase) throws {
        let message = try decode(
            #"{"type":"touch","phase":"\#(phase.rawValue)","dx":-1.5,"dy":40,"t":1108.3,"id":7}"#)
        let touch = TouchInput(phase: phase, delta: Point(x: -1.5, y: 40), pageTime: 1108.3, pointer: 7)
        #expect(message == .input(.touch(touch)))
    }

    @Test func touchWithoutIdUsesPointerZero() throws {
        let message = try decode(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":1200.0}"#)
        #expect(message == .input(.touch(TouchInput(phase: .end, pageTime: 1200, pointer: 0))))
        let withNull = try decode(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":1200.0,"id":null}"#)
        #expect(withNull == message)
    }

    @Test(arguments: [(0, WheelDeltaMode.pixel), (1, .line), (2, .page)])
    func wheelWithEveryField(mode: Int, expected: WheelDeltaMode) throws {
        let message = try decode(#"{"type":"wheel","dx":3,"dy":-120.25,"mode":\#(mode),"t":1300}"#)
        let wheel = WheelInput(delta: Point(x: 3, y: -120.25), mode: expected, pageTime: 1300)
        #expect(message == .input(.wheel(wheel)))
    }

    @Test func wheelModeMayBeWrittenAsAnyIntegralNumber() throws {
        let message = try decode(#"{"type":"wheel","dx":0,"dy":1,"mode":1.0e0,"t":0}"#)
        #expect(message == .input(.wheel(WheelInput(delta: Point(x: 0, y: 1), mode: .line, pageTime: 0))))
    }

    @Test func resize() throws {
        let message = try decode(#"{"type":"resize","viewport":{"w":844,"h":390}}"#)
        #expect(message == .input(.resize(Size(width: 844, height: 390))))
    }

    @Test(arguments: Command.Name.allCases.filter { $0 != .scrollToItem })
    func commandWithEveryField(name: Command.Name) throws {
        let message = try decode(
            #"{"type":"command","name":"\#(name.rawValue)","edge":"bottom","animated":false,"amount":-2.5}"#)
        #expect(message == .input(.command(Command(name, edge: .bottom, animated: false, amount: -2.5))))
    }

    @Test func scrollToItemByIdOrIndex() throws {
        let byID = try decode(#"{"type":"command","name":"scrollToItem","id":"42","align":"center","animated":false}"#)
        #expect(byID == .input(.command(Command(.scrollToItem, animated: false, item: .id("42"), align: .center))))
        let byIndex = try decode(#"{"type":"command","name":"scrollToItem","index":7}"#)
        #expect(byIndex == .input(.command(Command(.scrollToItem, item: .index(7), align: .start))))
    }

    @Test func commandDefaults() throws {
        let message = try decode(#"{"type":"command","name":"refresh"}"#)
        #expect(message == .input(.command(Command(.refresh, edge: nil, animated: true, amount: 0))))
    }

    @Test(arguments: Edge.allCases)
    func commandEdges(edge: Edge) throws {
        let message = try decode(#"{"type":"command","name":"scrollToEdge","edge":"\#(edge.rawValue)"}"#)
        #expect(message == .input(.command(Command(.scrollToEdge, edge: edge))))
    }

    @Test func ping() throws {
        #expect(try decode(#"{"type":"ping","t":1021.3}"#) == .ping(t: 1021.3))
        #expect(try decode(#"{"t":-0.5,"type":"ping"}"#) == .ping(t: -0.5))
    }

    @Test func configureWithEveryField() throws {
        let text = #"""
            {"type":"configure","preset":"ms","insets":{"top":64,"bottom":34.5},
             "edges":{
               "top":{"role":"refresh","enabled":true,"triggerDistance":80,"restingInset":60.5,"promptingInset":0,
                      "preload":12,"trigger":"whileDragging","strictness":"strict","fling":"trigger",
                      "shortContent":"disabled","minimumVisibleDuration":0.4,"startDuration":0.25,
                      "exitDuration":0.3,"endsOnCycleBoundary":true,"presentation":"background","anchor":"middle",
                      "viewBehaviour":"stretches",
                      "cycleDuration":1.2,"cycleDelay":0.1,"cycleKind":"keyframe","height":64},
               "bottom":{"role":"loadMore","trigger":"onReachEdge","anchor":"top","viewBehaviour":"fixedTop",
                         "cycleKind":"spring","presentation":"slideDown","strictness":"inclusive","fling":"ignore",
                         "shortContent":"enabled","enabled":false},
               "left":{"trigger":"manual","viewBehaviour":"fixedBottom","anchor":"bottom","cycleKind":"default"},
               "right":{"trigger":"onRelease"}},
             "feed":{"latencyMs":900,"failureRate":0.25,"pageSize":30,"totalItems":500,"newItemsPerRefresh":4,
                     "rowHeight":64,"timeoutMs":5000},
             "physics":{"decelerationRate":0.99,"spring":"critical","rubberBand":0.55}}
            """#
        var top = ConfigurationPatch.EdgePatch()
        top[\.role] = .refresh
        top[\.enabled] = true
        top[\.triggerDistance] = 80
        top[\.restingInset] = 60.5
        top[\.promptingInset] = 0
        top[\.preload] = 12
        top[\.trigger] = .whileDragging
        top[\.strictness] = .strict
        top[\.fling] = .trigger
        top[\.shortContent] = .disabled
        top[\.minimumVisibleDuration] = 0.4
        top[\.startDuration] = 0.25
        top[\.exitDuration] = 0.3
        top[\.endsOnCycleBoundary] = true
        top[\.presentation] = .background
        top[\.anchor] = .middle
        top[\.viewBehaviour] = .stretches
        top[\.cycle.duration] = 1.2
        top[\.cycle.delay] = 0.1
        top[\.cycle.kind] = .keyframe
        top[\.height] = 64
        var bottom = ConfigurationPatch.EdgePatch()
        bottom[\.role] = .loadMore
        bottom[\.enabled] = false
        bottom[\.trigger] = .onReachEdge
        bottom[\.anchor] = .top
        bottom[\.viewBehaviour] = .fixedTop
        bottom[\.cycle.kind] = .spring
        bottom[\.presentation] = .slideDown
        bottom[\.strictness] = .inclusive
        bottom[\.fling] = .ignore
        bottom[\.shortContent] = .enabled
        var left = ConfigurationPatch.EdgePatch()
        left[\.trigger] = .manual
        left[\.viewBehaviour] = .fixedBottom
        left[\.anchor] = .bottom
        left[\.cycle.kind] = .default
        var right = ConfigurationPatch.EdgePatch()
        right[\.trigger] = .onRelease
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.latencyMs] = 900
        feed[\.failureRate] = 0.25
        feed[\.pageSize] = 30
        feed[\.totalItems] = 500
        feed[\.newItemsPerRefresh] = 4
        feed[\.rowHeight] = 64
        feed[\.timeoutMs] = 5000
        var physics = ConfigurationPatch.PhysicsPatch()
        physics[\.decelerationRate] = 0.99
        physics[\.springName] = "critical"
        physics[\.rubberBand] = 0.55
        let expected = ConfigurationPatch(
            preset: "ms", insets: EdgeInsets(top: 64, bottom: 34.5),
            edges: [.top: top, .bottom: bottom, .left: left, .right: right], feed: feed, physics: physics)
        #expect(try decode(text) == .input(.configure(expected)))
    }

    @Test func configureWithNothingIsAnEmptyPatch() throws {
        #expect(try decode(#"{"type":"configure"}"#) == .input(.configure(ConfigurationPatch())))
        let nulls = #"{"type":"configure","preset":null,"edges":null,"feed":null,"physics":null}"#
        #expect(try decode(nulls) == .input(.configure(ConfigurationPatch())))
    }

    @Test func configureNamesWhoseEventsTheSessionSends() throws {
        #expect(
            try decode(#"{"type":"configure","events":"library"}"#)
                == .input(.configure(ConfigurationPatch(events: .library))))
        #expect(
            try decode(#"{"type":"configure","events":"refreshkit"}"#)
                == .input(.configure(ConfigurationPatch(events: .refreshkit))))
        #expect(throws: WireError.self) { try decode(#"{"type":"configure","events":"mine"}"#) }
    }

    @Test(arguments: ["ios", "pop", "critical", "fast"])
    func configureSprings(name: String) throws {
        var physics = ConfigurationPatch.PhysicsPatch()
        physics[\.springName] = name
        let message = try decode(#"{"type":"configure","physics":{"spring":"\#(name)"}}"#)
        #expect(message == .input(.configure(ConfigurationPatch(physics: physics))))
    }

    @Test func unknownFieldsAreIgnoredAtEveryLevel() throws {
        let touch = try decode(
            #"{"type":"touch","extra":{"a":[1,{"b":null}],"c":"\"}"},"phase":"move","dx":1,"dy":2,"t":3,"z":true}"#)
        #expect(touch == .input(.touch(TouchInput(phase: .move, delta: Point(x: 1, y: 2), pageTime: 3))))
        let configure = try decode(#"{"type":"configure","edges":{"top":{"colour":"red"}},"feed":{"x":1}}"#)
        let expected = ConfigurationPatch(edges: [.top: .init()], feed: .init())
        #expect(configure == .input(.configure(expected)))
    }

    @Test func duplicateKeysLastWins() throws {
        let touch = try decode(
            #"{"type":"touch","phase":"start","dx":"bad","dx":5,"dy":"x","dy":1,"t":"x","t":1,"id":9,"id":2,"#
                + #""phase":"move"}"#)
        #expect(touch == .input(.touch(TouchInput(phase: .move, delta: Point(x: 5, y: 1), pageTime: 1, pointer: 2))))
        let wheel = try decode(#"{"type":"wheel","dx":1,"dx":2,"dy":3,"dy":4,"mode":7,"mode":2,"t":5,"t":6}"#)
        #expect(wheel == .input(.wheel(WheelInput(delta: Point(x: 2, y: 4), mode: .page, pageTime: 6))))
        let hello = try decode(
            #"{"type":"hello","viewport":0,"viewport":{"w":1,"w":2,"h":3},"dpr":0,"dpr":2,"token":"a","token":"b"}"#)
        #expect(hello == .hello(Hello(viewport: Size(width: 2, height: 3), dpr: 2, token: "b")))
        let type = try decode(#"{"type":"wheel","type":"ping","t":2}"#)
        #expect(type == .ping(t: 2))
        var top = ConfigurationPatch.EdgePatch()
        top[\.height] = 2
        let edges = try decode(#"{"type":"configure","edges":{"top":{"height":"x"},"top":{"height":2}}}"#)
        #expect(edges == .input(.configure(ConfigurationPatch(edges: [.top: top]))))
    }

    @Test func escapedKeysAndValuesAreDecoded() throws {
        let message = try decode(
            #"{"t\u0079pe":"t\u006fuch","ph\u0061se":"mov\u0065","\u0064x":1,"d\u0079":2,"\u0074":3,"i\u0064":4}"#)
        #expect(message == .input(.touch(TouchInput(phase: .move, delta: Point(x: 1, y: 2), pageTime: 3, pointer: 4))))
        let command = try decode(#"{"type":"comm\u0061nd","n\u0061me":"lo\u0061dMore","\u0065dge":"t\u006fp"}"#)
        #expect(command == .input(.command(Command(.loadMore, edge: .top))))
    }

    @Test func whitespaceAnywhereBetweenTokens() throws {
        let message = try decode(" \n\t{ \"type\" :\r\n \"ping\" , \"t\" : 5 } \n ")
        #expect(message == .ping(t: 5))
    }

    @Test func rawBytesAndStringsDecodeAlike() throws {
        let text = #"{"type":"wheel","dx":0,"dy":-3,"mode":0,"t":9.5}"#
        #expect(try decode(bytes: Array(text.utf8)) == decode(text))
        // A String that is a slice of a larger one.
        let padded = "xx" + text + "yy"
        let slice = String(padded.dropFirst(2).dropLast(2))
        #expect(try decode(slice) == decode(text))
    }

    @Test func limitsAreConfigurable() throws {
        let limits = DecodingLimits(maxViewport: 500, maxDevicePixelRatio: 4)
        let hello = #"{"type":"hello","viewport":{"w":500,"h":400},"dpr":4}"#
        #expect(try decode(hello, limits: limits) == .hello(Hello(viewport: Size(width: 500, height: 400), dpr: 4)))
        expectError(#"{"type":"hello","viewport":{"w":501,"h":400},"dpr":4}"#, .outOfRange, limits: limits)
        expectError(#"{"type":"hello","viewport":{"w":500,"h":400},"dpr":4.01}"#, .outOfRange, limits: limits)
    }
}
