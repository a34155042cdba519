# simfab quick start:  `make run` (set up, build, run the bundled example)  and  `make test`.
# Both install what is missing first (scripts/install-deps.sh: Debian packages, and web/'s npm
# packages for the HTML report).

JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan

.PHONY: all deps build build-asan run test test-release test-asan fuzz bench clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release > /dev/null
	@cmake --build $(BUILD) -j $(JOBS)

build-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DSIMFAB_SANITIZE=ON > /dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

# The main job: predict the bundled 16-rank example on the bundled cluster with LogGOPS.
run: build
	./$(BUILD)/simfab run --platform examples/platforms/cluster16.yaml --trace examples/ti/stencil16.ti

test-release: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	@cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

# The whole suite, twice: an optimised build and an ASan/UBSan build (the fuzz corpus and every
# crash found so far are replayed in both, as ctest cases fuzz_regression_*).
test: test-release test-asan

fuzz:
	@bash scripts/install-deps.sh --fuzz
	@bash tests/fuzz/fuzz.sh

bench: build
	@bash bench/run.sh $(BUILD)
	@bash bench/goal_read_bench.sh $(BUILD)
	@bash bench/otf2_bench.sh $(BUILD)
	@bash bench/noise_bench.sh $(BUILD)
	@bash bench/sweep_bench.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
