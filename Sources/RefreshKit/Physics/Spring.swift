/// A damped spring: mass, stiffness and damping coefficient (Flutter's `SpringDescription`).
public struct Spring: Hashable, Sendable {
    public var mass: Double
    public var stiffness: Double
    /// The damping coefficient `c` (not the ratio).
    public var damping: Double

    public init(mass: Double, stiffness: Double, damping: Double) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
    }

    /// A spring given by its damping ratio ζ: `c = ζ·2·√(m·k)`.
    public init(mass: Double, stiffness: Double, dampingRatio: Double) {
        self.init(mass: mass, stiffness: stiffness, damping: dampingRatio * 2 * (mass * stiffness).squareRoot())
    }
}
