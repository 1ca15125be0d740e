# The hardware boundary (issue 46 items 1-2, issue 48 items 7, 10, 11, 12): the environment read once
# by the CLI and checked the same way for every engine, memory estimated before a periodic run or an
# fpga fit, the --tables-out set replaced as a whole, and the TDM tiles' minimum period.
# Included from tests/cli/CMakeLists.txt (EXPECT, TOTEX, cli_test).

# A bad value of any variable is exit 2 naming the variable and its accepted values, on every engine,
# one-shot and periodic, before any schedule search or model build.
set(HW_BAD_ENV
  "TOTEX_RTL_BUILD=bogus|TOTEX_RTL_BUILD=bogus: accepted values are wired, hier and flat"
  "TOTEX_RTL_THREADS=0|TOTEX_RTL_THREADS=0: accepted values are 1 to 64"
  "TOTEX_WIRED_SKIP_QUIET=yes|TOTEX_WIRED_SKIP_QUIET=yes: accepted values are 1 .skip quiet tiles. and 0"
  "TOTEX_TDM_FAULT=bogus|TOTEX_TDM_FAULT=bogus: accepted values are eject, pause and pauses"
  "TOTEX_CACHE_DIR=${CMAKE_CURRENT_LIST_FILE}|TOTEX_CACHE_DIR=.* is not a directory")
set(HW_ENV_INDEX 0)
foreach(case IN LISTS HW_BAD_ENV)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 assignment)
  list(GET parts 1 regex)
  math(EXPR HW_ENV_INDEX "${HW_ENV_INDEX} + 1")
  foreach(engine ref rtl systemc cosim)
    add_test(NAME cli.hw_env_${HW_ENV_INDEX}_${engine} COMMAND ${CMAKE_COMMAND} -E env ${assignment}
             ${EXPECT} 2 "${regex}" -- ${TOTEX} sim --topo ring:4 --model nic --engine ${engine})
  endforeach()
  foreach(engine ref rtl systemc)
    add_test(NAME cli.hw_env_${HW_ENV_INDEX}_${engine}_periods COMMAND ${CMAKE_COMMAND} -E env ${assignment}
             ${EXPECT} 2 "${regex}" -- ${TOTEX} sim --topo ring:4 --model nic --engine ${engine} --periods 2)
  endforeach()
  add_test(NAME cli.hw_env_${HW_ENV_INDEX}_fpga COMMAND ${CMAKE_COMMAND} -E env ${assignment}
           ${EXPECT} 2 "${regex}" -- ${TOTEX} fpga --topo ring:4 --model nic --tables-out ${CMAKE_CURRENT_BINARY_DIR}/hw_env_tables)
endforeach()
add_test(NAME cli.hw_env_tdm_synth_missing COMMAND ${CMAKE_COMMAND} -E env TOTEX_TDM_SYNTH=/nonexistent/synth.sh
         ${EXPECT} 2 "TOTEX_TDM_SYNTH=/nonexistent/synth.sh: no such file" -- ${TOTEX} fpga --topo ring:4 --model nic)
# A fault the engine cannot inject is refused, not ignored (ref has no tiles).
add_test(NAME cli.hw_env_fault_on_ref COMMAND ${CMAKE_COMMAND} -E env TOTEX_TDM_FAULT=eject
         ${EXPECT} 2 "TOTEX_TDM_FAULT=eject injects a fault into the TDM tiles. --engine ref has none .engines rtl and systemc do."
         -- ${TOTEX} sim --topo ring:4 --model nic --engine ref --periods 2)

# --periods K: the deliveries' memory is estimated first and refused past the budget (exit 3), under
# a 1 GB address-space limit, so the refusal is not a bad_alloc after growing (torus:3x3 at 10^6
# periods reached 3.8 GB before).
foreach(engine ref rtl systemc)
  add_test(NAME cli.periods_memory_${engine}
           COMMAND ${EXPECT} 3 "resources: --periods 1000000 on torus:3x3 checks 72000000 deliveries.*at most --periods [0-9]+ on this network"
           -- bash -c "ulimit -v 1000000 && exec ${TOTEX} sim --topo torus:3x3 --model nic --engine ${engine} --periods 1000000")
endforeach()
cli_test(periods_memory_torus8x8 3 "resources: --periods 200000 on torus:8x8"
  -- bash -c "ulimit -v 1000000 && exec ${TOTEX} sim --topo torus:8x8 --model nic --periods 200000")
# fpga: a tile whose slot table alone cannot fit is refused before the schedule search (torus:64x64
# took 6.5 GB before saying so).
cli_test(fpga_cannot_fit 2 "the TDM tile for torus:64x64 cannot fit the iCE40 up5k: its slot table holds at least 4095 slots"
  -- bash -c "ulimit -v 1000000 && exec ${TOTEX} fpga --topo torus:64x64 --model nic")
cli_test(fpga_cannot_fit_hx8k 2 "cannot fit the iCE40 hx8k"
  -- bash -c "ulimit -v 1000000 && exec ${TOTEX} fpga --topo torus:64x64 --model nic --device hx8k")
# Not under ASan (make sanitize), whose shadow memory alone is more than the 1 GB limit.
set_tests_properties(cli.periods_memory_ref cli.periods_memory_rtl cli.periods_memory_systemc cli.periods_memory_torus8x8
  cli.fpga_cannot_fit cli.fpga_cannot_fit_hx8k PROPERTIES LABELS no-asan)

# --tables-out DIR is replaced as a whole: a failed write leaves the old set, a good one the new set.
add_test(NAME cli.fpga_tables_out_atomic
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tables_out_atomic.sh ${TOTEX} ${CMAKE_CURRENT_BINARY_DIR}/tables_out_atomic)

# The TDM tiles' minimum period (5): totex picks it for a short schedule, on every engine alike (ref,
# and the SystemC tiles, which failed at the period 3 picked before); a periodic schedule's own
# shorter period is refused on a tile engine, naming the minimum.
foreach(net "torus:3x3|all-port" "path:3|all-port" "ring:2|single-port")
  string(REPLACE "|" ";" parts "${net}")
  list(GET parts 0 topo)
  list(GET parts 1 model)
  string(REGEX REPLACE "[^a-z0-9]" "_" name "${topo}_${model}")
  foreach(engine ref systemc)
    cli_test(tdm_min_period_${name}_${engine} 0 "periods"
      --jq ".passed and .period==5 and .periods==2 and .deliveries==.expected_delivered" --
      ${TOTEX} sim --topo ${topo} --model ${model} --engine ${engine} --periods 2 --json)
  endforeach()
endforeach()
# ring:3's periodic nic schedule has period 2: refused on the tile engines, naming the minimum; ref
# runs it; a --period of 5 or more runs it on the tiles.
foreach(engine rtl systemc)
  cli_test(tdm_min_period_own_${engine} 2
    "period 2 .the schedule's own. is below the TDM tiles' minimum period 5.*give --period 5 or more" --
    ${TOTEX} sim --topo ring:3 --model nic --periodic --periods 2 --engine ${engine})
endforeach()
cli_test(tdm_min_period_own_ref 0 "periods" --jq ".passed and .period==2" --
  ${TOTEX} sim --topo ring:3 --model nic --periodic --periods 2 --engine ref --json)
cli_test(tdm_min_period_own_given 0 "periods" --jq ".passed and .period==6 and .engine==\"systemc\"" --
  ${TOTEX} sim --topo ring:3 --model nic --periodic --periods 2 --engine systemc --period 6 --json)
# A fault for the TDM tiles on a one-shot run is refused, not ignored.
add_test(NAME cli.hw_env_fault_one_shot COMMAND ${CMAKE_COMMAND} -E env TOTEX_TDM_FAULT=pause
         ${EXPECT} 2 "TOTEX_TDM_FAULT=pause injects a fault into a periodic run of the TDM tiles: give --periods K"
         -- ${TOTEX} sim --topo ring:4 --model nic --engine systemc)
# A --period below the minimum runs as asked; when it fails, the first error names the cause.
cli_test(tdm_min_period_given_short 1 "period 3 is below the TDM tiles' minimum period 5: a destination's slots closer than 5 cycles"
  --jq ".passed==false and (.errors[0]|startswith(\"period 3 is below\"))" --
  ${TOTEX} sim --topo torus:3x3 --model all-port --engine systemc --periods 2 --period 3 --json)
