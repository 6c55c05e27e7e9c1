# Two commands matter: `make run` starts the site with embedded defaults
# (SQLite in ./data), `make test` runs every test. Both install what they
# need (npm packages; Chromium from Debian for the browser tests).
SHELL := /bin/bash
GO ?= go
# -trimpath: what the Go tools build does not depend on the clone's
# folder, so a fresh clone (CI's, or a second checkout) reuses Go's build
# cache for every package it has not changed instead of compiling the
# whole module again, twice (plain and -race). Measured: the race test
# binaries of a fresh clone took 188 CPU-s to build without it, 78 with
# it; go vet 18 CPU-s, 2 with it (ADR 053, item 19).
export GOFLAGS += -trimpath

.PHONY: run dev test test-ts test-go test-e2e test-lighthouse bench bench-data lighthouse deps build clean

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

deps: node_modules/.installed

# The build is named in `site version`, /metrics and backups' manifests.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

build: deps
	$(GO) build -ldflags "-X main.version=$(VERSION) -X main.commit=$(COMMIT)" -o bin/site .

run: build
	./bin/site

# dev rebuilds the bundles when a file changes and swaps the runtime pool
# without a restart; build and render errors show in the page.
dev: deps
	APP_ENV=development $(GO) run .

# Every test: the Go tests run beside the browser tests (scripts/test.sh).
test: deps
	bash scripts/test.sh

# The TypeScript of the public pages, the islands and the admin app must
# type-check (esbuild strips types without checking them).
test-ts: deps
	npx tsc --noEmit -p .

# The race detector slows goja about tenfold, and the server,
# web/editor and editor packages render hundreds of pages (web/editor's
# round trip of every kind took 254 s under -race on an idle machine and
# ran out of its 10 minutes on a loaded one; editor took 82 s, 24 s
# without; app builds a render engine, 21 s under -race); they run without -race except for the tests that start
# goroutines of their own. Every other package runs under -race, with
# the SQLite driver (modernc.org/sqlite, C translated to Go) compiled
# without the detector's instrumentation: the detector still sees every
# access of this code and the driver's locks (package sync stays
# instrumented), while a query runs at its own speed (the analytics
# report's property test: 33 s under full -race, 5 s so). web/media
# decodes images in one goroutine (the PNG bomb and the poster refusals:
# 45 s under -race, 3 s without; the package 63 s against 4.5): it runs
# without -race, and its tests that upload or save from several
# goroutines at once run under it by name.
# scripts/test-go.sh: vet, the alert rules, then the tests in two lines
# side by side.
test-go: build
	GO=$(GO) bash scripts/test-go.sh

test-e2e: build
	bash scripts/e2e.sh

# Accessibility, best practices and SEO must be 100 (one run per page).
test-lighthouse: build
	bash scripts/lighthouse.sh --assert --runs=1 --parallel=2

bench: build
	bash scripts/bench.sh

# bench-data seeds 1,000, 10,000 and 100,000 leads with their analytics
# into fresh SQLite and PostgreSQL databases, starts the site on each and
# prints the median time of every admin answer that grows with the data
# (cmd/benchdata), and boots the site with 78, 500 and 2,000 city pages.
# BENCH_DATA_FLAGS narrows it, e.g. -sizes=1000 -db=sqlite -cities=78.
bench-data: build
	$(GO) run ./cmd/benchdata $(BENCH_DATA_FLAGS)

lighthouse: build
	bash scripts/lighthouse.sh --runs=3

clean:
	rm -rf bin .build data
