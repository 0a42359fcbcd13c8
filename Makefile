# RefreshKit: `make run` starts the demo, `make test` runs every test. Both install what they need.
PORT ?= 8080
HOST ?= 0.0.0.0
PRESET ?= ios
LOG_LEVEL ?= info
VENV := .venv
RELEASE_BIN := .build/release/refreshkit

.PHONY: run test build release deps test-deps unit-test page-test server-test browser-test format clean

run: release
	$(RELEASE_BIN) serve --host $(HOST) --port $(PORT) --web-root web --preset $(PRESET) --log-level $(LOG_LEVEL)

deps:
	@scripts/ensure-deps.sh runtime

test-deps:
	@scripts/ensure-deps.sh test

build: deps
	swift build

release: deps
	swift build -c release --product refreshkit

# Everything, in order of speed: engine and wire (Swift Testing), page logic (node), then the real
# server over a real WebSocket, then real headless Chromium driving the real page.
test: test-deps unit-test page-test release server-test browser-test

unit-test: deps
	swift test

page-test:
	node --test web/test/

server-test: release test-deps
	REFRESHKIT_BIN=$(abspath $(RELEASE_BIN)) $(VENV)/bin/python -m pytest -q tests/server

browser-test: release test-deps
	REFRESHKIT_BIN=$(abspath $(RELEASE_BIN)) $(VENV)/bin/python -m pytest -q tests/browser

format:
	swift format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build $(VENV)
