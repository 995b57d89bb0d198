# Thin wrapper over CMake. `make` builds build/assay; `make check` runs every test twice (a
# normal build and an ASan+UBSan build in build/asan), then each fuzz target for 30 s
# (FUZZ_SECONDS; clang's libFuzzer, in build/fuzz); `make install` installs assay, its manual
# page and its bash completion under PREFIX (default /usr/local; DESTDIR honoured).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN_BUILD ?= build/asan
PREFIX ?= /usr/local

FUZZ_SECONDS ?= 30

.PHONY: all deps deps-tests check check-normal check-asan check-fuzz demo bench clean install

all: $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)

$(BUILD)/Makefile:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

$(ASAN_BUILD)/Makefile:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DASSAY_SANITIZE=address,undefined

deps:
	scripts/install-deps.sh

deps-tests:
	scripts/install-deps.sh --tests

check: deps-tests check-normal check-asan check-fuzz

# (configured again: the tests are built only once Criterion is there; no test found is an error)
check-normal:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure --no-tests=error -j $(JOBS)

check-asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DASSAY_SANITIZE=address,undefined >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:exitcode=86 \
		UBSAN_OPTIONS=print_stacktrace=1:exitcode=86 ctest --output-on-failure --no-tests=error -j $(JOBS)

check-fuzz:
	tests/fuzz/run.sh $(FUZZ_SECONDS)

# Sets up what is missing, builds, and runs jq's own test suite against the system's jq.
demo: deps $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS) --target assay
	$(BUILD)/assay run examples/jq-1.6 -o $(BUILD)/demo-results

bench: all
	bench/run-jq.sh

install: all
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD)
