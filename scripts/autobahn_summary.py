#!/usr/bin/env python3
"""Summarises kosoku's index.json: a table per case group on stdout, and optionally docs/AUTOBAHN.md and a
compact JSON (case → behaviour). Exit status 1 when a case FAILED (kosoku's own status says the same)."""
from __future__ import annotations

import argparse
import collections
import datetime
import json
import platform
from pathlib import Path

PASSING = {"OK", "NON-STRICT", "INFORMATIONAL"}

EXCLUSIONS = {
    "2.10": "Ten pings sent back to back: lws 4.1.6 answers only the most recent one (it keeps one pending "
            "pong). RFC 6455 §5.5.3 allows exactly that; Autobahn itself notes the check goes beyond the spec "
            "(crossbario/autobahn-testsuite#101).",
    "2.11": "Same as 2.10, with the pings spread over time (the pongs still coalesce).",
    "12.*": "permessage-deflate: the server never negotiates it (transport notes §1.11: no gain on small "
            "frames, +50 % CPU, and an assert() abort in Debian's lws build under parallel compression "
            "cases). Without the extension these cases can only report UNIMPLEMENTED.",
    "13.*": "As 12.*: permessage-deflate with other parameters.",
}

NON_STRICT_NOTE = (
    "NON-STRICT (Autobahn counts it as a pass): on a protocol violation (a reserved bit, a reserved opcode, "
    "a fragmented control frame) lws fails the connection at once, with 1002, without first echoing the valid "
    "message that came just before the bad frame in the same read.")


def case_key(case: str) -> tuple:
    return tuple(int(part) for part in case.split("."))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("index")
    parser.add_argument("--cases", default="")
    parser.add_argument("--excluded", default="")
    parser.add_argument("--binary", default="")
    parser.add_argument("--markdown")
    parser.add_argument("--json")
    args = parser.parse_args()

    index = json.loads(Path(args.index).read_text())
    agent, results = next(iter(index.items()))
    groups: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    totals = collections.Counter()
    notable = []
    for case in sorted(results, key=case_key):
        result = results[case]
        behaviour = result.get("behavior", "?")
        groups[case.split(".")[0]][behaviour] += 1
        totals[behaviour] += 1
        if behaviour != "OK":
            notable.append((case, behaviour, result.get("behaviorClose", "?"), result.get("remoteCloseCode")))
    failed = [case for case, behaviour, *_ in notable if behaviour not in PASSING]
    behaviours = sorted(totals, key=lambda b: (b not in PASSING, b))

    lines = [f"{'group':>5}  {'cases':>5}  " + "  ".join(f"{b:>13}" for b in behaviours)]
    for group in sorted(groups, key=int):
        counts = groups[group]
        lines.append(f"{group:>5}  {sum(counts.values()):>5}  " + "  ".join(f"{counts[b]:>13}" for b in behaviours))
    lines.append(f"{'all':>5}  {sum(totals.values()):>5}  " + "  ".join(f"{totals[b]:>13}" for b in behaviours))
    print("\n".join(lines))
    print(f"{len(failed)} failed" + (": " + ", ".join(failed) if failed else ""))

    if args.json:
        compact = {"agent": "refreshkit serve --echo-protocol (autobahn-echo)", "totals": dict(totals),
                   "excluded": args.excluded.split() + ["12.*", "13.*"],
                   "cases": {case: results[case].get("behavior") for case in sorted(results, key=case_key)}}
        Path(args.json).write_text(json.dumps(compact, indent=0, sort_keys=False) + "\n")
    if args.markdown:
        write_markdown(Path(args.markdown), args, groups, totals, behaviours, notable, failed)
    return 1 if failed else 0


def kosoku_version() -> str:
    try:
        from importlib.metadata import version
        return version("kosoku")
    except Exception:  # noqa: BLE001
        return "?"


def write_markdown(path, args, groups, totals, behaviours, notable, failed) -> None:
    today = datetime.date.today().isoformat()
    out = [
        "# Autobahn|Testsuite results",
        "",
        "The server's WebSocket layer (libwebsockets 4.1.6 as Debian ships it, plus the server's own receive",
        "path: message reassembly, size limit, UTF-8 validation, close handling) against the Autobahn",
        "fuzzing-client cases, run by `scripts/autobahn.sh` (part of `make check`) with",
        f"[kosoku](https://pypi.org/project/kosoku/) {kosoku_version()} (Autobahn's case files under Python 3;",
        "`autobahntestsuite` itself is Python 2 only).",
        "",
        "The cases need an echo endpoint, so the server runs with `refreshkit serve --echo-protocol`, which adds",
        "the test-only subprotocol `autobahn-echo` and makes it the default for clients that ask for none",
        "(kosoku asks for none). It shares everything below the application with `refreshkit.v1`: the lws",
        "context, framing, UTF-8 validation (`LWS_SERVER_OPTION_VALIDATE_UTF8`), ping/pong, the close",
        "handshake, the Origin check and the connection limits. The echo itself is `Sources/LWSEcho`, the same one",
        "`lws-echo` serves as the bench's floor (docs/PERFORMANCE.md). Its own message limit is 32 MiB (Autobahn's",
        "9.* cases send up to 16 MiB); `refreshkit.v1` keeps its 16 KiB limit and closes with 1009 beyond it,",
        "which e2e/server/test_hostile.py covers.",
        "",
        f"Last run: {today}, {platform.machine()} {platform.system()}, cases `{args.cases}`, "
        f"binary `{args.binary}`.",
        "",
        "| group | cases | " + " | ".join(behaviours) + " |",
        "|---|---|" + "---|" * len(behaviours),
    ]
    for group in sorted(groups, key=int):
        counts = groups[group]
        out.append(f"| {group} | {sum(counts.values())} | " + " | ".join(str(counts[b]) for b in behaviours) + " |")
    out.append(f"| **all** | **{sum(totals.values())}** | " + " | ".join(f"**{totals[b]}**" for b in behaviours) + " |")
    out += ["", f"**{len(failed)} failed.**" + (" " + ", ".join(failed) if failed else ""), ""]
    if notable:
        out += ["## Cases not plainly OK", "", "| case | behaviour | close | close code |", "|---|---|---|---|"]
        out += [f"| {case} | {behaviour} | {close} | {code} |" for case, behaviour, close, code in notable]
        out += ["", "- " + NON_STRICT_NOTE,
                "- INFORMATIONAL cases have no pass/fail (7.1.6: a large message right before the close; 7.13.*: "
                "close codes 5000 and 65535, outside every range RFC 6455 defines, which lws echoes back).", ""]
    out += ["## Excluded cases", "", "| case | why |", "|---|---|"]
    for case in args.excluded.split() + ["12.*", "13.*"]:
        out.append(f"| {case} | {EXCLUSIONS.get(case, 'excluded by AUTOBAHN_EXCLUDES')} |")
    out += ["", "The suite has no groups 8 and 11.",
            "`docs/autobahn-summary.json` has the behaviour of every case of the last run.", ""]
    path.write_text("\n".join(out))


if __name__ == "__main__":
    raise SystemExit(main())
