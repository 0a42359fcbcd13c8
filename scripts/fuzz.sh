#!/usr/bin/env bash
# libFuzzer over the wire decoder and the session (Sources/refreshkit-fuzz, docs/HARDENING.md): builds the
# target with `swift build --sanitize=fuzzer` and runs a fixed number of inputs, starting from the seed
# conversations in scripts/fuzz/corpus (copied: the corpus it grows is thrown away). Prints the count.
#
#   scripts/fuzz.sh            # 300 000 inputs (make fuzz runs 1 000 000)
#   scripts/fuzz.sh 2000000    # longer
#   FUZZ_SEED=7 scripts/fuzz.sh
#
# A crash or an invariant violation stops the run; the input is kept in scripts/fuzz/crashes/ for
# reproduction: .build-fuzz/release/refreshkit-fuzz scripts/fuzz/crashes/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-300000}
SEED=${FUZZ_SEED:-1}
SCRATCH=${FUZZ_SCRATCH:-.build-fuzz}

swift build -c release --sanitize=fuzzer --product refreshkit-fuzz --scratch-path "$SCRATCH" 2>&1 | tail -1
WORK=$(mktemp -d /tmp/refreshkit-fuzz.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cp scripts/fuzz/corpus/* "$WORK/"
mkdir -p scripts/fuzz/crashes
STATUS=0
timeout 1800 "$SCRATCH/release/refreshkit-fuzz" "$WORK" -runs="$RUNS" -seed="$SEED" -max_len=16384 \
    -dict=scripts/fuzz/refreshkit.dict -print_final_stats=1 -artifact_prefix=scripts/fuzz/crashes/ \
    >"$WORK/log" 2>&1 || STATUS=$?
grep -E "^stat::|^Done|ERROR|invariant violated|Fatal error|Test unit written" "$WORK/log" || true
if [ "$STATUS" -ne 0 ]; then
    tail -40 "$WORK/log" >&2
    echo "fuzz: FAILED (status $STATUS); the input is in scripts/fuzz/crashes/" >&2
    exit 1
fi
rmdir scripts/fuzz/crashes 2>/dev/null || true
echo "fuzz: $RUNS inputs through the decoder and the session, no crash, no invariant violated"
