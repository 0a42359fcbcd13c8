/// What a scroll model keeps only for wheels, commands and timed inset moves: the running wheel gesture, the
/// momentum swallowed after one, a command's target and each axis's timed move (``ScrollModel``'s members of
/// those names). A session that only drags never sets them, so they live in an object of their own, made when one
/// of them is first set and let go once all are clear again, instead of inline in every session's model
/// (docs/PERFORMANCE.md, "Memory per connected session").
///
/// A value: the object is copied before a write while another model shares it, and two are equal, and hash
/// alike, by what they hold. `@unchecked Sendable`: a shared object is never written.
struct ScrollSideCar: Hashable, @unchecked Sendable {
    /// What it holds; all `nil` without an object.
    struct Members: Hashable, Sendable {
        /// The running wheel gesture: there is one exactly in the `wheel` phase (``ScrollModel/isWheeling``).
        var wheel: WheelGesture?
        /// After a wheel gesture ended on momentum, the rest of that momentum is swallowed until an idle gap
        /// (each swallowed event pushes the gap forward) or a clearly new push.
        var swallowedWheel: WheelGesture?
        /// Where a command's animated scroll is heading; kept through layout changes (clamped into the new
        /// bounds) so a relayout never strands it half way.
        var commandTarget: Point?
        /// The timed move the latest inset change on each axis asked for (``ScrollModel/setInsetLayer(_:for:timing:)``):
        /// while set, content that the change left outside its rest range goes there on this timing, not on the
        /// spring. Cleared when that axis's motion ends, or a gesture or a command takes over.
        var horizontalTiming: TimedMove?
        var verticalTiming: TimedMove?
    }

    private final class Box {
        var members: Members

        init(_ members: Members) {
            self.members = members
        }
    }

    private var box: Box?

    init() {}

    init(_ members: Members) {
        if members != Members() { box = Box(members) }
    }

    var members: Members { box?.members ?? Members() }

    /// Whether it holds anything, and so an object.
    var isHeld: Bool { box != nil }

    var wheel: WheelGesture? {
        get { box?.members.wheel }
        set { change(\.wheel, to: newValue) }
    }

    var swallowedWheel: WheelGesture? {
        get { box?.members.swallowedWheel }
        set { change(\.swallowedWheel, to: newValue) }
    }

    var commandTarget: Point? {
        get { box?.members.commandTarget }
        set { change(\.commandTarget, to: newValue) }
    }

    var horizontalTiming: TimedMove? {
        get { box?.members.horizontalTiming }
        set { change(\.horizontalTiming, to: newValue) }
    }

    var verticalTiming: TimedMove? {
        get { box?.members.verticalTiming }
        set { change(\.verticalTiming, to: newValue) }
    }

    /// When the running wheel gesture ends (``ScrollModel/wheelDeadline``), read out of line.
    @inline(never)
    func wheelDeadline() -> Timestamp? { box?.members.wheel?.deadline }

    /// Sets `member` to `value`. Clearing what is not held is a test of the reference alone: a drag's start and
    /// an animation's end clear them all.
    @inline(__always)
    private mutating func change<Value>(_ member: WritableKeyPath<Members, Value?>, to value: Value?) {
        if box == nil && value == nil { return }
        write(member, value)
    }

    private mutating func write<Value>(_ member: WritableKeyPath<Members, Value?>, _ value: Value?) {
        if box == nil {
            box = Box(Members())
        } else if !isKnownUniquelyReferenced(&box) {
            box = Box(members)
        }
        box!.members[keyPath: member] = value
        if box!.members == Members() { box = nil }
    }

    static func == (a: ScrollSideCar, b: ScrollSideCar) -> Bool {
        a.box === b.box || a.members == b.members
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(members)
    }
}
