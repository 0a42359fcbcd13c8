# RefreshKit: `make run` starts the demo, `make test` runs every test. Both install what they need.
PORT ?= 8080
PROCESSES ?= 2
HOST ?= 0.0.0.0
PRESET ?= ios
LOG_LEVEL ?= info
# the folder of your own control modules, served at /controls/ (docs/CONTROLS.md); CONTROLS= serves none
CONTROLS ?= examples/controls
# the feed behind the list (docs/FEEDS.md): sqlite:PATH (created and filled on first start), jsonfeed:URL, simulated
FEED ?= sqlite:.refreshkit/demo.sqlite
VENV := .venv
RELEASE_BIN := .build/release/refreshkit

# `make cluster PROCESSES=N PORT=P`: N processes behind HAProxy on PORT, sessions shared in Redis, all run by
# supervisord, which starts again a process that exits (docs/SCALING.md).
.PHONY: browser-long cluster cluster-deps cluster-test chaos run run-gitlog run-hummingbird hummingbird-build hummingbird-test e2e-hummingbird test test-fast test-prepare debug-build test-build e2e-test e2e-server e2e-timing e2e-cluster e2e-browser build release deps test-deps lint unit-test page-test server-test browser-test screenshots format clean bench bench-compare

# LINK=wifi (or lan, wifi-powersave, congested): pages reach the server through `refreshkit link` on PORT, a
# simulated network (docs/LINK.md); the server itself listens on a loopback port of its own.
# TLS=1: https and wss, with the CA and certificate of `refreshkit cert` in .refreshkit/ (docs/HTTPS.md); LINK and
# TLS=1 do not go together.
TLS_FLAGS = $(if $(TLS),--tls-cert .refreshkit/server.pem --tls-key .refreshkit/server-key.pem --tls-ca .refreshkit/ca.pem)
run: release
	@mkdir -p .refreshkit
ifeq ($(LINK),)
	$(if $(TLS),$(RELEASE_BIN) cert --dir .refreshkit)
	$(RELEASE_BIN) serve --host $(HOST) --port $(PORT) --web-root web --preset $(PRESET) --log-level $(LOG_LEVEL) $(if $(CONTROLS),--controls $(CONTROLS)) --feed $(FEED) $(TLS_FLAGS)
else
	scripts/run-with-link.sh $(RELEASE_BIN) $(HOST) $(PORT) $(LINK) --web-root web --preset $(PRESET) --log-level $(LOG_LEVEL) $(if $(CONTROLS),--controls $(CONTROLS)) --feed $(FEED)
endif

# examples/gitlog: the checkout's own `git log` served as the list by the library (docs/EMBEDDING.md)
run-gitlog: deps
	swift build -c release --product refreshkit-gitlog
	.build/release/refreshkit-gitlog --host $(HOST) --port $(PORT) --web-root web --repo .

# examples/hummingbird-notes: the same list in a Hummingbird 2 app with a route of its own, POST /notes
# (docs/EMBEDDING.md, "In a Hummingbird app"); SwiftNIO and Hummingbird build on its first run (a few minutes)
# TLS=1: built with the TLS trait (NIOSSL) in a build folder of its own, serving `refreshkit cert`'s certificate.
run-hummingbird: deps
ifeq ($(TLS),)
	swift build -c release --product refreshkit-hummingbird
	.build/release/refreshkit-hummingbird --host $(HOST) --port $(PORT) --web-root web
else
	swift build -c release --product refreshkit && $(RELEASE_BIN) cert --dir .refreshkit
	swift build -c release --traits TLS --scratch-path .build-tls --product refreshkit-hummingbird
	.build-tls/release/refreshkit-hummingbird --host $(HOST) --port $(PORT) --web-root web \
		--tls-cert .refreshkit/server.pem --tls-key .refreshkit/server-key.pem
endif

deps:
	@scripts/ensure-deps.sh runtime

cluster-deps:
	@scripts/ensure-deps.sh cluster

cluster: release cluster-deps
	$(if $(TLS),$(RELEASE_BIN) cert --dir .refreshkit)
	scripts/cluster.sh $(if $(TLS),--tls-cert .refreshkit/server.pem --tls-key .refreshkit/server-key.pem) \
		$(RELEASE_BIN) $(PROCESSES) $(PORT) --web-root web --preset $(PRESET) --log-level $(LOG_LEVEL)

# `make chaos`: the chaos run (docs/SCALING.md): `make cluster`'s supervisord configuration with 3 processes, 50
# sessions of two devices dragging through HAProxy, and for CHAOS_SECONDS (300) random SIGKILLs and SIGSTOPs of
# servers, a live server's health check made to fail, and Redis stopped for a few seconds; prints sessions lost,
# inputs lost, epochs refused and the moments two processes served one session. CHAOS_ARGS="--seed 7 --json F".
CHAOS_SECONDS ?= 300
chaos: release cluster-deps test-deps
	$(VENV)/bin/python bench/chaos.py --bin $(RELEASE_BIN) --seconds $(CHAOS_SECONDS) $(CHAOS_ARGS)

test-deps:
	@scripts/ensure-deps.sh test

build: deps
	swift build $(DEBUG_FLAGS)

release: deps
	swift build -c release --product refreshkit

# Everything: the lint, engine and wire (Swift Testing), page logic (node), then the real server over a real
# WebSocket, real headless Chromium driving the real page, and several servers behind HAProxy. The end-to-end
# suites run on the debug build that `swift test` makes (one build for every suite; TEST_CONFIG=release runs
# them on a release build instead), each spread over pytest-xdist processes (E2E_SERVER_WORKERS, E2E_CLUSTER_WORKERS,
# E2E_WORKERS below): the suites that mostly wait (a refresh's latency, a take-over) get more of them.
#
# The debug build starts first, and the lint, the tools the tests need and the page's tests run beside it: on a fresh
# clone they are a minute of downloads and one-core tools, which left the other core idle. The build's output comes,
# whole, when it ends. The suites then run in a second make (BUILT=1), which does not ask SwiftPM again for what is
# built: four builds with nothing to do take it seconds.
test: deps
	@$(MAKE) --no-print-directory -j2 --output-sync=target debug-build test-prepare
	@$(MAKE) --no-print-directory BUILT=1 unit-and-server-test e2e-test

# One after the other: the lint and the tests' tools share the Python venv.
test-prepare:
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory test-deps
	@$(MAKE) --no-print-directory page-test

# What a target needs built and installed, except in `make test`'s second make.
BUILT ?=
needs = $(if $(BUILT),,$(1))

# The inner loop: the lint, the Swift tests, the page logic and the server's e2e suites, no browser, no cluster.
test-fast: lint test-deps page-test unit-and-server-test

TEST_CONFIG ?= debug
TEST_BIN := $(abspath .build/$(TEST_CONFIG)/refreshkit)
E2E_WORKERS ?= 3
E2E := REFRESHKIT_BIN=$(TEST_BIN) $(VENV)/bin/python -m pytest -q -n $(E2E_WORKERS)
# The server's suites wait most of their time (a CPU at a third of two cores with 3 workers): twice the workers
# take about two thirds of the time. The browser suite keeps both cores busy and keeps E2E_WORKERS.
E2E_SERVER_WORKERS ?= 6
# The cluster's tests wait too (for a SIGKILL's take-over, a lease, a restart: 36 CPU-s in 56 s with 3 workers).
E2E_CLUSTER_WORKERS ?= 5

# The lint (scripts/lint/lint.sh): swift format --strict, ruff (pyproject.toml), the JS modules
# (scripts/lint/check-js.mjs). Fails on a badly formatted file; `make format` fixes the Swift layout.
lint:
	@scripts/ensure-deps.sh lint
	scripts/lint/lint.sh

# What the tests run, in debug: the test bundle `swift test` runs, and with TEST_CONFIG=debug the programs the e2e
# suites run (refreshkit; refreshkit-load, which e2e/server/test_load_turn_by_turn.py runs; refreshkit-gitlog, the
# example the gitlog tests serve). Not the bench and the fuzz target (nor the packages only they need): `make bench`
# and `make fuzz` build those.
#
# Without debug information (`-gnone`): the tests never read it, and writing it is a large part of a fresh debug
# build (README.md, "The two commands"). DEBUG_INFO=1 keeps it, for a debugger; every debug build of the Makefile
# takes the same flags, so that one never rebuilds what another built.
#
# One compiler job per module (`-driver-batch-count 1`) rather than one per core: each job of a module parses all
# its files and type-checks the declarations it meets, so on two cores a module's second job did much of that
# again. The modules themselves still build side by side where the dependency graph lets them.
ONE_JOB_PER_MODULE := -Xswiftc -driver-batch-count -Xswiftc 1
DEBUG_INFO ?=
DEBUG_FLAGS := $(if $(DEBUG_INFO),,-Xswiftc -gnone) $(ONE_JOB_PER_MODULE)
debug-build: deps
	swift build $(DEBUG_FLAGS) --product RefreshKitPackageTests
	swift build $(DEBUG_FLAGS) --product refreshkit
	swift build $(DEBUG_FLAGS) --product refreshkit-load
	swift build $(DEBUG_FLAGS) --product refreshkit-gitlog

ifeq ($(TEST_CONFIG),debug)
test-build: $(call needs,debug-build)
else
test-build: deps
	swift build -c $(TEST_CONFIG) --product refreshkit
	swift build -c $(TEST_CONFIG) --product refreshkit-load
	swift build -c $(TEST_CONFIG) --product refreshkit-gitlog
endif

unit-test: debug-build
	swift test --skip-build

# The Swift tests (both cores for ~20 s) beside the server's e2e suites (which mostly wait): each takes the cycles
# the other leaves. The Swift tests write to .build/unit-test.log, shown (its end, or its failures) once both ended.
# The test bundle is run as `swift test --skip-build` runs it, without asking SwiftPM again.
TEST_BUNDLE := .build/debug/RefreshKitPackageTests.xctest --testing-library swift-testing
unit-and-server-test: $(call needs,debug-build test-build test-deps)
	@echo "$(TEST_BUNDLE), beside the server's suites (its output: .build/unit-test.log)"
	@( $(TEST_BUNDLE) > .build/unit-test.log 2>&1; echo $$? > .build/unit-test.rc ) & \
	$(MAKE) --no-print-directory e2e-server; server=$$?; wait; unit=$$(cat .build/unit-test.rc); \
	if [ "$$unit" = 0 ]; then tail -n 2 .build/unit-test.log; else grep -E "✘|error:" .build/unit-test.log | head -80; \
		echo "the Swift tests failed (exit $$unit): .build/unit-test.log"; fi; [ "$$server" = 0 ] && [ "$$unit" = 0 ]
	@$(MAKE) --no-print-directory e2e-timing

page-test:
	node --test web/test/

# The cluster's and the browser's suites, one after the other: two suites side by side upset the tests bounded in
# time (a SIGTERM's 5 s, a take-over's, the generator's slices), one in a few runs on a fresh clone. Separate pytest
# runs: each folder's tests import helpers from their own conftest.py, which one run would load under one name.
e2e-test: $(call needs,test-build test-deps)
	@$(MAKE) --no-print-directory e2e-cluster
	@$(MAKE) --no-print-directory e2e-browser

e2e-server:
	$(E2E) -n $(E2E_SERVER_WORKERS) e2e/server e2e/jsonfeed e2e/feeds --ignore=e2e/server/test_load_turn_by_turn.py

# The load generator's slices, timed to a few ms (e2e/server/test_load_turn_by_turn.py): alone, not beside a suite.
e2e-timing:
	REFRESHKIT_BIN=$(TEST_BIN) $(VENV)/bin/python -m pytest -q e2e/server/test_load_turn_by_turn.py

# Several processes behind HAProxy sharing Redis: routing, take-over after SIGKILL and SIGTERM (docs/SCALING.md).
e2e-cluster:
	$(E2E) -n $(E2E_CLUSTER_WORKERS) e2e/cluster

# The flicks through ten thousand rows (~50 s of a worker) are `make check`'s (browser-long): `make test` keeps the
# flings through the rows of a SQLite feed that check the same drawing (e2e/browser/test_rows_anchor.py).
LONG_BROWSER_TESTS := e2e/browser/test_rows_fling.py::test_flicks_through_ten_thousand_rows_draw_them_without_gaps_or_overlaps
e2e-browser:
	$(E2E) e2e/browser --ignore=e2e/browser/test_hummingbird_example.py $(addprefix --deselect ,$(LONG_BROWSER_TESTS))

browser-long: test-build test-deps
	$(E2E) -n 1 $(LONG_BROWSER_TESTS)

# Both transports through the same wire tests (e2e/transports), and the Hummingbird example in Chromium: in `make
# check`, not `make test`. SwiftNIO and Hummingbird from source are ~190 CPU-s of a debug build, a sixth of a fresh
# clone's `make test` (README.md, "The two commands"); the libwebsockets transport's wire is `make test`'s own suites.
HUMMINGBIRD_BUILD := swift build -c $(TEST_CONFIG) $(if $(filter debug,$(TEST_CONFIG)),$(DEBUG_FLAGS)) \
	--product refreshkit-hummingbird
HUMMINGBIRD_BIN := $(abspath .build/$(TEST_CONFIG)/refreshkit-hummingbird)
e2e-hummingbird:
	REFRESHKIT_HUMMINGBIRD_BIN=$(HUMMINGBIRD_BIN) $(E2E) e2e/transports --ignore=e2e/transports/test_hummingbird_tls.py
	REFRESHKIT_HUMMINGBIRD_BIN=$(HUMMINGBIRD_BIN) $(E2E) e2e/browser/test_hummingbird_example.py

hummingbird-build: deps
	$(HUMMINGBIRD_BUILD)

hummingbird-test: test-build test-deps hummingbird-build
	@$(MAKE) --no-print-directory e2e-hummingbird

server-test: test-build test-deps
	@$(MAKE) --no-print-directory e2e-server
	@$(MAKE) --no-print-directory e2e-timing

cluster-test: test-build test-deps
	@$(MAKE) --no-print-directory e2e-cluster

browser-test: test-build test-deps
	@$(MAKE) --no-print-directory e2e-browser

# The README's pictures (docs/images) are screenshots the browser tests take; an ordinary run leaves them be.
screenshots: release test-deps
	REFRESHKIT_PUBLISH_IMAGES=1 REFRESHKIT_BIN=$(abspath $(RELEASE_BIN)) $(VENV)/bin/python -m pytest -q \
		e2e/browser/test_page.py e2e/browser/test_panel.py e2e/browser/test_share_qr.py e2e/browser/test_failure.py \
		e2e/browser/test_compare.py

format:
	swift format --in-place --recursive Sources Tests Package.swift $$(find examples -name .build -prune -o -name "*.swift" -print)

clean:
	rm -rf .build $(VENV)

# Figures and targets (docs/PERFORMANCE.md): the engine on one core, the server under N dragging sessions
# against a bare lws echo server (the floor), the whole server's instructions under callgrind, the idle cost, the
# page in Chromium, its lag beside a bare page's, the anchoring error during a fling, and the server against the
# echo over TLS (docs/HTTPS.md, "Measured"). Writes bench/results.json.
# The targets (PASS/FAIL, the load's in every round; the anchoring error within 0.5 px) are checked last:
# `make bench` fails when one did not hold, after every figure is written.
# Then the memory per connected session, the server's beside lws-echo's (2 000 sessions, hello + a five-message
# drag; fails when the server's is over twice the echo's). Writes bench/memory.json; MEMORY_BENCH_ARGS="--soak-seconds
# 600" adds the ten-minute idle soak (see .venv/bin/python bench/memory_bench.py --help). Then the same over TLS
# (1 000 sessions; fails over 1.5×), into bench/memory_tls.json.
# Then both transports under the same load, `refreshkit serve` and the Hummingbird example (docs/PERFORMANCE.md,
# "Transports"): CPU per input, p99, RSS per session at 100 and 1 000 sessions. Writes bench/transports.json.
# Then the cluster's figures (docs/SCALING.md, about 70 s): CPU per input of the servers, Redis and HAProxy,
# and SIGKILL to the pages drawing again. Writes bench/cluster.json; SKIP_CLUSTER=1 leaves it out.
# Options: make bench BENCH_ARGS="--levels 100,1000 --duration 5" (see .build/release/refreshkit-bench --help),
# CLUSTER_BENCH_ARGS="--rounds 3 --skip-kill" (see .venv/bin/python bench/cluster_bench.py --help).
SKIP_CLUSTER ?=
bench: deps test-deps
	swift build -c release
	@scripts/ensure-deps.sh bench
	$(VENV)/bin/python -m pytest -q -p no:cacheprovider bench/test_bench_targets.py
	ulimit -n 20000 2>/dev/null || true; .build/release/refreshkit-bench --out bench/results.json $(BENCH_ARGS) || [ $$? -eq 3 ]
	ulimit -n 20000 2>/dev/null || true; $(VENV)/bin/python bench/memory_bench.py --check --out bench/memory.json $(MEMORY_BENCH_ARGS)
	ulimit -n 20000 2>/dev/null || true; $(VENV)/bin/python bench/memory_bench.py --check --tls --sessions 1000 --large 0 --out bench/memory_tls.json
	$(VENV)/bin/python bench/feed_frames_bench.py --out bench/feed_frames.json
	swift build -c release --product refreshkit-hummingbird
	ulimit -n 20000 2>/dev/null || true; $(VENV)/bin/python bench/transports_bench.py --out bench/transports.json $(TRANSPORTS_BENCH_ARGS)
ifeq ($(SKIP_CLUSTER),)
	@scripts/ensure-deps.sh cluster
	$(VENV)/bin/python bench/cluster_bench.py --out bench/cluster.json $(CLUSTER_BENCH_ARGS)
endif
	$(VENV)/bin/python scripts/figures.py --write
	.build/release/refreshkit-bench --check-targets bench/results.json

# The attacks of a hostile client against a release build, each from another host (a network namespace: needs root)
# while a legitimate client works from another address: what each did to the server, and what the client saw
# (docs/HARDENING.md, "The abuse bench"). Writes bench/abuse.json; fails when a target does not hold.
abuse: release test-deps
	$(VENV)/bin/python bench/abuse_bench.py --check --bin $(abspath $(RELEASE_BIN)) $(ABUSE_ARGS)

# Before/after in the same hour (docs/PERFORMANCE.md, "Before and after"): BASE's refreshkit built once into
# .build-compare/, then the bench's server stage against it and this tree's in turn. LEVELS, ROUNDS, RUNS and
# INSTRUCTIONS=1 as bench/compare.sh says.
bench-compare: deps test-deps
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=<revision>"; exit 2; }
	bench/compare.sh $(BASE)

# Hardening evidence (docs/HARDENING.md), minutes rather than seconds, so not part of `make test`: Autobahn
# conformance (docs/AUTOBAHN.md), a bounded soak with flat memory, the server tests against AddressSanitizer
# and ThreadSanitizer builds, the libFuzzer target for the decoder and the session, and the Hummingbird example
# over TLS.
# Options: make check SOAK_ARGS="--clients 50 --seconds 30" FUZZ_RUNS=1000000
# The soak checks for leaks, so it runs with input-trace recording off: traces grow by design, up to
# TraceLimits per session (docs/HARDENING.md, "Gaps"); SOAK_ARGS="--clients 200 --seconds 120" measures that.
SOAK_ARGS ?= --clients 200 --seconds 120 --server-arg=--trace-limit=0
FUZZ_RUNS ?= 1000000
# Not the load generator's timed slices (test_load_turn_by_turn.py): they measure the generator, in `make test`.
SANITIZER_TESTS ?= e2e/server --ignore=e2e/server/test_load_turn_by_turn.py
# The server's suites mostly wait for states, against a sanitized server more still (alone, e2e/server took over
# 9 minutes under ASan): spread over pytest-xdist workers as in `make test`.
SANITIZER_WORKERS ?= 3
# A sanitizer brings its own allocator: its builds link no jemalloc (Package.swift, docs/HARDENING.md "Sanitizers").
SANITIZER_ENV = REFRESHKIT_SYSTEM_ALLOCATOR=1

.PHONY: check autobahn soak asan tsan fuzz docs abuse hummingbird-tls hummingbird-tls-build

# The DocC documentation of every library product, each warning an error (scripts/docs.sh; docs/EMBEDDING.md)
docs: deps
	scripts/docs.sh

check: autobahn soak asan tsan fuzz hummingbird-test hummingbird-tls browser-long

# The Hummingbird example over TLS (docs/HTTPS.md, "In a Hummingbird app"): built with the package's TLS trait in a
# folder of its own, since NIOSSL compiles BoringSSL (minutes of a core: in `make check`, not `make test`).
hummingbird-tls-build: deps
	swift build $(DEBUG_FLAGS) --traits TLS --scratch-path .build-tls --product refreshkit-hummingbird

hummingbird-tls: test-build test-deps hummingbird-build hummingbird-tls-build
	REFRESHKIT_HUMMINGBIRD_BIN=$(HUMMINGBIRD_BIN) \
		REFRESHKIT_HUMMINGBIRD_TLS_BIN=$(abspath .build-tls/debug/refreshkit-hummingbird) \
		$(E2E) e2e/transports/test_hummingbird_tls.py

autobahn: release test-deps
	REFRESHKIT_BIN=$(abspath $(RELEASE_BIN)) scripts/autobahn.sh

soak: release test-deps
	REFRESHKIT_BIN=$(abspath $(RELEASE_BIN)) $(VENV)/bin/python scripts/soak.py $(SOAK_ARGS)

# The Swift suites that drive sockets, threads and the host; the test bundle is built and run as `swift test` does,
# but only its own closure: `swift test` builds every product, the Hummingbird example's SwiftNIO too.
SANITIZER_SUITES := RefreshServerTests|RefreshWireTests|RefreshSessionsTests
asan: deps test-deps
	$(SANITIZER_ENV) swift build -c debug $(ONE_JOB_PER_MODULE) --sanitize=address --scratch-path .build-asan --product refreshkit
	$(SANITIZER_ENV) swift build -c debug $(ONE_JOB_PER_MODULE) --sanitize=address --scratch-path .build-asan --product refreshkit-gitlog
	$(SANITIZER_ENV) swift build -c debug $(ONE_JOB_PER_MODULE) --sanitize=address --scratch-path .build-asan --product RefreshKitPackageTests
	$(SANITIZER_ENV) LSAN_OPTIONS=suppressions=$(abspath scripts/sanitizers/lsan.supp) \
		.build-asan/debug/RefreshKitPackageTests.xctest --testing-library swift-testing --filter '$(SANITIZER_SUITES)'
	REFRESHKIT_SANITIZER=address ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		LSAN_OPTIONS=suppressions=$(abspath scripts/sanitizers/lsan.supp) \
		REFRESHKIT_BIN=$(abspath .build-asan/debug/refreshkit) $(VENV)/bin/python -m pytest -q -n $(SANITIZER_WORKERS) $(SANITIZER_TESTS)
	REFRESHKIT_SANITIZER=address ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		LSAN_OPTIONS=suppressions=$(abspath scripts/sanitizers/lsan.supp) \
		REFRESHKIT_BIN=$(abspath .build-asan/debug/refreshkit) $(VENV)/bin/python -m pytest -q -n $(SANITIZER_WORKERS) e2e/cluster

tsan: deps test-deps
	$(SANITIZER_ENV) swift build -c debug $(ONE_JOB_PER_MODULE) --sanitize=thread --scratch-path .build-tsan --product refreshkit
	$(SANITIZER_ENV) swift build -c debug $(ONE_JOB_PER_MODULE) --sanitize=thread --scratch-path .build-tsan --product refreshkit-gitlog
	$(SANITIZER_ENV) swift build -c debug $(ONE_JOB_PER_MODULE) --sanitize=thread --scratch-path .build-tsan --product RefreshKitPackageTests
	$(SANITIZER_ENV) .build-tsan/debug/RefreshKitPackageTests.xctest --testing-library swift-testing \
		--filter '$(SANITIZER_SUITES)'
	REFRESHKIT_SANITIZER=thread TSAN_OPTIONS=halt_on_error=1 REFRESHKIT_BIN=$(abspath .build-tsan/debug/refreshkit) \
		$(VENV)/bin/python -m pytest -q -n $(SANITIZER_WORKERS) $(SANITIZER_TESTS)
	REFRESHKIT_SANITIZER=thread TSAN_OPTIONS=halt_on_error=1 REFRESHKIT_BIN=$(abspath .build-tsan/debug/refreshkit) \
		$(VENV)/bin/python -m pytest -q -n $(SANITIZER_WORKERS) e2e/cluster

fuzz: deps
	scripts/fuzz.sh $(FUZZ_RUNS)
