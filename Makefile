# Thin wrapper over CMake. `make demo` and `make test` set up what is missing first.
BUILD ?= build
DEBUG_BUILD ?= build-debug
SF ?= 0.1
JOBS ?= $(shell nproc)
DEMO_DATA ?= $(BUILD)/data/tpch-sf$(SF)-skew
# libFuzzer targets: a separate clang++ build tree with ASan + UBSan (tests/fuzz/README.md).
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 300
RANDOM_QUERIES ?= 5000
# ccache, when installed, for both build trees (a fresh fuzz tree otherwise takes ~15 minutes on 2 cores).
CCACHE := $(shell command -v ccache 2>/dev/null)
LAUNCHER := $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))

.PHONY: all deps configure build test demo bench bench-quick debug clean format fuzz-build fuzz reexec-fuzz

all: build

deps:
	@bash scripts/install-deps.sh

configure:
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(LAUNCHER) -DHINDSIGHT_FUZZ_BUILD_DIR=$(abspath $(FUZZ_BUILD)) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

fuzz-build: deps
	@cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ $(LAUNCHER) -DHINDSIGHT_FUZZ=ON >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target hindsight_fuzzers

# Each target for FUZZ_SECONDS under ASan + UBSan (the corpus grows in $(FUZZ_BUILD)/fuzz/<target>/corpus and is
# kept between runs; findings land in $(FUZZ_BUILD)/fuzz/<target>/artifacts), then RANDOM_QUERIES randomized
# differential queries with a random seed (printed, so a failure can be replayed with --seed).
fuzz: fuzz-build build
	@failed=""; for t in sql exec csv catalog; do \
	  bash tests/fuzz/run_fuzz.sh $(FUZZ_BUILD)/fuzz_$$t tests/fuzz/corpus/$$t $(FUZZ_BUILD)/fuzz/$$t \
	    -max_total_time=$(FUZZ_SECONDS) || failed="$$failed $$t"; \
	done; \
	python3 tests/random/run_random.py --bin $(BUILD)/hindsight --workdir $(BUILD)/random-fuzz \
	  --queries $(RANDOM_QUERIES) --jobs $(JOBS) || failed="$$failed random"; \
	if [ -n "$$failed" ]; then echo "fuzz: findings in:$$failed (fuzz targets: $(FUZZ_BUILD)/fuzz/<target>/artifacts)"; exit 1; fi

# The randomized re-execution test (tests/cli/reexec_random_test.py) with 10x the cases and a random seed (printed).
reexec-fuzz: build
	@python3 tests/differential/run_differential.py --bin $(BUILD)/hindsight --sf 0.01 --workdir $(BUILD)/testdata/tpch-sf0.01 --gen-only >/dev/null
	@python3 tests/differential/run_differential.py --bin $(BUILD)/hindsight --sf 0.01 --skew 1 --workdir $(BUILD)/testdata/tpch-sf0.01-skew1 --gen-only >/dev/null
	@python3 tests/cli/reexec_random_test.py --bin $(BUILD)/hindsight --uniform $(BUILD)/testdata/tpch-sf0.01 \
	  --skewed $(BUILD)/testdata/tpch-sf0.01-skew1 --long --jobs $(JOBS)

test: deps build fuzz-build
	@bash scripts/check-layering.sh
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

demo: deps build
	@bash scripts/demo.sh $(BUILD)/hindsight $(DEMO_DATA) $(SF)

# The whole suite (scripts/bench.sh, docs/benchmarks.md): SF 0.1, the replay at SF 1; SF=1 make bench is the reference run. Results: one JSON
# file under $(BUILD)/bench/ (and latest.json); compare two with scripts/bench-compare.sh OLD.json NEW.json.
bench: deps build
	@SF=$(SF) bash scripts/bench.sh $(BUILD)

# Every section, small: SF 0.1 (the replay too), one run per query, the re-execution benchmark's --quick subset, short micro runs.
bench-quick: deps build
	@SF=0.1 REPLAY_SF=0.1 REPEAT=1 REEXEC_ARGS="$(strip --quick $(REEXEC_ARGS))" \
	  MICRO_ARGS="--benchmark_min_time=0.05 --benchmark_repetitions=1" bash scripts/bench.sh $(BUILD)

debug: deps
	@cmake -S . -B $(DEBUG_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DHINDSIGHT_SANITIZE=ON >/dev/null
	@cmake --build $(DEBUG_BUILD) -j $(JOBS)
	@cd $(DEBUG_BUILD) && ctest --output-on-failure -j $(JOBS)

format:
	@find planner signatures mapper stats_store reexec cli bench tests -name '*.[ch]pp' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(DEBUG_BUILD) $(FUZZ_BUILD)
