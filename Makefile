# Percolate — one binary with the web app inside.
#   make run    build everything and serve http://127.0.0.1:8080 on the embedded defaults
#   make test   every check CI runs: generated code, vet, Go tests, typecheck, lint, Vitest, e2e
#   make fuzz   the contract fuzzer with many rounds (FUZZ_ROUNDS=...), then each native fuzz
#               target for FUZZTIME
#   make faults the database restart under load (also in make test, once), FAULT_RUNS times
#   make audit  npm audit of the web app's runtime packages (needs the package registry)
#   make companion-eval  the companion's conversation benchmark (figures per half)
#   make companion-eval-model  the same with the configured model, rated by an LLM judge (never in CI)
#   make safety-eval   the crisis screen's recall and false-positive rate on the labelled set
#   make bench  the load harness: bench/results.md and bench/results.json (make bench-go: Go benchmarks)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
GO_LDFLAGS := -s -w -X main.version=$(VERSION)
BIN := bin/percolate
GENERATED := gen frontend/src/api/gen backend/internal/companion/safety/scorer.bin \
	backend/internal/encoder/table.bin backend/internal/encoder/testdata/tokens.golden \
	backend/internal/encoder/testdata/reference.bin
# Explicit, because ./... would also walk Go code shipped inside frontend/node_modules.
GO_PKGS := . ./backend/... ./db/... ./gen/... ./frontend

.PHONY: run build web go-build deps dist-placeholder generate check-generated vet test-go \
	typecheck lint lint-go test-web e2e test bench bench-browser bench-go fuzz audit safety-eval companion-eval companion-eval-model clean

## run: build the web app and the binary, then serve on the embedded defaults
run: build
	./$(BIN) serve

## build: the binary with the web app embedded, in bin/percolate
build: web go-build

go-build: dist-placeholder
	go build -trimpath -ldflags '$(GO_LDFLAGS)' -o $(BIN) ./backend/cmd/percolate

## deps: the front end's npm packages, exactly as locked
deps: frontend/node_modules/.package-lock.json

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

web: deps
	cd frontend && npm run build

# go:embed needs at least one file in frontend/dist; a real build replaces it.
dist-placeholder:
	@mkdir -p frontend/dist
	@[ -n "$$(ls -A frontend/dist)" ] || touch frontend/dist/.keep

## generate: regenerate gen/api and gen/apiclient (oapi-codegen), gen/limits (limitsgen), gen/db (sqlc), the crisis
## screen's scorer (trained on the tuning half and its corpus), the sentence encoder's table (USE-lite
## distilled by backend/internal/encoder/gen, with node) and frontend/src/api/gen (orval)
generate: deps
	go generate ./gen/api ./gen/apiclient ./gen/limits ./db ./backend/internal/companion/safety \
		./backend/internal/encoder
	cd frontend && npm run generate

## check-generated: fail when generated code differs from openapi.yaml, db/, the scorer's training data and the encoder's model
check-generated: generate
	@if [ -n "$$(git status --porcelain -- $(GENERATED))" ]; then \
		echo "Generated code is out of date. Run 'make generate' and commit the result:"; \
		git status --porcelain -- $(GENERATED); git --no-pager diff --stat -- $(GENERATED); exit 1; \
	fi

## vet: go vet and gofmt
vet: dist-placeholder
	go vet $(GO_PKGS)
	@out=$$(gofmt -l backend gen db *.go); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## test-go: Go tests with the race detector against a real PostgreSQL (TEST_DATABASE_URL, 127.0.0.1:5432, or a built-in cluster)
test-go: dist-placeholder
	go test -race -count=1 $(GO_PKGS)

typecheck: deps
	cd frontend && npm run typecheck

## lint: ESLint, openapi.yaml against Redocly's and Spectral's recommended rules (no warnings),
## and the Go scanners staticcheck and gosec (no findings; each silenced one says why where it is)
lint: deps lint-go
	cd frontend && npm run lint
	cd frontend && npm run lint:contract

# The Go scanners, pinned, installed into GOPATH/bin with `go install` when missing or of
# another version (as the billing tests do with stripe-mock). gosec reports medium and high
# findings (each silenced one carries `#nosec RULE -- reason` on its line).
GOBIN_DIR := $(shell go env GOPATH)/bin
STATICCHECK_VERSION := v0.8.2
GOSEC_VERSION := v2.30.0
STATICCHECK := $(GOBIN_DIR)/staticcheck
GOSEC := $(GOBIN_DIR)/gosec

lint-go: dist-placeholder
	@go version -m $(STATICCHECK) 2>/dev/null | grep -q 'honnef.co/go/tools[[:space:]]*$(STATICCHECK_VERSION)[[:space:]]' || \
		go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	@go version -m $(GOSEC) 2>/dev/null | grep -q 'github.com/securego/gosec/v2[[:space:]]*$(GOSEC_VERSION)[[:space:]]' || \
		go install github.com/securego/gosec/v2/cmd/gosec@$(GOSEC_VERSION)
	$(STATICCHECK) $(GO_PKGS)
	$(GOSEC) -quiet -exclude-generated -severity medium \
		. ./backend/... ./db/... ./gen/...

## audit: npm audit of the packages the web app ships (dev tools left out); fails on any
## advisory above low. It asks the registry's advisory service, so it runs in CI, not in lint.
audit: deps
	cd frontend && npm audit --omit=dev --audit-level=moderate

## test-web: Vitest component tests
test-web: deps
	cd frontend && npm test

## e2e: Playwright in Debian's Chromium against the real binary on a fresh built-in database
e2e: build
	cd frontend && npm run e2e

## test: everything CI checks
test: check-generated vet test-go typecheck lint test-web e2e

## bench: the load harness (backend/cmd/percolate-bench): bin/percolate on a new database of the
## PostgreSQL at BENCH_ADMIN_URL, driven from loopback for BENCH_PHASE per phase; writes
## bench/results.md and bench/results.json. Never part of make test (a short smoke run is).
BENCH_ADMIN_URL ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
BENCH_PHASE ?= 5s
bench: build
	go run ./backend/cmd/percolate-bench -bin $(BIN) -admin '$(BENCH_ADMIN_URL)' -phase $(BENCH_PHASE) -out bench
	$(MAKE) bench-browser

## bench-browser: the browser figures (frontend/bench/browser.bench.ts, Playwright in Debian's Chromium,
## its own server on BENCH_BROWSER_PORT): bench/browser.json and the Browser section of bench/results.md
BENCH_BROWSER_PORT ?= 18180
bench-browser: build
	cd frontend && BENCH_BROWSER_PORT=$(BENCH_BROWSER_PORT) npx playwright test -c playwright.bench.config.ts

## bench-go: Go benchmarks (report medians and ratios, not single times)
bench-go: dist-placeholder
	go test -run '^$$' -bench . -benchmem -count 6 $(GO_PKGS)

## fuzz: the contract fuzzer (every operation of openapi.yaml with hostile values, as anonymous,
## another user and the owner) with FUZZ_ROUNDS random rounds; make test runs a short one
FUZZ_ROUNDS ?= 5000
# FUZZTIME: how long each native fuzz target runs (go test -fuzztime). Their seed corpora,
# in each package's testdata/fuzz, run with every plain `go test`.
FUZZTIME ?= 30s
NATIVE_FUZZ := \
	FuzzParseAccess:./backend/internal/auth \
	FuzzReplyEvents:./backend/internal/httpapi \
	FuzzCheckDecoding:./backend/internal/httpapi \
	FuzzCleanForSpeech:./backend/internal/voice \
	FuzzScreen:./backend/internal/companion/safety \
	FuzzOfflineReply:./backend/internal/companion \
	FuzzTokenize:./backend/internal/encoder
fuzz: dist-placeholder
	PERCOLATE_FUZZ_ROUNDS=$(FUZZ_ROUNDS) go test -race -count=1 -v -timeout 60m -run '^(TestContractFuzz|TestObjectLevelAccess)$$' ./backend/internal/httpapi/
	@for t in $(NATIVE_FUZZ); do \
		echo "== $${t%%:*} ($(FUZZTIME))"; \
		go test -run '^$$' -fuzz "^$${t%%:*}$$" -fuzztime $(FUZZTIME) "$${t#*:}" || exit 1; \
	done

## faults: PostgreSQL stopped and restarted under load against the real binary, FAULT_RUNS
## times in a row, with its figures (make test runs it once)
FAULT_RUNS ?= 5
faults: dist-placeholder
	go test -race -count=$(FAULT_RUNS) -v -run '^TestPostgresRestartUnderLoad$$' ./backend/cmd/percolate/

## safety-eval: the crisis screen on the labelled set, per category, on the tuning half (data/full)
## and the held-back half (data/fresh, written blind; counts only); then the everyday set's ordinary
## messages and whole conversations through the send path and the offline engine (data/everyday). SAFETY_EVAL_FLAGS=-tuning measures the tuning halves only (for work in progress); -v lists the tuning
## half's misses; SAFETY_EVAL_FLAGS=-gate fails below 98% held-back recall or above 3% false positives.
SAFETY_EVAL_FLAGS ?=
safety-eval:
	go run ./backend/cmd/safety-eval $(SAFETY_EVAL_FLAGS)

## companion-eval: the companion's conversation benchmark (issue 34): the blind-written conversations
## through the send path and the offline engine, figures per half (held-back: figures only).
## COMPANION_EVAL_FLAGS=-tuning measures the tuning half only (for work in progress);
## -baseline keywords ablates the sentence encoder; -v prints the tuning half's replies.
COMPANION_EVAL_FLAGS ?=
companion-eval:
	go run ./backend/cmd/companion-eval $(COMPANION_EVAL_FLAGS)

## companion-eval-model: the same scripts through the model the app's PERCOLATE_LLM_* variables
## configure (the app's system prompt and the send path's safety decisions), each reply rated by an
## LLM judge against companioneval/rubric/rubric.md (JUDGE_MODEL: the judge's model on the same
## endpoint; default the app's). Off by default, never in make test: it calls the model.
JUDGE_MODEL ?=
companion-eval-model:
	go run ./backend/cmd/companion-eval -model -judge $(if $(JUDGE_MODEL),-judge-model $(JUDGE_MODEL)) $(COMPANION_EVAL_FLAGS)

clean:
	rm -rf bin frontend/dist
