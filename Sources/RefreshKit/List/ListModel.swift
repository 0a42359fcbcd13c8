// Over 400 lines on purpose: the engine's one facade (apply, advance, frame, events) over the scroll model,
// four edges and the pager; each operation is short, and they share the model's private state. A gesture's sample
// has a room of its own (ListModel+Gesture.swift), and what it reads here is internal, not private.

/// One scroll view with its edge controls and its feed: the authoritative model a page drives.
///
/// A `ListModel` is a value. The host applies inputs with ``apply(_:at:)-(Input,_)``, moves time forward with
/// ``advance(to:)``, and reads ``frame()`` and ``takeEvents()``. Nothing inside reads a clock or does I/O,
/// so the same inputs at the same times give the same frames, bit for bit.
public struct ListModel: Hashable, Sendable, Codable {
    // What every input and frame reads comes last, together and in front of the scroll model (whose own hot
    // members come first in it): the clock, the sequence, the controls' and events' buffers and the caches;
    // the name, the configuration and the feed before them. An input then reads one stretch of the model, not
    // bits of all of it (docs/PERFORMANCE.md, "Cold lines"). Coded in their old order (``CodingKeys``).
    public private(set) var presetName: String
    /// Device pixels per CSS px of the page that opened the model.
    public private(set) var devicePixelRatio: Double
    private(set) var sharedConfiguration: SharedListConfiguration { didSet { rowHeightCache.value = nil } }
    /// The list's rows: the loaded items, their layout, the window of pages and the request in flight
    /// (``SourcePager``), whichever source answers.
    public internal(set) var pager: SourcePager {
        didSet { feedStatusCache.value = nil }  // in place: a `didSet` that reads no old value
    }
    /// The engine's own source, for ``FeedMode/simulated``: it answers the pager's requests itself, at their due
    /// time (``SimulatedFeed``); `nil` when a source outside the engine answers (``FeedMode/external``).
    public internal(set) var simulated: SimulatedFeed? {
        didSet { feedStatusCache.value = nil }
    }
    public private(set) var now: Timestamp
    private var sequence: UInt64 = 0
    /// One control per edge, in `Edge.allCases` order; edges without a control are `disabled`.
    public internal(set) var controls: [EdgeControl]
    var events: [Event] = []
    /// The edges of the last two frames, used in turn: a host keeps the frame it sent last (the base of the
    /// next delta) until it has the next one, so the array of the frame before that is free again, and
    /// producing a frame neither allocates nor frees.
    private var frameEdges = Scratch<[EdgeFrame]>([])
    private var spareEdges = Scratch<[EdgeFrame]>([])
    /// Whether the latest ``observe()`` was a fixed point, and nothing but the clock moved since: the
    /// controls asked for nothing and changed nothing, no layer moved, and no control waits on the clock
    /// (a failed footer's back-off). Observing again would then see the same scroll view and do nothing,
    /// so a step that only moves the clock skips it.
    var observedQuietly = Scratch(false)
    // Derived from the members above, kept because an input or a frame reads them (ListModel+Derived.swift: what
    // each says, and what it saves). Neither coded nor compared.
    var inertControls = Scratch<UInt8?>(nil)
    var feedStatusCache = Scratch<FeedStatus?>(nil)
    var rowHeightCache = Scratch<Double?>(nil)
    /// The pager's ``SourcePager/runningID`` the engine's own source last followed (ListModel+Feed.swift).
    var followedRequest = Scratch(0)
    /// The window's size, for the viewport, page size and estimate it was worked out for (ListModel+Window.swift).
    var windowSizes = Scratch(WindowSizes())
    public internal(set) var scroll: ScrollModel
    /// Every stored member but the derived ones (ListModel+Derived.swift), in the order they were declared before.
    private enum CodingKeys: String, CodingKey {
        case now, presetName
        case sharedConfiguration = "configuration"
        case scroll, controls, pager, simulated, devicePixelRatio, sequence, events
        case frameEdges, spareEdges, observedQuietly
    }
    /// A safety net for the deadline loop in ``advance(to:)``: no real trace comes near it.
    private static let maximumStepsPerAdvance = 100_000

    /// A model at rest at the top of its feed, with the first page loaded.
    /// - Parameters:
    ///   - viewport: the page's viewport, CSS px.
    ///   - devicePixelRatio: device pixels per CSS px; motion comes to rest within one device pixel.
    ///   - found: the preset it starts with (``init(viewport:devicePixelRatio:preset:in:seed:feed:time:)``
    ///     names one).
    ///   - seed: seeds the simulated feed (failures).
    ///   - feed: the simulated feed, or an external source (the model then starts asking for its first page).
    ///   - time: the model's start.
    public init(
        viewport: Size, devicePixelRatio: Double = 1, starting found: Preset, seed: UInt64 = 1,
        feed: FeedMode = .simulated, time: Timestamp
    ) throws(ListModelError) {
        try Validation.viewport(viewport)
        try Validation.check(devicePixelRatio, in: DevicePixelRatio.range, "dpr")
        self.devicePixelRatio = devicePixelRatio
        now = time
        presetName = found.name
        sharedConfiguration = found.sharedConfiguration
        (pager, simulated) = Self.startFeed(feed, configuration: found.configuration.feed, seed: seed, at: time)
        controls = Edge.allCases.map { EdgeControl(edge: $0, shared: found.sharedEdge($0)) }
        scroll = ScrollModel(
            viewport: viewport, contentSize: .zero, insets: InsetLayers(app: found.configuration.insets),
            physics: ScrollPhysics(found.configuration, devicePixelRatio: devicePixelRatio), time: time)
        scroll.setContentSize(contentSize)
        syncLayers()
        for index in controls.indices {
            controls[index].feedReset(hasMore: pager.hasMore, at: now, events: &events)
        }
        // A footer with no more data (an external feed before its first page, a feed shorter than a page) holds
        // its resting inset from the start.
        syncLayers()
        // A viewport taller than the first page starts a load-more at once: its events are kept for the
        // host's first `takeEvents()`, so every start has its end.
        observe()
    }

    public var viewport: Size { scroll.viewport }
    /// Every edge, the insets, the feed and the physics: its preset's until a `configure` (`SharedListConfiguration`).
    public var configuration: ListConfiguration { unsafeAddress { sharedConfiguration.address } }

    /// The control of `edge`.
    public func control(_ edge: Edge) -> EdgeControl { controls[Self.index(edge)] }

    static func index(_ edge: Edge) -> Int { edge.index }

    // MARK: - Inputs

    /// Applies one input at `time` (moving the model forward to it first). Throws, and changes nothing,
    /// when the input is out of range.
    public mutating func apply(_ input: Input, at time: Timestamp) throws(ListModelError) {
        // One switch: each input is checked (before anything changes), then the model moves to `time`,
        // then the input is applied.
        switch input {
        case .touch(let touch):
            try apply(touch, at: time)
            return
        case .wheel(let wheel):
            if try applyGesture(wheel.delta, pageTime: wheel.pageTime, "wheel", at: time, { $0.wheel(wheel) }).moved {
                return
            }
        case .resize(let size):
            try Validation.viewport(size)
            advance(to: time)
            observedQuietly.value = false
            scroll.setViewport(size)
            scroll.setContentSize(contentSize)
            observe()
        case .command(let command):
            try Validation.command(command)
            if let id = ScrollDestination.jumpTarget(of: command, in: pager, engineFeed: simulated != nil) {
                try Jump.check(to: id, in: pager)
            } else if command.name == .scrollToItem {
                _ = try ScrollDestination.row(of: command.item, in: pager)
            }
            advance(to: time)
            observedQuietly.value = false
            run(command)
        case .configure(let patch):
            let reconfigured = try configuration.applying(patch)
            advance(to: time)
            observedQuietly.value = false
            if let preset = reconfigured.preset { presetName = preset }
            configure(reconfigured.configuration)
        case .feedAnswer(let answer):
            advance(to: time)
            observedQuietly.value = false
            apply(answer)
        case .measure(let batch):
            let fresh = try checkMeasurement(batch)
            advance(to: time)
            observedQuietly.value = false
            applyMeasurement(batch, fresh: fresh)
            observe()
        }
        // What the input made due at once (an exit of 0 s, a feed answering in 0 ms) happens now, not at
        // the next unrelated input.
        advance(to: now)
    }

    // MARK: - Time

    /// Moves the model's clock forward to `time` (never backwards), running every animation, gesture
    /// end, feed answer and control timer that falls due, each at its own exact time.
    // Inlined in this module up to the quiet case: every input moves the model to its time first, and a drag's
    // moves find nothing due (docs/PERFORMANCE.md, "Inlining on an input's path"). Other modules call it.
    @inline(__always)
    public mutating func advance(to time: Timestamp) {
        advanceClock(to: time)
    }

    /// ``advance(to:)``. - Returns: whether only the clock moved: the last observation was quiet and nothing was
    /// due up to `time`, so nothing but the time changed, and the model's ``schedule()`` is what it was.
    @inline(__always)
    @discardableResult
    mutating func advanceClock(to time: Timestamp) -> Bool {
        let target = max(time, now)
        if observedQuietly.value && nothingDue(by: target) {
            // What stepping would do here, without looking for deadlines there are none of; at the same
            // instant, not even the clocks move.
            guard target > now else { return true }
            now = target
            scroll.advance(to: target)
            // No control has a timer (`nothingDue`), so none has anything to do with the time.
            return true
        }
        advanceStepping(to: target)
        return false
    }

    /// ``advance(to:)`` to `target` (not before ``now``) when something may be due on the way.
    private mutating func advanceStepping(to target: Timestamp) {
        // Nothing moves and nothing is due at this very instant: observing again would change nothing.
        if target == now && !(earliestDeadline().map { $0 <= now } ?? false) { return }
        var steps = 0
        while let deadline = earliestDeadline(), deadline <= target, steps < Self.maximumStepsPerAdvance {
            step(to: deadline)
            steps += 1
        }
        step(to: target)
        // The window of pages may have asked in that last step (without an event) a source that answers at
        // once: its answer is due now, and comes now.
        while let due = feedStatus().due, due <= target, steps < Self.maximumStepsPerAdvance {
            step(to: target)
            steps += 1
        }
    }

    private mutating func step(to time: Timestamp) {
        now = time
        // Whether anything but the clock may move: an animation, a gesture's end, a feed answer, a timer.
        var moved = scroll.phase == .animating
        scroll.advance(to: time)
        if let end = scroll.wheelDeadline, end <= time {
            handle(scroll.endWheel())
            moved = true
        }
        if let due = feedStatus().due, due <= time {
            resolveFeed(at: time)
            moved = true
        }
        let fingerDown = scroll.isDragging
        for index in controls.indices {
            if controls[index].hasTimer { moved = true }
            controls[index].advance(to: time, fingerDown: fingerDown, events: &events)
        }
        if !moved && observedQuietly.value { return }
        syncLayers()
        observe()
    }

    /// Whether nothing moves by itself and nothing is scheduled up to `time`: no animation, no wheel gesture
    /// to end, no feed answer due, no control timer. Then stepping to `time` only moves the clock.
    @inline(__always)
    private mutating func nothingDue(by time: Timestamp) -> Bool {
        guard scroll.phase != .animating, scroll.wheelDeadline == nil, scroll.horizontalMotion.isEmpty,
            scroll.verticalMotion.isEmpty
        else { return false }
        if let due = feedStatus().due, due <= time { return false }
        for index in controls.indices where controls[index].hasTimer { return false }
        return true
    }

    /// Whether the content moves by itself (an animation runs): the host ticks the model periodically
    /// only while this is `true`. A held finger or a wheel gesture moves nothing between inputs, and
    /// timers (feed answers, gesture ends, control timers) are ``nextDeadline``'s business.
    public var isActive: Bool { scroll.phase == .animating }

    /// Whether anything is still to happen without input: an animation, or a timer.
    public var isBusy: Bool { isActive || nextDeadline != nil }

    /// The next time something scheduled happens: a gesture's idle end, a feed answer, a control timer,
    /// or the moment the running animation comes to rest (``schedule()``, read from a copy).
    public var nextDeadline: Timestamp? {
        var model = self
        return model.earliestDeadline()
    }

    /// ``isActive`` and ``nextDeadline`` together, as a host reads them after each `apply` or `advance` to
    /// schedule its next tick. `mutating` only so that the model is read where it lies, not copied
    /// (docs/PERFORMANCE.md, "No copies per input").
    public mutating func schedule() -> (isActive: Bool, nextDeadline: Timestamp?) {
        (isActive, earliestDeadline())
    }

    /// ``nextDeadline``, worked out where the model lies: the earliest of the wheel gesture's end, the feed's
    /// due time, the motion's end and the timers of the controls that have one (those switched off, `inert`, have
    /// none). Anything already due (a 0 s exit, a 0 ms feed answer) is due now, never in the past. Inlined, as
    /// hosts schedule after every input (docs/PERFORMANCE.md, "Inlining on an input's path").
    @inline(__always)
    mutating func earliestDeadline() -> Timestamp? {
        func earlier(_ a: Timestamp?, _ b: Timestamp?) -> Timestamp? {
            guard let a else { return b }
            guard let b else { return a }
            return min(a, b)
        }
        var earliest = earlier(scroll.wheelDeadline, feedStatus().due)
        earliest = earlier(earliest, scroll.motionEnd)
        let inert = inert()
        for index in controls.indices where inert & 1 << index == 0 && controls[index].hasTimer {
            earliest = earlier(earliest, controls[index].nextDeadline)
        }
        return earliest.map { max($0, now) }
    }

    // MARK: - Controls and the feed

    /// Whether `edge`'s request would be accepted now: never two requests at once, a refresh wins over a
    /// load-more, and a load-more needs another page.
    @inline(__always)
    mutating func canStart(_ edge: Edge) -> Bool {
        FeedStarts(feedStatus()).allow(controls[Self.index(edge)].configuration.role)
    }

    mutating func perform(_ action: EdgeControl.Action, for edge: Edge) {
        switch action {
        case .none:
            return
        case .cancelRequest:
            if let dropped = pager.cancel(for: edge) {
                events.append(Event(.feedDropped, edge: dropped.edge, cause: .configure, time: now))
            }
        case .request:
            let kind: SourceRequest.Kind = configuration.edge(edge).role == .refresh ? .refresh : .nextPage
            let (_, dropped) = pager.request(kind, for: edge, at: now)
            // A reload of the window's, or a jump, has no control to end.
            if let dropped, dropped.kind != .reload, dropped.kind != .jump {
                events.append(Event(.feedDropped, edge: dropped.edge, cause: .preempted, time: now))
                controls[Self.index(dropped.edge)].finish(
                    .cancelled, cause: .preempted, fingerDown: scroll.isDragging, at: now, events: &events)
            }
        }
    }

    private mutating func complete(_ result: SourcePager.Result) {
        switch result {
        case .loaded(let request, let items, let hasMore):
            events.append(
                Event(.feedLoaded, edge: request.edge, cause: .feedCompleted, time: now, value: Double(items)))
            if request.kind == .nextPage && items > 0 {
                // New rows at the end: a footer still in view (short content) may ask for the next page.
                controls[Self.index(request.edge)].contentGrew()
            }
            controls[Self.index(request.edge)].finish(
                .success(hasMore: hasMore), cause: .feedCompleted, fingerDown: scroll.isDragging, at: now,
                events: &events)
            if request.kind == .refresh || request.kind == .firstLoad { resetFooters() }
        case .failed(let request):
            events.append(Event(.feedFailed, edge: request.edge, cause: .feedFailed, time: now))
            controls[Self.index(request.edge)].finish(
                .failure, cause: .feedFailed, fingerDown: scroll.isDragging, at: now, events: &events)
        }
    }

    /// A source's answer, given as an input: applied, then the controls look again.
    private mutating func apply(_ answer: FeedAnswerInput) {
        take(answer)
        syncLayers()
        observe()
    }

    /// A source's answer (the engine's own, or given as an input): the window's reload puts its rows in; a
    /// control's request ends, its rows placed with the first visible row kept still; an answer to no running
    /// request is dropped as stale.
    private mutating func take(_ answer: FeedAnswerInput) {
        if answerWindow(answer) || answerJump(answer) {
            // The window's reload or a jump: its rows are in, and no control waits for it.
        } else if let result = pager.answer(answer) {
            placeLoadedRows()
            complete(result)
        } else {
            events.append(Event(.feedDropped, cause: .stale, time: now, value: Double(answer.request)))
        }
        // A jump's item that stopped short of its alignment lands again, as rows may have come below it.
        if let owed = Jump.owed(by: pager) { land(owed.row, owed.align, offset: owed.offset) }
    }

    /// What is due of the feed by `time`: the engine's own source answers; a request to a source outside the
    /// engine that has no answer by its deadline fails (a reload of the window's quietly, as no control waits).
    private mutating func resolveFeed(at time: Timestamp) {
        if simulated != nil {
            if let answer = simulated?.answer(at: time) { take(answer) }
            return
        }
        guard let running = pager.running, running.deadline <= time else { return }
        if running.kind == .reload {
            _ = pager.resolveReload(at: time)
        } else if running.kind == .jump {
            if Jump.expire(in: &pager, at: time) { Jump.startOverIfEmpty(&pager, at: time) }
        } else if let result = pager.resolve(at: time) {
            complete(result)
        }
    }

    /// Each control's inset layer, pushed into the scroll model (which absorbs the change without a jump),
    /// with the control's timed move when its library animates the inset (``EdgeControl/insetTiming(growing:onRelease:)``).
    /// `onRelease`: the finger just lifted.
    /// - Returns: whether a layer was pushed.
    @discardableResult
    mutating func syncLayers(onRelease: Bool = false) -> Bool {
        var pushed = false
        // By index: `for control in controls` would copy every control.
        for index in controls.indices {
            let layer = controls[index].layer
            let edge = controls[index].edge
            let current = scroll.insets.controls[edge]
            if current != layer {
                let timing = controls[index].insetTiming(growing: layer > current, onRelease: onRelease)
                scroll.setInsetLayer(layer, for: edge, timing: timing)
                pushed = true
            }
        }
        return pushed
    }

    /// Lets every control look at the scroll view, and carries out what they ask.
    mutating func observe() {
        let motion: EdgeControl.Motion =
            switch scroll.phase {
            case .dragging: .dragging
            case .wheel: .wheel
            case .animating: .momentum
            case .idle: .still
            }
        // A control that changes state says so with an event; a failed one may retry later with the same pull.
        let eventCount = events.count
        // The window of an external feed's pages follows the viewport first (ListModel+Window.swift).
        var quiet = !followWindow()
        // Read once, and again only after a control's action changed the feed (each read copies the pager).
        var feed = FeedStarts(feedStatus())
        // The controls are in `Edge.allCases` order; each is observed where it lies.
        let inert = inert()
        for index in controls.indices where inert & 1 << index == 0 {
            if controls[index].configuration.shortContent == .disabled {
                let fits = contentFits(controls[index].edge.axis)
                controls[index].observeLayout(contentFits: fits, hasMore: feed.hasMore, at: now, events: &events)
            }
            if controls[index].state == .disabled { continue }
            let edge = controls[index].edge
            let pull = scroll.pull(edge)
            let canStart = feed.allow(controls[index].configuration.role)
            let action = controls[index].observe(
                distance: pull.distance, velocity: pull.velocity, motion: motion, canStart: canStart, at: now,
                events: &events)
            if action != .none {
                perform(action, for: edge)
                feed = FeedStarts(feedStatus())
                quiet = false
            }
            if controls[index].state == .failed { quiet = false }
        }
        // The engine's own source takes the request the controls or the window started (or lets go of one
        // dropped), so that its answer is due at the request's time.
        if pager.runningID != followedRequest.value { followSimulatedRequest() }
        // A layer follows its control's state (``EdgeControl/layer``), and every change of state is an
        // event: an observation that asked for nothing and said nothing moved no layer, and skips looking.
        let unchanged = quiet && events.count == eventCount
        let pushed = unchanged ? false : syncLayers()
        assert(!unchanged || layersInSync, "a control changed its layer without an event")
        observedQuietly.value = unchanged && !pushed
    }

    /// Whether the content fits the viewport less the app's insets along `axis` (``Size/fits(in:less:along:)``).
    private func contentFits(_ axis: Axis) -> Bool {
        contentSize.fits(in: scroll.viewport, less: configuration.insets, along: axis)
    }

    /// Whether the scroll model holds every control's current layer (for assertions).
    private var layersInSync: Bool {
        controls.allSatisfy { scroll.insets.controls[$0.edge] == $0.layer }
    }

    // MARK: - Commands

    private mutating func run(_ command: Command) {
        switch command.name {
        case .refresh, .retry, .loadMore:
            let edge =
                command.edge ?? (command.name == .refresh ? .top : command.name == .loadMore ? .bottom : failedEdge)
            startProgrammatically(edge, animated: command.animated)
        case .finish:
            let edges = command.edge.map { [$0] } ?? Edge.allCases
            for edge in edges where control(edge).state == .refreshing {
                if pager.cancel(for: edge) != nil {
                    events.append(Event(.feedDropped, edge: edge, cause: .command, time: now))
                }
                controls[Self.index(edge)].finish(
                    .success(hasMore: pager.hasMore), cause: .command, animated: command.animated,
                    fingerDown: scroll.isDragging, at: now, events: &events)
            }
            syncLayers()
            if !command.animated { scroll.snapIntoBounds() }
        case .scrollToEdge, .scrollByPage, .scrollBy, .scrollToItem:
            if let id = ScrollDestination.jumpTarget(of: command, in: pager, engineFeed: simulated != nil) {
                jump(to: id, command)  // an item not loaded: its page is asked for (docs/LAYOUT.md, "A jump")
                break
            }
            // A scroll lets a held row go; `scrollToItem` holds the row it goes to (docs/LAYOUT.md, "Anchoring"), found
            // again after the clock moved to the command (an answer due meanwhile may have put rows above it).
            let row = command.name == .scrollToItem ? try? ScrollDestination.row(of: command.item, in: pager) : nil
            pager.hold(row)
            guard let target = ScrollDestination.offset(of: command, row: row, scroll: scroll, rows: pager.geometry)
            else { break }
            scroll.scroll(to: target, animated: command.animated)
        }
        observe()
    }

    /// The edge a bare `retry` means: the first failed one, else the bottom.
    private var failedEdge: Edge {
        controls.first { $0.state == .failed }?.edge ?? .bottom
    }

    /// Starts `edge` as a command would, through the same path as a pull; reveals the control when the
    /// content rests at that edge, and only then (never yanks a user who scrolled away).
    private mutating func startProgrammatically(_ edge: Edge, animated: Bool) {
        let wasAtEdge = abs(scroll.pull(edge).distance) <= 1 && scroll.phase == .idle
        let canStart = canStart(edge)
        let action = controls[Self.index(edge)].start(cause: .command, canStart: canStart, at: now, events: &events)
        perform(action, for: edge)
        syncLayers()
        if action == .request && wasAtEdge {
            var target = scroll.offset
            let range = scroll.bounds(edge.axis)
            target[edge.axis] = edge.isLeading ? range.lower : range.upper
            let timing = controls[Self.index(edge)].insetTiming(growing: true, onRelease: false)
            scroll.scroll(to: target, animated: animated, timing: timing)
        }
    }

    // MARK: - Configuration

    private mutating func configure(_ new: ListConfiguration) {
        if new != configuration { sharedConfiguration = SharedListConfiguration(new) }
        scroll.physics = ScrollPhysics(new, devicePixelRatio: devicePixelRatio)
        scroll.changeAppInsets(to: new.insets)
        let runningBefore = pager.running.flatMap { $0.kind == .reload ? nil : $0 }
        if reconfigureFeedKeepingTheFirstVisibleRow(new.feed) {
            // The feed started over: the request in flight is gone (its control ends), and the footers
            // follow the new first page.
            if let dropped = runningBefore {
                events.append(Event(.feedDropped, edge: dropped.edge, cause: .configure, time: now))
                controls[Self.index(dropped.edge)].finish(
                    .cancelled, cause: .configure, fingerDown: scroll.isDragging, at: now, events: &events)
            }
            resetFooters()
        }
        for edge in Edge.allCases {
            let action = controls[Self.index(edge)].configure(
                new.edge(edge), contentFits: contentFits(edge.axis), at: now, events: &events)
            perform(action, for: edge)
        }
        // Which controls are switched off is known once every control has its new configuration.
        inertControls.value = nil
        scroll.setContentSize(contentSize)
        syncLayers()
        observe()
    }

    // MARK: - Output

    /// The frame at the model's current time; each call gets the next sequence number.
    public mutating func frame() -> Frame {
        sequence += 1
        // The frame before last's edge array is reused (unique again once the host has dropped that frame, so
        // no frame allocates), taken out of `self` by swaps (no reference counting) to be filled while `self`
        // is read, and filled in place, member by member (building each entry and then storing it moved every
        // word twice). The closures capture locals only: capturing `self` would copy the model.
        var edges: [EdgeFrame] = []
        swap(&edges, &spareEdges.value)
        swap(&spareEdges.value, &frameEdges.value)
        let (viewport, bases, inert) = (scroll.viewport, Self.baseInsets(scroll.insets), inert())
        controls.withUnsafeBufferPointer { controls in
            // One pass fills and counts (ListModel+Frame.swift); only when a control was switched on or off since
            // the frame before last does the array change size, and is filled again.
            let shown = Self.fillEdges(&edges, from: controls, skipping: inert, viewport: viewport, bases: bases)
            if shown != edges.count {
                Self.resize(&edges, to: shown)
                Self.fillEdges(&edges, from: controls, skipping: inert, viewport: viewport, bases: bases)
            }
        }
        swap(&frameEdges.value, &edges)
        // What may call out (a motion chain retained, the feed's status read again) comes first: the members read
        // after it go from `self` to the frame without a stop on the stack (docs/PERFORMANCE.md, "No copies per
        // input").
        // An empty literal is the shared empty array, with no reference to count (a copy of the model's empty
        // array would be retained here and released with the frame).
        let horizontalMotion = scroll.horizontalMotion.isEmpty ? [] : scroll.horizontalMotion
        let verticalMotion = scroll.verticalMotion.isEmpty ? [] : scroll.verticalMotion
        let feed = feedStatus()
        let rowHeight = rowHeight()
        let pinned = feed.hasSections ? SectionHeaders.pinned(in: self) : nil
        return Frame(
            sequence: sequence, time: now, offset: scroll.offset, velocity: scroll.velocity, phase: scroll.phase,
            horizontalMotion: horizontalMotion, verticalMotion: verticalMotion,
            contentSize: scroll.contentSize, viewport: scroll.viewport, insets: scroll.insets.combined,
            edges: frameEdges.value,
            feed: FeedFrame(
                count: feed.count, hasMore: feed.hasMore, loading: feed.running != nil, rowHeight: rowHeight),
            pinned: pinned)
    }

    /// The buffers a drag's move reads besides the model itself, for a host that asks the CPU to fetch them ahead
    /// of a session's next input (RefreshServer's `SessionPrefetch`): the controls' array (its elements) and which
    /// controls are switched on (bit `index` of `live`), and the edge arrays of the latest frame and of the one
    /// before, which the next frame is written into. `mutating` (it changes nothing) so that the model is read in
    /// place, not copied.
    package mutating func moveBuffers()
        -> (controls: UnsafeRawPointer?, live: UInt8, edges: UnsafeRawPointer?, spareEdges: UnsafeRawPointer?)
    {
        (
            Self.address(of: &controls), ~(inertControls.value ?? 0) & (1 << controls.count &- 1),
            Self.address(of: &frameEdges.value), Self.address(of: &spareEdges.value)
        )
    }

    @inline(__always)
    private static func address<Element>(of array: inout [Element]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// The events that happened since the last call, oldest first.
    public mutating func takeEvents() -> [Event] {
        // Most steps have none: hand out the empty array rather than share (and then replace) the buffer.
        guard !events.isEmpty else { return [] }
        // The buffer goes with the events, and the model keeps the shared empty array until the next event: every
        // input reads the count, and an empty buffer of its own (a new one each time: the old one went out shared)
        // would be one more cold object an input touches (docs/PERFORMANCE.md, "Cold lines").
        var taken: [Event] = []
        swap(&taken, &events)
        return configuration.named(taken)
    }
}
