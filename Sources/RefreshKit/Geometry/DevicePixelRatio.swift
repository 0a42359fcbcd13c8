/// Device pixels per CSS px, as a page reports them (`hello.dpr`): motion comes to rest within one device pixel.
public enum DevicePixelRatio {
    /// The ratios the engine accepts (``ListModel/init(viewport:devicePixelRatio:starting:seed:feed:time:)``):
    /// the one home of these bounds; the wire's decoder reads its upper bound (`DecodingLimits.maxDevicePixelRatio`).
    public static let range: ClosedRange<Double> = 0.1...16
}
