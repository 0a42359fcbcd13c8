#!/usr/bin/env python3
"""The figure tables of the docs, rendered from the results files the benches write (docs/PERFORMANCE.md, "Figures
from the results files").

A table lives in a doc between `<!-- figures:NAME -->` and `<!-- /figures:NAME -->`; this script renders each from the
results file it names and writes it there (`--write`, what `make bench` runs at its end) or says which ones differ
(`--check`, what `make lint` runs: a table edited by hand, or a results file committed without its tables, fails).
Each table says the commit and the time of the run it comes from, so a figure is never older than it says.

    python3 scripts/figures.py --check [ROOT]    # exit 1 and name every stale table
    python3 scripts/figures.py --write [ROOT]    # render every table from the results files
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load(root: Path, name: str) -> dict | None:
    path = root / "bench" / name
    return json.loads(path.read_text()) if path.exists() else None


def number(value: float | None, digits: int = 2) -> str:
    if value is None:
        return "—"
    text = f"{value:,.{digits}f}".replace(",", " ")
    return text


def integer(value: float) -> str:
    return f"{round(value):,}".replace(",", " ")


def span(values: list[float], digits: int = 2) -> str:
    """`a–b` for the range of `values` (one value alone when they agree)."""
    known = [v for v in values if v is not None]
    if not known:
        return "—"
    low, high = min(known), max(known)
    return number(low, digits) if f"{low:.{digits}f}" == f"{high:.{digits}f}" else \
        f"{number(low, digits)}–{number(high, digits)}"


def stamp(results: dict) -> str:
    machine = results.get("machine", {})
    return f"`make bench` at {machine.get('git_commit', '?')}, {results.get('generated_at', '?')}"


def targets_table(results: dict) -> str:
    """Each target of the last `make bench` with its value in every round it was checked in."""
    checks = results.get("targets")
    if not checks:
        return f"{stamp(results)}: no targets in bench/results.json (a run with every stage writes them)."
    order: list[str] = []
    by_target: dict[str, list[dict]] = {}
    for check in checks:
        if check["target"] not in by_target:
            order.append(check["target"])
            by_target[check["target"]] = []
        by_target[check["target"]].append(check)
    lines = [f"{stamp(results)}: each target's value in every round it was checked in.", "",
             "| target | value | limit | verdict |", "|---|---|---|---|"]
    for target in order:
        rows = by_target[target]
        verdicts = [row["verdict"] for row in rows]
        verdict = "PASS" if all(v == "PASS" for v in verdicts) else \
            f"{sum(v == 'PASS' for v in verdicts)} of {len(verdicts)} PASS ({', '.join(sorted(set(verdicts)))})"
        lines.append(f"| {target} | {span([row['value'] for row in rows])} | {number(rows[0]['limit'])} | {verdict} |")
    passed = sum(all(row["verdict"] == "PASS" for row in rows) for rows in by_target.values())
    lines += ["", f"{passed} of {len(order)} targets held in every round."]
    return "\n".join(lines)


def levels_table(results: dict) -> str:
    """The server against the echo at each load level (the median round by p99)."""
    server = results.get("server")
    if not server or "cpu_us_per_input" not in server:
        return f"{stamp(results)}: no server stage in bench/results.json."
    levels = sorted(server["cpu_us_per_input"], key=int)
    lines = [f"{stamp(results)}, the median round by p99 of {server.get('rounds', '?')}:", "",
             "| sessions × 60 Hz | echo µs/input | server µs/input | gen µs/input | echo % | server % | gen % "
             "| echo p99 ms | server p99 ms | p99 ÷ echo |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for level in levels:
        def at(key: str, level: str = level):
            return server.get(key, {}).get(level)

        saturated = " (saturated)" if at("floor_saturated") else ""
        lines.append(
            f"| {integer(int(level))} "
            f"| {number(at('echo_cpu_us_per_input'), 1)} | {number(at('cpu_us_per_input'), 1)} "
            f"| {number(at('load_generator_cpu_us_per_input'), 1)} | {number(at('echo_cpu_percent'), 1)} "
            f"| {number(at('cpu_percent'), 1)} | {number(at('load_generator_cpu_percent'), 1)} "
            f"| {number((at('echo_latency_ms') or {}).get('p99'))} | {number((at('latency_ms') or {}).get('p99'))} "
            f"| {number(at('p99_ratio_to_echo'))}{saturated} |")
    return "\n".join(lines)


def cluster_stamp(results: dict) -> str:
    start = results.get("load_average_at_start", "?").split()[0]
    end = results.get("load_average_at_end", "?").split()[0]
    return (f"`bench/cluster_bench.py` at {results.get('git_commit', '?')}, {results.get('generated_at', '?')} "
            f"(1-minute load average {start} at the start, {end} at the end)")


def cluster_cost_table(results: dict) -> str:
    """CPU per input of each part, and sessions per core, for each configuration of the cluster bench."""
    cost = results.get("cost", {})
    rounds = results.get("workload", {}).get("rounds", "?")
    lines = [f"{cluster_stamp(results)}: each configuration's median of {rounds} rounds, the range in brackets.", "",
             "| configuration | servers µs/input | Redis µs/input | HAProxy µs/input | sessions per core: servers; "
             "every part | latency p50 / p99 |", "|---|---|---|---|---|---|"]
    for key in ("direct", "direct_store", "balancer_1", "balancer_2"):
        row = cost.get(key)
        if not row:
            continue

        def part(name: str, row: dict = row) -> str:
            value = row["us_per_input"].get(name)
            if value is None:
                return ""
            low, high = row.get("us_per_input_range", {}).get(name, [value, value])
            return f"{number(value, 1)} ({span([low, high], 1)})"

        per_core = f"{integer(row['sessions_per_core_servers'])}; {integer(row['sessions_per_core_all_parts'])}"
        latency = f"{number(row['latency_p50_ms'], 1)} / {number(row['latency_p99_ms'], 1)} ms"
        lines.append(f"| {row['label']} | {part('servers')} | {part('redis')} | {part('haproxy')} | {per_core} "
                     f"| {latency} |")
    return "\n".join(lines)


def cluster_sigkill_table(results: dict) -> str:
    """From a SIGKILL of the process holding half the sessions to each client drawing again."""
    kill = results.get("sigkill")
    if not kill:
        return f"{cluster_stamp(results)}: no SIGKILL stage."
    rows = [
        ("kill → the client sees its connection closed", "kill_to_closed_ms", " ms"),
        ("the page's backoff before it reconnects", "backoff_ms", " ms"),
        ("kill → welcome", "kill_to_welcome_ms", " ms"),
        ("**kill → first frame after the welcome**", "kill_to_first_frame_ms", " ms"),
        ("reconnecting → first frame", "reconnect_to_first_frame_ms", " ms"),
        ("take-over catch-up", "takeover_catch_up_ms", " ms"),
        ("acknowledged inputs the store did not have", "acknowledged_inputs_not_in_store", ""),
        ("inputs sent again after the welcome", "inputs_resent", ""),
        ("inputs lost after that", "inputs_lost_after_resend", ""),
        ("kill → every input sent again acknowledged", "kill_to_resent_acknowledged_ms", " ms"),
        ("the client's own event-loop lag during the recovery", "client_loop_lag_ms", " ms"),
    ]
    lines = [f"{cluster_stamp(results)}: {kill.get('sessions', '?')} sessions, the process holding "
             f"{kill.get('affected_sessions', '?')} of them killed; {kill.get('back_sessions', '?')} came back, "
             f"{len(kill.get('failures', []))} failures.", "", "| figure | p50 | max |", "|---|---|---|"]
    for label, key, unit in rows:
        value = kill.get(key)
        if isinstance(value, dict):
            digits = 1 if unit else 0
            p50, most = number(value.get("p50"), digits), number(value.get("max"), digits)
            lines.append(f"| {label} | {p50}{unit} | {most}{unit} |")
    return "\n".join(lines)


def take_over_table(results: dict) -> str:
    """The catch-up of a session an hour old, from the store's copy at moments spread over the hour."""
    figures = results.get("take_over")
    if not figures:
        return f"{stamp(results)}: no take-over stage in bench/results.json."

    def spread(key: str, digits: int, unit: str = "") -> str:
        value = figures.get(key) or {}
        return f"{number(value.get('p50'), digits)}, {number(value.get('max'), digits)}{unit}"

    kilobytes = {k: (v / 1000 if v is not None else None) for k, v in (figures.get("trace_bytes") or {}).items()}
    lines = [f"{stamp(results)}: {integer(figures.get('session_ops', 0))} operations in the hour, read at "
             f"{figures.get('moments', '?')} moments.", "", "| figure | value |", "|---|---|",
             f"| **catch-up (p50, max; target ≤ {figures.get('target_ms', 20)} ms)** "
             f"| **{spread('catch_up_ms', 2, ' ms')}** |",
             f"| operations replayed (the tail after the snapshot; p50, max) | {spread('tail_ops', 0)} |",
             f"| the stored trace (p50, max); a snapshot | {number(kilobytes.get('p50'), 0)}, "
             f"{number(kilobytes.get('max'), 0)} KB; {number(figures.get('snapshot_bytes', 0) / 1000, 1)} KB |",
             f"| replaying the whole hour without snapshots, for comparison | "
             f"{number(figures.get('full_replay_without_snapshots_ms'), 0)} ms |"]
    return "\n".join(lines)


def chaos_table(results: dict) -> str:
    """What `make chaos` counted in its last recorded run (`bench/chaos.json`)."""
    def bold(value: int) -> str:
        return f"**{integer(value)}**"

    rows = [
        ("events: SIGKILL / SIGSTOP / a live server's check failing / Redis frozen",
         f"{results['sigkill']} / {results['sigstop']} / {results['check_failed']} / {results['redis_stopped']} "
         f"({results['events']} with the link losses)"),
        ("take-overs (the servers' logs)", integer(results["take_overs"])),
        ("inputs sent", integer(results["inputs_sent"])),
        ("**sessions lost** (a device given a new session, or never back)", bold(results["sessions_lost"])),
        ("**sessions split at the end** (the two devices not both on the store's holder)",
         bold(results["sessions_split_at_end"])),
        ("**epochs refused** (a process let a session go because the store refused its epoch or left it a notice; as "
         "many pages sent on by `session_elsewhere` after their welcome)", integer(results["epochs_refused"])),
        ("**moments two processes served one session** (a frame from a process on a connection welcomed before "
         "another process's frame of that session arrived, after that frame; once per connection)",
         bold(results["two_holders_moments"])),
        ("**inputs lost** (neither applied by the new holder nor kept by the page to send again, or never "
         "acknowledged by the end)", bold(results["inputs_lost"])),
        ("inputs sent again that the session had applied (`already_applied`: applied once)",
         integer(results["inputs_refused_as_applied"])),
    ]
    devices = results["devices"] // max(1, results["sessions"])
    lines = [f"`make chaos` at {results.get('commit', '?')}: {results['seconds']:.0f} s, "
             f"seed {results.get('seed', '?')}, {results['sessions']} sessions of {devices} devices; 1-minute load "
             f"average {results.get('load_average', 0):.2f} at the end.", "", "| figure | value |", "|---|---|"]
    lines += [f"| {label} | {value} |" for label, value in rows]
    return "\n".join(lines)


def transports_table(results: dict) -> str:
    """Both transports under the same load: the median round of each, and Hummingbird's ratio to libwebsockets."""
    summary = results.get("summary", {})
    levels = sorted({int(key.split(".")[1]) for key in summary})
    lines = [f"`bench/transports_bench.py` at {results.get('git_commit', '?')}, {results.get('generated_at', '?')}: "
             "each transport's median round by CPU.", "",
             "| sessions | lws CPU µs/input | Hummingbird | lws p99 ms | Hummingbird | lws RSS B/session "
             "| Hummingbird |",
             "|---|---|---|---|---|---|---|"]
    for level in levels:
        lws, hb = summary.get(f"libwebsockets.{level}"), summary.get(f"hummingbird.{level}")
        if not lws or not hb:
            continue
        cpu = hb["cpu_us_per_input"] / lws["cpu_us_per_input"]
        rss = hb["rss_bytes_per_session"] / max(1, lws["rss_bytes_per_session"])
        lines.append(f"| {integer(level)} | {number(lws['cpu_us_per_input'], 1)} | {number(hb['cpu_us_per_input'], 1)} "
                     f"({cpu:.1f}×) | {number(lws['p99_ms'])} | {number(hb['p99_ms'])} "
                     f"| {integer(lws['rss_bytes_per_session'])} "
                     f"| {integer(hb['rss_bytes_per_session'])} ({rss:.1f}×) |")
    return "\n".join(lines)


def make_test_table(results: dict) -> str:
    """A fresh clone's `make test`, phase by phase (`scripts/time_make_test.py`)."""
    verdict = "passed" if results.get("status") == 0 else f"failed (exit {results.get('status')})"
    lines = [f"`scripts/time_make_test.py` at {results.get('git_commit', '?')}, {results.get('generated_at', '?')}: "
             f"{verdict}.", "", "| phase | s |", "|---|---|"]
    lines += [f"| {name} | {number(seconds, 1)} |" for name, seconds in results.get("phases_s", {}).items()]
    lines.append(f"| **all of `make test`** | **{number(results.get('total_s'), 1)}** |")
    lines += ["", f"The machine's busy CPU time over the run: {number(results.get('machine_busy_cpu_s'), 0)} CPU-s on "
              f"{results.get('cores', '?')} cores."]
    return "\n".join(lines)


def current_table(results: dict, memory: dict | None, memory_tls: dict | None) -> str:
    """The figures of the last `make bench` beyond its targets: the engine alone, the server at 1 000 sessions, the
    whole server's instructions, idle connections, the page, and memory per session (`bench/memory*.json`)."""
    engine, server = results.get("engine") or {}, results.get("server") or {}
    counted = results.get("server_instructions") or {}
    page, rows = results.get("page") or {}, results.get("page_rows") or {}
    memory, memory_tls = memory or {}, memory_tls or {}

    def at(table: dict, key: str, level: str = "1000"):
        value = table.get(key)
        return value.get(level) if isinstance(value, dict) else None

    moving = engine.get("bytes_per_moving_frame") or {}
    scripted = ", ".join(f"{kind} {number((moving.get(kind) or {}).get('delta'), 0)} B"
                         for kind in ("scrolling", "pulling", "animating") if kind in moving)
    own, echo = (counted.get("refreshkit") or {}), (counted.get("echo") or {})
    instructions = own.get("instructions_per_input")
    echo_instructions = echo.get("instructions_per_input")
    ratio = f" (**{instructions / echo_instructions:.2f}×**)" if instructions and echo_instructions else ""
    rows_out = [
        ("engine instructions per step", f"**{integer(engine['instructions_per_step'])}**"
         if engine.get("instructions_per_step") else "—"),
        ("engine steps/s, one core (the runs)", span([v / 1e6 for v in engine.get("steps_per_sec_runs", [])]) + " M"
         if engine.get("steps_per_sec_runs") else "—"),
        ("engine step parts, ns", ", ".join(f"{label} {number(engine.get(key), 0)}" for label, key in (
            ("apply", "ns_per_apply"), ("advance", "ns_per_advance"), ("frame", "ns_per_frame_build"),
            ("delta encode", "ns_per_frame_encode"), ("touch decode", "ns_per_touch_decode")))),
        ("engine memory per session", f"{integer(engine.get('session_inline_bytes', 0))} B inline, "
         f"{integer(engine.get('session_heap_bytes', 0))} B heap, "
         f"{integer(engine.get('rss_bytes_per_session', 0))} B RSS"),
        ("bytes per moving frame, scripted (delta)", scripted or "—"),
        ("whole server, instructions per input", f"**{integer(int(instructions))}**; `lws-echo` "
         f"{integer(int(echo_instructions))}{ratio}" if instructions and echo_instructions else "—"),
        ("server (echo) CPU µs per input, 1 000 sessions", f"{number(at(server, 'cpu_us_per_input'), 1)} "
         f"({number(at(server, 'echo_cpu_us_per_input'), 1)})"),
        ("generator's share of a core, 1 000 sessions", f"{number(at(server, 'load_generator_cpu_percent'), 0)} %"),
        ("bytes per moving frame, the load's drags", f"**{number(server.get('bytes_per_frame'), 1)} B** payload, "
         f"{number(server.get('wire_bytes_per_frame'), 1)} B on the wire"),
        (f"idle, {integer(server.get('idle_connections', 0))} connections",
         f"**{number(server.get('idle_cpu_percent'))} %** of a core"),
        ("memory per connected session", f"**{integer(memory['server_rss_bytes_per_session'])} B** RSS, `lws-echo` "
         f"{integer(memory['echo_rss_bytes_per_session'])} B: **{memory['rss_ratio_to_echo']}×** (target ≤ "
         f"{memory.get('rss_ratio_limit', 2):g}×; {integer(memory.get('sessions', 0))} sessions)"
         if memory.get("server_rss_bytes_per_session") else "—"),
        ("over TLS, memory per connected session", f"**{integer(memory_tls['server_rss_bytes_per_session'])} B** "
         f"RSS, TLS echo {integer(memory_tls['echo_rss_bytes_per_session'])} B: **{memory_tls['rss_ratio_to_echo']}×**"
         f" (target ≤ {memory_tls.get('rss_ratio_limit', 1.5):g}×)" if memory_tls.get("server_rss_bytes_per_session")
         else "—"),
        ("page, 10 000 rows, JS per frame", f"{number(page.get('ms_per_frame'))} ms (rAF p95 "
         f"{number(page.get('raf_ms_p95'), 1)} ms)"),
        ("page, varied text from a SQLite feed, JS per frame", f"{number(rows.get('ms_per_frame'))} ms, p95 "
         f"{number(rows.get('js_ms_p95'))} ms"),
    ]
    lines = [f"{stamp(results)}; memory from `bench/memory_bench.py` at {memory.get('git_commit', '?')} "
             f"(over TLS at {memory_tls.get('git_commit', '?')}).", "", "| figure | value |", "|---|---|"]
    lines += [f"| {label} | {value} |" for label, value in rows_out]
    return "\n".join(lines)


def feed_table(results: dict) -> str:
    """How long each source takes to answer a refresh and a load-more, and the CPU per request."""
    feed = results.get("feed") or {}
    if "sqlite" not in feed:
        return f"{stamp(results)}: no feed stage in bench/results.json."
    target = feed.get("target_p99_ms", 16.7)
    lines = [f"{stamp(results)}: pages of {feed.get('page_size', '?')}.", "",
             "| source | request | p50 ms | p99 ms | CPU µs/request |", "|---|---|---|---|---|"]
    for key, label in (("sqlite", "SQLite, {items} items"), ("jsonfeed", "JSON Feed (local), {items} items")):
        source = feed.get(key) or {}
        if "error" in source or "refresh" not in source:
            lines.append(f"| {label.format(items='?')} | | {source.get('error', 'not measured')} | | |")
            continue
        refresh, more = source["refresh"], source["load_more"]
        p99 = f"{number(refresh['p99_ms'], 3)} / {number(more['p99_ms'], 3)}"
        if key == "sqlite":
            met = "met" if max(refresh["p99_ms"], more["p99_ms"]) <= target else "missed"
            p99 = f"**{p99}** ({met}: ≤ {target:g} ms)"
        lines.append(f"| {label.format(items=integer(source.get('items', 0)))} | refresh / load-more "
                     f"| {number(refresh['p50_ms'], 3)} / {number(more['p50_ms'], 3)} | {p99} "
                     f"| {number(refresh['cpu_us_per_request'], 0)} / {number(more['cpu_us_per_request'], 0)} |")
    return "\n".join(lines)


def anchor_table(results: dict) -> str:
    """The anchoring error during a fling for each change of the rows above the visible one."""
    anchor = results.get("anchor") or {}
    cases = anchor.get("cases")
    if not cases:
        return f"{stamp(results)}: no anchoring stage in bench/results.json."
    lines = [f"{stamp(results)}:", "", f"| case | max error | drift | ≤ {anchor.get('target_px', 0.5):g} px |",
             "|---|---|---|---|"]
    for case in cases.values():
        if "error" in case:
            lines.append(f"| ? | {case['error']} | | fails |")
            continue
        lines.append(f"| {case['title']} | {case['max_error_px']:.2g} px | {case['max_drift_px']:.2g} px "
                     f"| {'holds' if case['holds'] else 'fails'} |")
    return "\n".join(lines)


def window_figures(results: dict) -> str:
    """A session's state after scrolling a large feed to its end and back, against after its first page."""
    window = results.get("window") or {}
    if "state_bytes_first_page" not in window:
        return f"{stamp(results)}: no window stage in bench/results.json."
    ratio = window["ratio_largest_to_first_page"]
    return (f"{stamp(results)}: {integer(window['items'])} items, pages of {window['page_size']}, "
            f"{window['most_held_rows']} rows held at most; state {integer(window['state_bytes_first_page'])} B after "
            f"the first page and {integer(window['state_bytes_largest'])} B at its largest: **{ratio:.2f}×** "
            f"({'met' if ratio <= 2 else 'missed'}: ≤ 2×).")


def fling_table(results: dict) -> str:
    """Placeholder rows shown during flings through a large SQLite feed, with the prefetch and without."""
    fling = results.get("fling") or {}
    runs = fling.get("runs")
    if not runs:
        return f"{stamp(results)}: no fling stage in bench/results.json."
    lines = [f"{stamp(results)}: {fling['flings']} full-speed flings up from the middle of {integer(fling['items'])} "
             "items (placeholder rows in the viewport per frame while flinging; rows still placeholders at rest):", "",
             "| answers after | prefetch where it stops | a page as rows near |", "|---|---|---|"]
    for run in runs:
        def cell(side: dict) -> str:
            return (f"{side['fling_placeholder_rows_per_frame']:.2f}; {side['rest_placeholder_rows']} at rest, "
                    f"{side['requests']} requests")
        lines.append(f"| {run['latency_ms']:.0f} ms | {cell(run['prefetch'])} | {cell(run['without'])} |")
    return "\n".join(lines)


def lag_table(results: dict) -> str:
    """Finger-to-content lag on each link, prediction on and off, beside the bare page (`results.lag`)."""
    lag = results.get("lag") or {}
    targets = lag.get("targets")
    if not targets:
        return f"{stamp(results)}: no lag stage in bench/results.json ({lag.get('note', 'not measured')})."

    def figure(run: dict | None) -> str:
        if not run:
            return ""
        if run.get("error"):
            return f"failed: {run['error']}"
        return " / ".join(number(run.get(key), 1) for key in ("lag_ms_median", "lag_ms_p90", "lag_ms_max"))

    recon = [run.get("reconciliation_error_px_p99") for runs in targets.values() for run in runs.values()
             if isinstance(run, dict) and run.get("reconciliation_error_px_p99") is not None]
    lines = [f"{stamp(results)} (ms: median / p90 / max):", "", "| link | prediction on | prediction off |",
             "|---|---|---|", f"| bare page | {figure(lag.get('bare'))} | |"]
    for name in lag.get("profiles") or sorted(targets):
        runs = targets.get(name) or {}
        lines.append(f"| {name} | {figure(runs.get('predict_on'))} | {figure(runs.get('predict_off'))} |")
    if recon:
        lines += ["", f"Reconciliation error p99, the most of any run: {max(recon):.1f} px."]
    return "\n".join(lines)


# Every table: its name in the docs' markers, the doc, the results file (or files: the first must be there, the others
# come as None when missing) and how it is rendered, from each file's contents in that order.
TABLES: dict[str, tuple[str, str | tuple[str, ...], Callable[..., str]]] = {
    "targets": ("docs/PERFORMANCE.md", "results.json", targets_table),
    "levels": ("docs/PERFORMANCE.md", "results.json", levels_table),
    "cluster-cost": ("docs/SCALING.md", "cluster.json", cluster_cost_table),
    "cluster-sigkill": ("docs/SCALING.md", "cluster.json", cluster_sigkill_table),
    "take-over": ("docs/SCALING.md", "results.json", take_over_table),
    "chaos": ("docs/SCALING.md", "chaos.json", chaos_table),
    "transports": ("docs/PERFORMANCE.md", "transports.json", transports_table),
    "make-test": ("README.md", "make-test.json", make_test_table),
    "current": ("docs/PERFORMANCE.md", ("results.json", "memory.json", "memory_tls.json"), current_table),
    "feed": ("docs/PERFORMANCE.md", "results.json", feed_table),
    "anchor": ("docs/PERFORMANCE.md", "results.json", anchor_table),
    "window": ("docs/PERFORMANCE.md", "results.json", window_figures),
    "fling": ("docs/PERFORMANCE.md", "results.json", fling_table),
    "lag": ("docs/PERFORMANCE.md", "results.json", lag_table),
}

BLOCK = re.compile(r"(<!-- figures:(?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- /figures:(?P=name) -->)", re.S)


def render(root: Path, doc: str, text: str) -> tuple[str, list[str]]:
    """`text` with each of its tables rendered anew, and the names of those that changed."""
    changed: list[str] = []

    def replace(match: re.Match) -> str:
        name = match["name"]
        if name not in TABLES or TABLES[name][0] != doc:
            raise SystemExit(f"{doc}: no table named '{name}' (scripts/figures.py TABLES)")
        _, files, renderer = TABLES[name]
        files = (files,) if isinstance(files, str) else files
        contents = [load(root, file) for file in files]
        writer = "scripts/time_make_test.py" if files[0] == "make-test.json" else "`make bench`"
        body = renderer(*contents) if contents[0] else f"bench/{files[0]} is missing: {writer} writes it."
        body += "\n"
        if body != match["body"]:
            changed.append(name)
        return match.group(1) + body + match.group(4)

    return BLOCK.sub(replace, text), changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 when a table differs from its results")
    mode.add_argument("--write", action="store_true", help="render every table from its results")
    parser.add_argument("root", nargs="?", type=Path, default=ROOT, help="the repository (default: this one)")
    args = parser.parse_args()
    stale: list[str] = []
    for doc in sorted({table[0] for table in TABLES.values()}):
        path = args.root / doc
        if not path.exists():  # a tree without the doc (the lint's own tests lint a few files): nothing to render
            continue
        text, changed = render(args.root, doc, path.read_text())
        missing = [name for name, table in TABLES.items() if table[0] == doc and f"<!-- figures:{name} -->" not in text]
        if missing:
            print(f"{doc}: no markers for {', '.join(missing)}", file=sys.stderr)
            return 1
        if args.write and changed:
            path.write_text(text)
            print(f"{doc}: rendered {', '.join(changed)}")
        stale += [f"{doc} ({name})" for name in changed]
    if args.check and stale:
        print("tables that differ from their results files (scripts/figures.py --write renders them): "
              + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
