import RefreshKit

/// `welcome`: the reply to `hello`.
public struct Welcome: Hashable, Sendable {
    /// The session's id: the page's `/?s=ID` (PROTOCOL.md, "Sessions").
    public var session: String
    /// The secret that lets the page resume `session` later.
    public var token: String
    /// The preset in effect.
    public var preset: String
    /// Every preset the page may choose, the default first.
    public var presets: [String]
    /// What the page shows about each preset (its library, summary and the library's event names), written
    /// as `catalogue`; nothing is written when empty.
    public var catalogue: [Preset]
    /// The session's configuration, written as `config`, with the schema that describes its fields
    /// (`ConfigurationSchema`) as `schema`.
    public var configuration: ListConfiguration
    /// The server's clock when the welcome was made, written as `serverT` (ms).
    public var serverTime: Timestamp
    /// The connection's member number in the session (0 = the device that opened it), when known.
    public var member: Int?
    /// Whether the connection resumed a member it had before (`hello {session, token}`).
    public var resumed: Bool
    /// Something the page should tell its user, e.g. `session_expired` (PROTOCOL.md, "welcome").
    public var notice: String?
    /// For a resumed member with an `ack` entry: the `seq` of its last input the session applied, written as
    /// `ack` (PROTOCOL.md, "Prediction and acknowledgement").
    public var ack: UInt64?
    /// The server's address as another device on the network opens it (`http://192.168.1.23:8080`), written as
    /// `share`, so that a page opened on the server's own machine (`localhost`) shares a link a phone can open.
    public var share: String?
    /// Over https, with a CA of `refreshkit cert`: the path of the page from which another device installs that CA
    /// (`/ca`), written as `ca`, so that the share popover can send a phone there first (docs/HTTPS.md).
    public var authority: String?
    /// The process that holds the session (`serve --node`, or its process id), written as `node`.
    public var node: String?
    /// After a take-over (docs/SCALING.md): where the session came from and how long catching up took,
    /// written as `takeover`.
    public var takeOver: TakeOver?
    /// The session's feed: its source, whether it takes posts, its last requests (written as `feed`).
    public var feed: WelcomeFeed
    /// What the member may do (written as `role`, PROTOCOL.md "Roles").
    public var role: MemberRole
    /// For the owner: the session's share links, one per role (written as `links`); `nil` for everyone else, and
    /// for an owner resumed where only the keys' hashes are known (after a take-over).
    public var links: ShareLinks?

    public init(
        session: String,
        token: String,
        preset: String,
        presets: [String],
        catalogue: [Preset] = [],
        configuration: ListConfiguration,
        serverTime: Timestamp,
        member: Int? = nil,
        resumed: Bool = false,
        notice: String? = nil,
        ack: UInt64? = nil,
        share: String? = nil,
        authority: String? = nil,
        node: String? = nil,
        takeOver: TakeOver? = nil,
        feed: WelcomeFeed = .simulated,
        role: MemberRole = .owner,
        links: ShareLinks? = nil
    ) {
        self.feed = feed
        self.role = role
        self.links = links
        self.node = node
        self.takeOver = takeOver
        self.session = session
        self.token = token
        self.preset = preset
        self.presets = presets
        self.catalogue = catalogue
        self.configuration = configuration
        self.serverTime = serverTime
        self.member = member
        self.resumed = resumed
        self.notice = notice
        self.ack = ack
        self.share = share
        self.authority = authority
    }
}
