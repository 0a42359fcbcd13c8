import RefreshKit

/// One message from the page, decoded and validated by ``MessageDecoder``.
public enum ClientMessage: Hashable, Sendable {
    /// `hello`: the first message of a connection; opens or resumes a session. Boxed: its strings would make
    /// every message as large, and copying and freeing each input would go through them.
    indirect case hello(Hello)
    /// `touch`, `wheel`, `resize`, `command` or `configure`: something for the session; a `touch` or `wheel`
    /// may carry the page's `seq` for it (an integer in 0…2⁵³), which the frames acknowledge once the session
    /// applied it (PROTOCOL.md, "Prediction and acknowledgement").
    case input(Input, seq: UInt64? = nil)
    /// `ping {t}`: clock sync; answer with ``MessageEncoder/encodePong(t:serverTime:into:)``, echoing `t`.
    case ping(t: Double)
    /// `trace {}`: asks for the session's recorded input trace (docs/TRACE.md).
    case trace
}

/// `hello {viewport:{w,h}, dpr, preset?, session?, token?, key?, seed?, frames?, position?:{id, offset?}}`.
public struct Hello: Hashable, Sendable {
    /// The page's viewport, CSS px: finite, `0 < w, h ≤` ``DecodingLimits/maxViewport``.
    public var viewport: Size
    /// `devicePixelRatio`, in `(0, ` ``DecodingLimits/maxDevicePixelRatio`` `]`.
    public var dpr: Double
    /// The preset to start with; the server checks the name.
    public var preset: String?
    /// The session to join (alone) or resume (with its `token`).
    public var session: String?
    public var token: String?
    /// A share link's key (`k`): joins `session` with the role the key gives (PROTOCOL.md, "Roles").
    public var key: String?
    /// Seeds a new session's simulated feed (an integer in 0…2⁵³); the server's own seed when absent.
    public var seed: UInt64?
    /// How this connection wants its frames (`frames`); whole `frame` messages when absent.
    public var frames: FrameFormat
    /// Where the reader was (`position`: the item at the top of the viewport, and how far into it): a session this
    /// hello starts (not one it resumes or joins) starts there, with `scrollToItem` (docs/PROTOCOL.md, "Your place,
    /// kept").
    public var position: ReaderPosition?

    public init(
        viewport: Size, dpr: Double, preset: String? = nil, session: String? = nil, token: String? = nil,
        key: String? = nil, seed: UInt64? = nil, frames: FrameFormat = .full
    ) {
        self.key = key
        self.viewport = viewport
        self.dpr = dpr
        self.preset = preset
        self.session = session
        self.token = token
        self.seed = seed
        self.frames = frames
    }
}

/// Where a reader was in a list: the item whose row held the viewport's top, and how far into that row it was (px).
public struct ReaderPosition: Hashable, Sendable {
    public var id: String
    public var offset: Double

    public init(id: String, offset: Double = 0) {
        self.id = id
        self.offset = offset
    }
}

/// Bounds the decoder enforces beyond the JSON grammar. Values beyond them are refused with `out_of_range`
/// (or `bad_json` for ``maxDepth``).
public struct DecodingLimits: Hashable, Sendable {
    /// Deepest nesting of arrays and objects accepted anywhere in a message (the message object itself is
    /// depth 1; the deepest legitimate message, `configure`, needs 3). Deeper input is refused as `bad_json`
    /// as soon as the limit is crossed, without looking further. Values above 64 count as 64.
    public var maxDepth = 16
    /// Largest viewport side, CSS px (`hello`, `resize`); sides must also be `> 0`.
    public var maxViewport = 100_000.0
    /// Largest `|dx|`, `|dy|` of a `touch` or `wheel`.
    public var maxDelta = 1_000_000.0
    /// Largest `|amount|` of a `command`.
    public var maxAmount = 1_000_000.0
    /// Largest `|t|` of a page timestamp (`touch`, `wheel`, `ping`), ms (10¹² ms ≈ 31 years).
    public var maxTime = 1e12
    /// Largest `dpr` of a `hello`; it must also be `> 0`.
    public var maxDevicePixelRatio = DevicePixelRatio.range.upperBound
    /// Longest `preset`, `session`, `token`, `key` and `physics.spring` string, UTF-8 bytes after unescaping.
    public var maxStringLength = 256

    public init(
        maxDepth: Int = 16,
        maxViewport: Double = 100_000,
        maxDelta: Double = 1_000_000,
        maxAmount: Double = 1_000_000,
        maxTime: Double = 1e12,
        maxDevicePixelRatio: Double = DevicePixelRatio.range.upperBound,
        maxStringLength: Int = 256
    ) {
        self.maxDepth = maxDepth
        self.maxViewport = maxViewport
        self.maxDelta = maxDelta
        self.maxAmount = maxAmount
        self.maxTime = maxTime
        self.maxDevicePixelRatio = maxDevicePixelRatio
        self.maxStringLength = maxStringLength
    }
}
