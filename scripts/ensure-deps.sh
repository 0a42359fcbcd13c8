#!/usr/bin/env bash
# Installs what RefreshKit needs on a Debian machine, and nothing that is already there.
#   scripts/ensure-deps.sh runtime   libwebsockets-dev (and pkg-config) for building the server
#   scripts/ensure-deps.sh cluster   + haproxy, redis-server and supervisor for `make cluster`
#   scripts/ensure-deps.sh lint      + node and the Python venv (ruff, e2e/requirements.txt) for `make lint`
#   scripts/ensure-deps.sh bench     + valgrind (instruction counts), heaptrack (where each byte of a session goes), chromium
#   scripts/ensure-deps.sh test      + haproxy, redis-server, supervisor, chromium-headless-shell, WebKitGTK and node for the page tests, and the Python venv
set -euo pipefail
cd "$(dirname "$0")/.."

want=("${1:-runtime}")
missing=()

need_pkg() { # need_pkg CHECK-COMMAND DEBIAN-PACKAGE
    if ! eval "$1" >/dev/null 2>&1; then missing+=("$2"); fi
}

need_pkg "command -v pkg-config" pkg-config
need_pkg "pkg-config --exists libwebsockets" libwebsockets-dev
need_pkg "pkg-config --exists libuv" libuv1-dev  # a dependency of libwebsockets-dev; the event loop (ServiceLoop)
need_pkg "pkg-config --exists jemalloc" libjemalloc-dev  # the server's allocator (Sources/CJemalloc)
need_pkg "pkg-config --exists libqrencode" libqrencode-dev  # the QR code `serve` prints (Sources/CQREncode)
need_pkg "pkg-config --exists hiredis" libhiredis-dev  # the session store's client (Sources/CHiredis)
need_pkg "pkg-config --exists libcrypto" libssl-dev  # SHA-256 of the tokens a store keeps (Sources/CLibCrypto)
need_pkg "pkg-config --exists sqlite3" libsqlite3-dev  # the SQLite feed source (Sources/CSQLite, docs/FEEDS.md)
need_pkg "pkg-config --exists libcurl" libcurl4-openssl-dev  # fetching JSON Feeds (Sources/CCurl, docs/FEEDS.md)
need_pkg "test -f /usr/share/games/fortunes/fortunes" fortunes  # the text a new SQLite feed starts with
if [ "${want[0]}" = test ] || [ "${want[0]}" = cluster ]; then
    need_pkg "command -v haproxy" haproxy  # the balancer of `make cluster` and e2e/cluster
    need_pkg "command -v redis-server" redis-server  # the session store (docs/SCALING.md)
    need_pkg "command -v supervisord" supervisor  # runs and restarts the processes of `make cluster`
fi
if [ "${want[0]}" = test ] || [ "${want[0]}" = lint ]; then
    need_pkg "command -v node" nodejs
    need_pkg "python3 -c 'import venv, ensurepip'" python3-venv
fi
if [ "${want[0]}" = bench ]; then
    need_pkg "command -v valgrind" valgrind  # callgrind's instruction counts (docs/PERFORMANCE.md)
    need_pkg "command -v heaptrack" heaptrack  # the heap's owners per session (docs/PERFORMANCE.md, memory)
    need_pkg "command -v chromium" chromium  # the whole browser, as people run it, for the page's figures (bench/page_bench.py)
fi
if [ "${want[0]}" = test ]; then
    need_pkg "command -v chromium-headless-shell" chromium-headless-shell  # the browser tests' Chromium (e2e/browser)
    need_pkg "command -v zbarimg" zbar-tools  # reads the QR codes back in tests
    need_pkg "fc-list :lang=zh | grep -q ." fonts-noto-cjk  # Chinese glyphs in the i18n test's screenshot
    need_pkg "command -v ip" iproute2  # another host for tests: a network namespace (e2e/server/test_metrics.py)
    # the page over https (e2e/browser/test_https.py): WebKitGTK's MiniBrowser and its WebDriver in a virtual
    # display, and NSS's certutil to give Chromium a CA to trust
    need_pkg "command -v WebKitWebDriver" webkit2gtk-driver
    need_pkg "command -v Xvfb" xvfb
    need_pkg "command -v certutil" libnss3-tools
fi

if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing missing Debian packages: ${missing[*]}"
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "error: RefreshKit needs the Debian packages ${missing[*]}, and this user can neither" >&2
        echo "       install them (not root) nor use sudo. Ask an administrator to run:" >&2
        echo "       apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
    if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
        $SUDO apt-get update -qq
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" || {
            echo "error: apt-get could not install ${missing[*]} (see above)." >&2
            exit 1
        }
    fi
fi

if [ "${want[0]}" = test ] || [ "${want[0]}" = lint ]; then
    venv=.venv
    stamp=$venv/.requirements.stamp
    if [ ! -x $venv/bin/python ]; then
        echo "==> creating the Python venv for the tests and the lint ($venv)"
        python3 -m venv $venv
    fi
    if [ ! -f $stamp ] || ! cmp -s e2e/requirements.txt $stamp; then
        echo "==> installing e2e/requirements.txt into $venv"
        $venv/bin/pip install -q --disable-pip-version-check -r e2e/requirements.txt
        cp e2e/requirements.txt $stamp
    fi
fi
