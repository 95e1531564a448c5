# Short names for the README's commands; CMake does the work.
#   make demo   deps, release build, anvil on a real example
#   make test   deps, ASan+UBSan -Werror build, format check, every test
BUILD_TEST    ?= build/test
BUILD_RELEASE ?= build/release
JOBS          ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps build test demo format format-check clean

all: build

deps:
	scripts/deps

build: deps
	cmake -S . -B $(BUILD_RELEASE) -G Ninja -DCMAKE_BUILD_TYPE=Release -DANVIL_BUILD_TESTS=OFF
	cmake --build $(BUILD_RELEASE)

demo: build
	scripts/demo $(BUILD_RELEASE)/tools/anvil/anvil

test: deps
	scripts/format-check
	cmake -S . -B $(BUILD_TEST) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DANVIL_SANITIZE=ON -DANVIL_WERROR=ON
	cmake --build $(BUILD_TEST)
	ctest --test-dir $(BUILD_TEST) -j $(JOBS) --output-on-failure

format:
	scripts/format-check --fix

format-check:
	scripts/format-check

clean:
	rm -rf build
