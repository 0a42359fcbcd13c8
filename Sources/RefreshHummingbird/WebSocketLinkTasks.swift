import HummingbirdWebSocket
import Logging
import NIOCore

/// One WebSocket's two tasks: the reader hands each frame to the host, and the writer writes what the host has
/// whenever it is woken, one message at a time. A write waits while the socket cannot take more (NIO's
/// back-pressure), and meanwhile the host keeps only the newest frame (docs/EMBEDDING.md, "In a Hummingbird app").
struct WebSocketLinkTasks: Sendable {
    let loop: HostLoop

    /// How one of the two tasks ended.
    private enum Ending: Sendable {
        /// The peer closed, or the connection is gone.
        case readerEnded
        /// The close frame went out: the reader waits for the peer's.
        case closeSent
        /// Dropped without waiting (the host hung up on it, or a write failed).
        case dropped
        /// Nothing left to write: the connection closed.
        case writerEnded
    }

    func serve(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, peer: String, credentials: String? = nil
    ) async {
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = await loop.opened(peer: peer, credentials: credentials, wake: wake)
        await withTaskGroup(of: Ending.self) { group in
            group.addTask { await read(inbound, on: id) }
            group.addTask { await write(outbound, on: id, wakes: wakes) }
            for await ending in group where ending != .closeSent {
                group.cancelAll()
            }
        }
        await loop.closed(id)
    }

    private func read(_ inbound: WebSocketInboundStream, on id: UInt64) async -> Ending {
        var binary = false
        do {
            for try await frame in inbound {
                if frame.opcode != .continuation { binary = frame.opcode == .binary }
                await loop.received(frame.data, binary: binary, isLast: frame.fin, on: id)
            }
        } catch {
            // A protocol error or a reset: Hummingbird has closed the connection.
        }
        return .readerEnded
    }

    private func write(_ outbound: WebSocketOutboundWriter, on id: UInt64, wakes: AsyncStream<Void>) async -> Ending {
        for await _ in wakes {
            switch await loop.nextWrite(on: id) {
            case .nothing:
                continue
            case .frame(let frame):
                do { try await outbound.write(.custom(frame)) } catch { return .dropped }
            case .close(let code, let reason):
                try? await outbound.close(code, reason: reason)
                return .closeSent
            case .kill:
                return .dropped
            }
        }
        return .writerEnded
    }
}
