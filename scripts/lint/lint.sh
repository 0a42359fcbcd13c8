#!/usr/bin/env bash
# `make lint`: the habits nothing else checks, each by a tool that fails on a breach (README, "The two commands").
#   - Swift: `swift format lint --strict` over Sources, Tests, examples and Package.swift, with .swift-format;
#   - Python: ruff over every .py file, with pyproject.toml's rules (pyflakes, pycodestyle, import order,
#     bugbear; ruff is pinned in e2e/requirements.txt);
#   - JS: scripts/lint/check-js.mjs over web/ and examples/ (every module parses as an ES module, every import
#     resolves and links, no two page modules share a file name, no import cycle among them);
#   - comments: scripts/lint/check_comment_counts.py over Sources/RefreshKit, RefreshWire, RefreshSessions,
#     RefreshServer and ServerClock (no comment quotes an instruction, cycle or operation count, cache lines missed,
#     an estimated size, a timing or a before -> after figure: those
#     go in docs/PERFORMANCE.md, which the comment cites). It names file:line for each;
#   - type sizes: scripts/lint/type_sizes.py over Sources (no Swift type over 800 lines with its extensions,
#     counted over every file; the few over it today have a ceiling each there);
#   - the tracker: no code, test, script or page module cites an issue by its number (the word and the number):
#     a reader of a clone has the docs, not the tracker, so the code cites the docs' sections.
# Every check runs, whatever the one before found, so one run lists every problem; exits 1 if any failed.
#
#   scripts/lint/lint.sh          the repository
#   scripts/lint/lint.sh DIR      a tree laid out like it, with the repository's settings (the lint's own test,
#                                 e2e/server/test_lint.py, lints scratch trees with files it spoiled on purpose)
set -uo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
ROOT=$(cd "${1:-$REPO}" && pwd)
VENV=${VENV:-$REPO/.venv}
[ -x "$VENV/bin/ruff" ] || { echo "lint: $VENV/bin/ruff not found (make lint installs it: scripts/ensure-deps.sh lint)" >&2; exit 2; }

failed=()

swift_paths=()
for path in Sources Tests Package.swift; do [ -e "$ROOT/$path" ] && swift_paths+=("$ROOT/$path"); done
# examples/: their sources and manifests, not what a package of their own checked out into its .build
if [ -d "$ROOT/examples" ]; then
    while IFS= read -r file; do swift_paths+=("$file"); done \
        < <(find "$ROOT/examples" -name .build -prune -o -name '*.swift' -print | sort)
fi
if [ ${#swift_paths[@]} -gt 0 ]; then
    swift format lint --strict --parallel --recursive --configuration "$REPO/.swift-format" "${swift_paths[@]}" \
        || failed+=("swift format")
fi

"$VENV/bin/ruff" check --quiet --config "$REPO/pyproject.toml" "$ROOT" || failed+=(ruff)

node "$REPO/scripts/lint/check-js.mjs" "$ROOT" || failed+=(check-js)

"$VENV/bin/python" "$REPO/scripts/lint/check_comment_counts.py" "$ROOT" || failed+=(comment-counts)
"$VENV/bin/python" "$REPO/scripts/lint/type_sizes.py" "$ROOT" || failed+=("type sizes")
"$VENV/bin/python" "$REPO/scripts/figures.py" --check "$ROOT" || failed+=(figures)

tracked=()
for path in Sources Tests e2e bench scripts web/js web/test examples Makefile Package.swift; do
    [ -e "$ROOT/$path" ] && tracked+=("$ROOT/$path")
done
if [ ${#tracked[@]} -gt 0 ] && grep -rnIiE --exclude-dir=.build --exclude-dir=.venv --exclude-dir=node_modules \
    '\bissues? #?[0-9]+\b' "${tracked[@]}" | sed "s|^$ROOT/||; s|\$| (cite the docs' section, not the tracker)|" | grep .; then
    failed+=(tracker)
fi

if [ ${#failed[@]} -gt 0 ]; then
    echo "lint: failed: ${failed[*]} (see above; \`make format\` fixes the Swift layout, \`.venv/bin/ruff check --fix\` the import order)" >&2
    exit 1
fi
echo "lint: swift format, ruff, check-js, comment-counts, the type sizes, the figures and the tracker check found nothing"
