# Thin front for CMake. `make run` and `make test` are the only commands a fresh Debian machine needs.
BUILD_DIR ?= build
JOBS      ?= $(shell nproc)
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# ccache hashes the paths under this tree as relative ones, so another checkout (a CI clone) finds
# the objects this one compiled; the RTL model builds name their sources relative too (model_cache.cpp).
export CCACHE_BASEDIR ?= $(CURDIR)

# The whole toolchain the project uses (see README). `deps` installs only what is missing.
DEB_PACKAGES := cmake g++ make pkg-config ccache verilator libsystemc-dev catch2 gtkwave yosys \
                nextpnr-ice40 fpga-icestorm zlib1g-dev libcli11-dev nlohmann-json3-dev \
                xvfb xauth imagemagick jq bc libcadical-dev libxml2-utils chromium \
                libexpat1-dev

# COIN-OR CLP: the min-congestion LP of the traffic bounds (sw/src/traffic/congestion_lp.cpp).
DEB_PACKAGES += coinor-libclp-dev

# COIN-OR CBC: route-sat's 0-1 placement programs (sw/src/generators/ilp.cpp).
DEB_PACKAGES += coinor-libcbc-dev

# z3: the SMT solver of the formal proofs (yosys-smtbmc; formal.quick in `make test`, all in `make formal`).
DEB_PACKAGES += z3

# iverilog: the bitstream turned back into Verilog (icebox_vlog) is simulated with it (`make fpga`,
# rtl/synth/bitstream_sim.sh).
DEB_PACKAGES += iverilog

# Only for `make fuzz` and `make sanitize` (build, run and test do not need them): clang++ and libFuzzer.
FUZZ_PACKAGES := clang libfuzzer-14-dev libclang-rt-14-dev
FUZZ_SECONDS  ?= 60

# Only for `make bench`: GNU parallel runs its sweeps as independent jobs (BENCH_JOBS at once).
BENCH_PACKAGES := parallel

.PHONY: deps build run test bench bench-deps fpga clean fuzz-deps fuzz sanitize formal

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "deps: all $(words $(DEB_PACKAGES)) packages present"; fi

# Quiet: one line per stage and every warning (full logs in $(BUILD_DIR)/configure.log and build.log).
$(BUILD_DIR)/CMakeCache.txt:
	@mkdir -p $(BUILD_DIR); echo "configure: cmake -S . -B $(BUILD_DIR) (log: $(BUILD_DIR)/configure.log)"
	@if cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
	     > $(BUILD_DIR)/configure.log 2>&1; then grep -i -A3 'warning' $(BUILD_DIR)/configure.log || true; \
	 else cat $(BUILD_DIR)/configure.log; rm -f $@; exit 1; fi

build: deps $(BUILD_DIR)/CMakeCache.txt
	@echo "build: $(BUILD_DIR), $(JOBS) jobs"
	@./cmake/quiet_build.sh $(BUILD_DIR) $(JOBS)
	@echo "build: done; totex is $(BUILD_DIR)/bin/totex"

# Only what the default run uses (the CLI and the SystemC model); `make build` builds the tests too.
run: deps $(BUILD_DIR)/CMakeCache.txt
	@echo "build: totex, totex_systemc ($(BUILD_DIR), $(JOBS) jobs)"
	@./cmake/quiet_build.sh $(BUILD_DIR) $(JOBS) totex totex_systemc
	@./sim/run_default.sh $(BUILD_DIR)

# The tests labelled bench (long end-to-end checks that repeat covered ground on more or larger
# cases) run in `make bench`.
test: build
	cd $(BUILD_DIR) && ctest -j $(JOBS) --output-on-failure -LE bench

bench: build bench-deps
	./tests/bench/run.sh $(BUILD_DIR)

# Synthesis and place-and-route report (Yosys + nextpnr-ice40): build/fpga/report.{json,md}; the TDM
# tile rows beside the reference crossbar (rtl/synth/tdm_report.sh: build/fpga/tdm-report.{json,md},
# seeds 1-3, about 20 minutes); then the board bitstreams build/fpga/{icebreaker,hx8k,min64_hx8k,torus_hx8k}.bin,
# failing if 12 MHz timing is not met; then the HX8K bitstreams (and their LedShift 0 and fault
# builds) turned back into Verilog and simulated (rtl/synth/bitstream_sim.sh: build/fpga/bitsim/bitsim.txt).
# torus_hx8k's slot tables come from totex (`totex fpga --tables-out`), so totex is built first.
# Environment: PNR_TIMEOUT, BIG=0 (skip the slow 64 x 64 MINs), XILINX=0 (skip synth_xilinx); see the scripts.
fpga: deps $(BUILD_DIR)/CMakeCache.txt
	@./cmake/quiet_build.sh $(BUILD_DIR) $(JOBS) totex
	./rtl/synth/fpga_report.sh $(BUILD_DIR)/fpga
	./rtl/synth/tdm_report.sh $(BUILD_DIR)/fpga
	TOTEX=$(BUILD_DIR)/bin/totex ./rtl/synth/board_build.sh $(BUILD_DIR)/fpga
	TOTEX=$(BUILD_DIR)/bin/totex REUSE=$(BUILD_DIR)/fpga ./rtl/synth/bitstream_sim.sh $(BUILD_DIR)/fpga/bitsim

# libFuzzer targets (tests/fuzz: spec parser, the three file loaders, load-then-verify) built with
# clang++ in build-fuzz/, each run for FUZZ_SECONDS (or FUZZ_RUNS executions) from the committed seeds;
# prints executions, exec/s and coverage per target and fails on a crash.
fuzz: fuzz-deps
	JOBS=$(JOBS) FUZZ_SECONDS=$(FUZZ_SECONDS) ./tests/fuzz/run.sh build-fuzz

# Library, CLI, unit tests and fuzz replays under GCC's ASan + UBSan in build-asan/; runs the unit,
# CLI and fuzz-replay tests and fails on any sanitizer report. Not part of `make test`.
sanitize: fuzz-deps
	JOBS=$(JOBS) ./tests/fuzz/sanitize.sh build-asan

# Every formal proof of the RTL (tests/formal/run.sh: rtl/formal/ wrappers, yosys-smtbmc + z3, with
# the mutants that must fail) in build-formal/; writes build-formal/formal-table.md. About 5 min.
formal: deps
	./tests/formal/run.sh build-formal

fuzz-deps: deps
	@missing=$$(for p in $(FUZZ_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "fuzz-deps: installing $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "fuzz-deps: all $(words $(FUZZ_PACKAGES)) packages present"; fi

bench-deps: deps
	@missing=$$(for p in $(BENCH_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "bench-deps: installing $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "bench-deps: all $(words $(BENCH_PACKAGES)) packages present"; fi

clean:
	rm -rf $(BUILD_DIR)
