"""A session long enough to start its recording over from a snapshot (docs/TRACE.md, "Snapshots"), through the
real server: the exported trace starts from the snapshot, and `refreshkit replay` replays it from there to the
recorded digest, which covers every frame since the session's start.

Every wait is for a state (the trace carries a snapshot), bounded by a count of rounds and a timeout."""
from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

from conftest import RECV_TIMEOUT_S, ROOT, hello, join, run, send_json, server_binary, ws_connect

SNAPSHOT_OPERATIONS = 5_000  # TraceLimits.snapshotOperations
ROUNDS = 40


async def request_trace(ws) -> str:
    await send_json(ws, {"type": "trace"})
    while True:
        raw = await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S)
        if json.loads(raw)["type"] == "trace":
            return raw


async def drain(ws) -> None:
    """Reads what the server sent so far (frames), without waiting for more."""
    while True:
        try:
            await asyncio.wait_for(ws.recv(), 0.01)
        except asyncio.TimeoutError:
            return


def test_a_long_session_exports_a_trace_from_its_snapshot_that_replays_to_its_digest(server, tmp_path: Path):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b, ws_connect(server) as c:
            welcome, _ = await hello(a, seed=3)
            await hello(b, **join(welcome))
            await hello(c, **join(welcome))
            pages = [a, b, c]
            t = 1000.0
            for round_ in range(ROUNDS):
                # 3 × 100 wheel messages (within the 300 a second each page may send), then the trace
                for step in range(100):
                    t += 3
                    dy = 6 if (round_ // 2) % 2 == 0 else -6
                    for page in pages:
                        await send_json(page, {"type": "wheel", "dx": 0, "dy": dy, "mode": 0, "t": t})
                    if step % 10 == 9:
                        await asyncio.sleep(0.1)  # pacing under the rate limit, not a wait for a state
                for page in pages[1:]:
                    await drain(page)
                raw = await request_trace(a)
                if '"snapshot":"' in raw[:200_000]:
                    return raw, round_
            raise AssertionError(f"no snapshot after {ROUNDS} rounds")

    raw, rounds = run(scenario)
    trace = json.loads(raw)["trace"]
    assert isinstance(trace["snapshot"], str) and len(trace["snapshot"]) > 100
    assert len(trace["ops"]) < SNAPSHOT_OPERATIONS + 400, "only the operations after the snapshot"
    tail_frames = sum(1 for op in trace["ops"] if op.get("frame") is True)
    assert trace["frames"] > tail_frames, "the digest covers the frames before the snapshot too"
    path = tmp_path / "trace.json"
    path.write_text(raw[len('{"type":"trace","trace":'):-1])
    result = subprocess.run([str(server_binary()), "replay", str(path), "--frames"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr + result.stdout
    summary = next(line for line in result.stdout.splitlines() if line.startswith("trace: "))
    assert ", from a snapshot after " in summary, summary
    assert f"frames {trace['frames']} digest {trace['digest']} — matches the recording" in result.stdout
    frames = [line for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(frames) == tail_frames
    # a damaged snapshot is a clear error (exit 2), not a different replay
    damaged = dict(trace, snapshot="UktTU2M=")  # "RKSS", version 99 (no build reads it)
    path.write_text(json.dumps(damaged))
    result = subprocess.run([str(server_binary()), "replay", str(path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr + result.stdout
    assert "format version 99" in result.stderr, result.stderr
