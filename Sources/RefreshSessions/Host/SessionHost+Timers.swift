import RefreshKit

// The two timers: the tick (sessions that move or wait for a deadline) and the liveness sweep.
extension SessionHost {
    /// After an input or a hello: make sure the timer fires soon enough for `session`.
    func armTick(for session: Session, at now: Int64) {
        guard !shuttingDown else { return }
        if let deadline = tickScheduler.arm(
            moving: session.isMoving, deadline: session.nextDeadline?.microseconds, now: now)
        {
            actions.append(.armTick(at: deadline))
        }
    }

    /// Makes sure the timer fires by `deadline` (e.g. a session's expiry).
    func armTimer(by deadline: Int64) {
        guard !shuttingDown else { return }
        if let armed = tickScheduler.arm(by: deadline) { actions.append(.armTick(at: armed)) }
    }

    /// The timer fired: every moving (or due) session with someone connected moves to `now`, its members get
    /// its events and frame; the sessions whose grace period ran out are freed. (A session nobody is connected to
    /// does not tick: it catches up, exactly, when someone comes back.)
    public func tick(at now: Int64) {
        flushHeldFrame()
        guard !shuttingDown else { return }
        tickScheduler.fired()
        wakeServedSessions(at: now)  // take-overs whose wait ended (SessionHost+Serving.swift)
        let time = Timestamp(microseconds: now)
        var anyMoving = false
        var earliestDeadline: Int64?
        var expired: [Session] = []
        for session in registry.sessions.values {
            if let expiry = session.expiresAt {
                if expiry <= now {
                    expired.append(session)
                } else {
                    earliestDeadline = min(earliestDeadline ?? expiry, expiry)
                }
                continue
            }
            let due = session.isMoving || (session.nextDeadline.map { $0.microseconds <= now } ?? false)
            if due {
                session.advance(to: time)
                registry.account(session)
                broadcast(session.takeEvents(), in: session)
            }
            if session.isMoving { anyMoving = true }
            if let deadline = session.nextDeadline?.microseconds {
                // A deadline the session left in the past would spin the timer: wait one period.
                let effective = deadline > now ? deadline : now + tickScheduler.period
                earliestDeadline = min(earliestDeadline ?? effective, effective)
            }
        }
        for session in expired { expire(session) }
        if let end = servingLease.nextWaitEnd { earliestDeadline = min(earliestDeadline ?? end, end) }
        if let next = tickScheduler.next(anyMoving: anyMoving, earliestDeadline: earliestDeadline, now: now) {
            actions.append(.armTick(at: next))
        }
    }

    func armSweep() {
        guard !sweepArmed, !shuttingDown else { return }
        sweepArmed = true
        actions.append(.armSweep(after: sweepPeriod))
    }

    /// Pings the connections that went quiet and hangs up those whose ping went unanswered (`Keepalive`);
    /// re-arms while any connection is open. O(connections) once a second: next to nothing beside the inputs
    /// (docs/PERFORMANCE.md, "Draining a burst").
    public func sweep(at now: Int64) {
        flushHeldFrame()
        sweepArmed = false
        for connection in connections.values where connection.lifecycle.mayWrite {
            switch keepalive.verdict(lastHeard: connection.lastHeard, pingedAt: connection.pingedAt, now: now) {
            case .fine:
                break
            case .ping:
                connection.pingedAt = now
                connection.pingDue = true
                actions.append(.wantWrite(connection))
            case .hangUp:
                logger.info(
                    "no answer to ping; hanging up",
                    metadata: [
                        "connection": "\(connection.id)",
                        "quietSeconds": "\((now - connection.lastHeard) / 1_000_000)",
                    ])
                kill(connection)
            }
        }
        wakeServedSessions(at: now)  // take-overs whose wait ended (SessionHost+Serving.swift)
        writeToStore(at: now)
        if !connections.isEmpty || (hasStore && (!registry.isEmpty || storeLedger.hasWork)) { armSweep() }
    }
}
