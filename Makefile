# Tapedeck: make run · make test · make bench
# Every target installs what it needs (apt packages, a Python venv under .venv) on first use.

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
SWIFT ?= swift
APT_PACKAGES := libedit-dev libcurl4-openssl-dev pkg-config tmux curl
TEST_APT_PACKAGES := chromium chromium-driver
BENCH_APT_PACKAGES := hey hyperfine nginx-light jq time wrk
PIP_PACKAGES := httpbin gunicorn vcrpy requests httpie haralyzer mitmproxy cassetter selenium cryptography websockets
DEMO_CASSETTE := Sessions/tour.cassette.json
# Every release build (run, bench, fuzz) uses the same flags: a build with other flags makes
# the next one rebuild every package. The Swift runtime is linked statically: it starts in
# about two thirds of the time.
RELEASE_FLAGS := -c release --static-swift-stdlib

.PHONY: run test bench fuzz build release deps venv clean

## run: install what is missing, build release, open the REPL replaying the bundled demo cassette
run: deps release
	@if [ -f $(DEMO_CASSETTE) ]; then \
	  exec .build/release/tapedeck repl --replay $(DEMO_CASSETTE); \
	else \
	  exec .build/release/tapedeck repl; \
	fi

## test: install what is missing, start httpbin on a free loopback port, run every test
test: deps venv
	@.ci/ensure-apt $(TEST_APT_PACKAGES)
	@.ci/with-httpbin $(PY) bash .ci/swift-test

## bench: measure against curl, HTTPie and vcrpy; results in Benchmarks/RESULTS.md
bench: deps venv release
	@.ci/ensure-apt $(BENCH_APT_PACKAGES)
	@bash Benchmarks/run.sh

## fuzz: a million seeded inputs per target (parser, jsonpath, template, json, yaml, har);
## fails on a crash, an input over 1 s, a wrong answer, or peak memory over 1 GB. FUZZ_INPUTS=N to change.
FUZZ_INPUTS ?= 1000000
fuzz: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product tapedeck-fuzz
	.build/release/tapedeck-fuzz --inputs $(FUZZ_INPUTS) --artifacts .build/fuzz

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product tapedeck

deps:
	@.ci/ensure-apt $(APT_PACKAGES)

venv: $(VENV)/.installed

# Made again when this file changes (a new PyPI peer), so an existing venv gets it too.
$(VENV)/.installed: Makefile
	@python3 -m venv $(VENV)
	@$(VENV)/bin/pip install --quiet --disable-pip-version-check $(PIP_PACKAGES)
	@touch $@

clean:
	rm -rf .build $(VENV)
