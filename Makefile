# kates — see README.md. `make help` lists the targets.
SHELL := /usr/bin/env bash
GO ?= go

.DEFAULT_GOAL := help

.PHONY: help
help: ## List the targets.
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  \033[36m%-14s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: ## Build the library, the kates CLI (also as kubectl-kates, a kubectl plugin) and the examples.
	$(GO) build ./...
	$(GO) build -o .kates/bin/ ./cmd/...
	cp .kates/bin/kates .kates/bin/kubectl-kates

.PHONY: tools
tools: ## Build (or find cached) the local cluster's binaries (first run 12.5-15 min on 2 cores).
	$(GO) run ./cmd/kates-testenv build

.PHONY: test
test: lint ## go vet and gofmt (lint), then go test -race ./... against one local cluster.
	hack/test.sh

.PHONY: soak
soak: ## The long reliability burst (20,000 changes, slow consumer) against one local cluster.
	KATES_SOAK=1 hack/test.sh -run 'TestBurstSoak' -v

.PHONY: fuzz
fuzz: ## Fuzz ParseManifests, Validator.Validate and kstatus.Compute for 2 minutes each.
	KATES_TEST_KUBECONFIG=$${KATES_TEST_KUBECONFIG:-$(CURDIR)/.kates/kubeconfig} $(GO) test -run '^$$' -fuzz=FuzzParseManifests -fuzztime=2m ./kates/
	KATES_TEST_KUBECONFIG=$${KATES_TEST_KUBECONFIG:-$(CURDIR)/.kates/kubeconfig} $(GO) test -run '^$$' -fuzz=FuzzValidate -fuzztime=2m -parallel=1 ./kates/
	$(GO) test -run '^$$' -fuzz=FuzzCompute -fuzztime=2m ./kstatus/

.PHONY: cluster-up
cluster-up: ## Start the local cluster in the background; kubeconfig at .kates/kubeconfig.
	hack/cluster-up.sh

.PHONY: cluster-down
cluster-down: ## Stop the local cluster started by cluster-up.
	hack/cluster-down.sh

.PHONY: demo
demo: cluster-up ## Start the local cluster and show the library at work on testdata/demo.
	hack/demo.sh

.PHONY: bench
bench: ## Benchmarks against client-go, controller-runtime and the old kates (~20 min, +15 for fixtures the first time); writes bench/README.md.
	hack/bench.sh

.PHONY: fmt
fmt: ## gofmt every Go file.
	gofmt -w $$(git ls-files '*.go')

.PHONY: lint
lint: ## go vet and a gofmt check.
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
