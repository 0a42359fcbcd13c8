import RefreshKit

extension Input {
    /// The `type` the page's message of this input has (PROTOCOL.md), for an `error`'s `ref`.
    public var wireType: String {
        switch self {
        case .touch: "touch"
        case .wheel: "wheel"
        case .resize: "resize"
        case .command: "command"
        case .configure: "configure"
        case .feedAnswer: "feed_answer"
        case .measure: "measure"
        }
    }
}
