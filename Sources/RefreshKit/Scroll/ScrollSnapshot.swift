/// A ``ScrollModel`` as a snapshot codes it: every member flat, under the keys and in the order it has always been
/// coded in, the side-car's members (``ScrollSideCar``) among the others, a `nil` one left out. The model keeps its
/// members in the order a drag reads them and its rare ones apart (docs/PERFORMANCE.md, "Cold lines"); this keeps
/// the snapshot bytes as they were (`SnapshotBytesTests`).
struct ScrollSnapshot: Codable {
    var physics: ScrollPhysics
    var now: Timestamp
    var viewport: Size
    var contentSize: Size
    var insets: InsetLayers
    var offset: Point
    var velocity: Point
    var phase: ScrollPhase
    var horizontalMotion: [MotionSegment]
    var verticalMotion: [MotionSegment]
    var drag: DragGesture?
    var fingerVelocity: FingerVelocity
    var wheel: WheelGesture?
    var swallowedWheel: WheelGesture?
    var commandTarget: Point?
    var horizontalTiming: TimedMove?
    var verticalTiming: TimedMove?
    var isDragging: Bool

    init(_ model: ScrollModel) {
        let rare = model.sideCar.members
        (physics, now, viewport, contentSize, insets) =
            (model.physics, model.now, model.viewport, model.contentSize, model.insets)
        (offset, velocity, phase, horizontalMotion, verticalMotion) =
            (model.offset, model.velocity, model.phase, model.horizontalMotion, model.verticalMotion)
        (drag, fingerVelocity, isDragging) = (model.drag, model.fingerVelocity, model.isDragging)
        (wheel, swallowedWheel, commandTarget, horizontalTiming, verticalTiming) =
            (rare.wheel, rare.swallowedWheel, rare.commandTarget, rare.horizontalTiming, rare.verticalTiming)
    }

    /// The model it codes.
    var model: ScrollModel {
        var model = ScrollModel(
            viewport: viewport, contentSize: contentSize, insets: insets, physics: physics, time: now)
        (model.offset, model.velocity, model.phase) = (offset, velocity, phase)
        (model.horizontalMotion, model.verticalMotion) = (horizontalMotion, verticalMotion)
        (model.drag, model.fingerVelocity, model.isDragging) = (drag, fingerVelocity, isDragging)
        model.sideCar = ScrollSideCar(
            ScrollSideCar.Members(
                wheel: wheel, swallowedWheel: swallowedWheel, commandTarget: commandTarget,
                horizontalTiming: horizontalTiming, verticalTiming: verticalTiming))
        return model
    }
}
