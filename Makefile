# Short names for the README's commands; CMake does the work.
#   make demo   deps, release build, anvil on a real example
#   make test   deps, ASan+UBSan -Werror build, format check, every test
BUILD_TEST    ?= build/test
BUILD_CLANG   ?= build/test-clang
BUILD_RELEASE ?= build/release
JOBS          ?= $(shell nproc 2>/dev/null || echo 2)

BUILD_BENCH   ?= build/bench

.PHONY: all deps build test demo bench fuzz format format-check clean

all: build

deps:
	scripts/deps

build: deps
	cmake -S . -B $(BUILD_RELEASE) -G Ninja -DCMAKE_BUILD_TYPE=Release -DANVIL_BUILD_TESTS=OFF
	cmake --build $(BUILD_RELEASE)

demo: build
	scripts/test-servers
	scripts/demo $(BUILD_RELEASE)/tools/anvil/anvil

test: deps
	scripts/test-servers
	scripts/format-check
	cmake -S . -B $(BUILD_TEST) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DANVIL_SANITIZE=ON -DANVIL_WERROR=ON
	cmake --build $(BUILD_TEST)
	ctest --test-dir $(BUILD_TEST) -j $(JOBS) --output-on-failure
	@echo "== the same library and tests under clang's sanitizers and warnings"
	cmake -S . -B $(BUILD_CLANG) -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
	  -DANVIL_SANITIZE=ON -DANVIL_WERROR=ON -DANVIL_BUILD_BENCH=OFF
	cmake --build $(BUILD_CLANG)
	ctest --test-dir $(BUILD_CLANG) -j $(JOBS) --output-on-failure -L 'unit|sweep|conformance|fuzz' -LE cli
	scripts/summary $(BUILD_TEST)

bench: deps
	cmake -S . -B $(BUILD_BENCH) -G Ninja -DCMAKE_BUILD_TYPE=Release -DANVIL_BUILD_TESTS=OFF
	cmake --build $(BUILD_BENCH)
	scripts/bench $(BUILD_BENCH)

# A libFuzzer session per target (clang); new inputs land in build/fuzz/work-TARGET.
FUZZ_SECONDS ?= 300
fuzz:
	scripts/deps
	cmake -S . -B build/fuzz -G Ninja -DCMAKE_C_COMPILER=clang -DANVIL_FUZZ=ON -DANVIL_SANITIZE=ON
	cmake --build build/fuzz
	scripts/fuzz build/fuzz $(FUZZ_SECONDS)

format:
	scripts/format-check --fix

format-check:
	scripts/format-check

clean:
	rm -rf build
