#!/usr/bin/env bash
# `make docs`: the DocC documentation of every library product, built with the toolchain's `docc` from the
# symbol graphs of a build of their own (.build-docs, so the ordinary build keeps its flags), each warning an
# error. The archives go to .build-docs/docs/NAME.doccarchive.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
SCRATCH=.build-docs
GRAPHS="$SCRATCH/symbol-graphs"
rm -rf "$SCRATCH/docs" && mkdir -p "$GRAPHS" "$SCRATCH/docs"  # the graphs stay: a module is compiled (and its graph
# written) only when it changed
targets=(RefreshKit RefreshFeeds RefreshWire RefreshSessions RefreshServer RefreshStore ServerClock
    RefreshHosting RefreshHummingbird)
for target in "${targets[@]}"; do
    swift build --scratch-path "$SCRATCH" --target "$target" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$ROOT/$GRAPHS"
done
failed=()
for target in "${targets[@]}"; do
    own="$SCRATCH/graphs-$target"
    rm -rf "$own" && mkdir -p "$own"
    cp "$GRAPHS/$target".symbols.json "$own/"
    cp "$GRAPHS/$target"@*.symbols.json "$own/" 2>/dev/null || true
    catalog=()
    [ -d "Sources/$target/$target.docc" ] && catalog=("Sources/$target/$target.docc")
    docc convert "${catalog[@]}" --additional-symbol-graph-dir "$own" --fallback-display-name "$target" \
        --fallback-bundle-identifier "org.refreshkit.$target" --output-dir "$SCRATCH/docs/$target.doccarchive" \
        --warnings-as-errors || failed+=("$target")
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "docs: warnings in ${failed[*]}" >&2
    exit 1
fi
echo "docs: ${targets[*]} built without warnings (.build-docs/docs)"
