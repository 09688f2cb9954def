# Thin wrapper over CMake. `make demo` and `make test` set up what is missing first.
BUILD ?= build
DEBUG_BUILD ?= build-debug
SF ?= 0.1
JOBS ?= $(shell nproc)
DEMO_DATA ?= $(BUILD)/data/tpch-sf$(SF)-skew

.PHONY: all deps configure build test demo bench debug clean format

all: build

deps:
	@bash scripts/install-deps.sh

configure:
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

test: deps build
	@bash scripts/check-layering.sh
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

demo: deps build
	@bash scripts/demo.sh $(BUILD)/hindsight $(DEMO_DATA) $(SF)

bench: deps build
	@SF=$(SF) bash scripts/bench.sh $(BUILD)

debug: deps
	@cmake -S . -B $(DEBUG_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DHINDSIGHT_SANITIZE=ON >/dev/null
	@cmake --build $(DEBUG_BUILD) -j $(JOBS)
	@cd $(DEBUG_BUILD) && ctest --output-on-failure -j $(JOBS)

format:
	@find planner signatures mapper stats_store reexec cli bench tests -name '*.[ch]pp' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(DEBUG_BUILD)
