# Thin wrapper over CMake. `make` builds build/assay; `make check` runs every test twice:
# a normal build and an ASan+UBSan build (in build/asan).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN_BUILD ?= build/asan

.PHONY: all deps check check-normal check-asan demo bench clean

all: $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)

$(BUILD)/Makefile:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

$(ASAN_BUILD)/Makefile:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DASSAY_SANITIZE=address,undefined

deps:
	scripts/install-deps.sh

check: deps check-normal check-asan

check-normal: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

check-asan: $(ASAN_BUILD)/Makefile
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:exitcode=86 \
		UBSAN_OPTIONS=print_stacktrace=1:exitcode=86 ctest --output-on-failure -j $(JOBS)

# Sets up what is missing, builds, and runs jq's own test suite against the system's jq.
demo: deps
	$(MAKE) all
	$(BUILD)/assay run examples/jq-1.6 -o $(BUILD)/demo-results

bench: all
	bench/run-jq.sh

clean:
	rm -rf $(BUILD)
