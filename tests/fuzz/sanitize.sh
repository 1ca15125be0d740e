#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make sanitize: the library, CLI, unit tests and fuzz replays built with GCC's AddressSanitizer and
# UndefinedBehaviorSanitizer in a separate build directory, then the unit, CLI and fuzz-replay tests.
# Fails on any failing test and on any sanitizer report found in the test output.
#   tests/fuzz/sanitize.sh [BUILD_DIR]     (default build-asan; JOBS, default 2)
# Not part of make test. Tests that cannot run under ASan (an address-space ulimit, label no-asan)
# and the suites labeled systemc (tests/systemc, the recovery runs on SystemC) are left out to keep
# the run short; the other CLI tests that run the SystemC binary run the sanitized one, and the
# Verilated harnesses they build link the library with its sanitizers (model_cache.cpp).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-asan}
jobs=${JOBS:-2}
start=$(date +%s)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$jobs" --target totex totex_systemc unit_tests fuzz_replay_spec fuzz_replay_load_schedule \
  fuzz_replay_load_config fuzz_replay_load_table fuzz_replay_load_verify fuzz_replay_load_shd \
  fuzz_replay_load_poseidon fuzz_replay_traffic
built=$(date +%s)
# A report must fail the test even where the test expects a non-zero exit code.
export ASAN_OPTIONS=exitcode=99:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
set +e
(cd "$build" && ctest -R '^(unit|cli|fuzz)\.' -LE 'no-asan|systemc' -j "$jobs" --output-on-failure) \
  | tee "$build/sanitize-ctest.log"
rc=${PIPESTATUS[0]}
set -e
reports=$(grep -cE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$build/Testing/Temporary/LastTest.log" || true)
end=$(date +%s)
echo "sanitize: build $((built - start)) s, tests $((end - built)) s; ctest exit $rc; sanitizer reports: $reports"
[ "$rc" = 0 ] && [ "$reports" = 0 ]
