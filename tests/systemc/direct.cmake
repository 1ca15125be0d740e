# SPDX-License-Identifier: Apache-2.0
# Direct networks on the SystemC engine (sim/systemc/direct_*) and the co-simulation of Verilated
# routers with SystemC NICs, schedule memories and controller (sim/cosim/direct_*). Included from
# tests/systemc/CMakeLists.txt (EXPECT, SAME, TOTEX, PASS_JQ come from there).
#
# Build cost: the `rtl` runs reuse the models tests/rtl/direct builds (same cache keys); each
# co-simulation below builds one Verilated router per parameter set (ports, lanes, model, widths;
# shared across topologies), about 20-60 s with ccache cold.
set(DIRECT_DATA ${CMAKE_SOURCE_DIR}/tests/rtl/direct/data)

# Same schedule, same delivery trace on every engine: all-port exchange tables (paper 001) on a
# torus and a hypercube, paper 003's metacube schedule (nic), paper 000's A2 with relay buffers
# (single-port).
add_test(NAME systemc.direct_torus4x4_allport_all_engines
  COMMAND ${SAME} ${TOTEX} --topo torus:4x4 --model all-port -- ref rtl systemc cosim)
add_test(NAME systemc.direct_hypercube3_allport_all_engines
  COMMAND ${SAME} ${TOTEX} --topo hypercube:3 --model all-port -- ref rtl systemc cosim)
add_test(NAME systemc.direct_metacube21_nic_all_engines
  COMMAND ${SAME} ${TOTEX} --topo metacube:2,1 --model nic --algo metacube-firstfit -- ref rtl systemc cosim)
add_test(NAME systemc.direct_torus3x5_single_port_all_engines
  COMMAND ${SAME} ${TOTEX} --topo torus:3x5 --model single-port --algo a2 -- ref rtl systemc cosim)
# A partially populated torus (paper 004): routers at empty nodes only forward.
add_test(NAME systemc.direct_placed_torus6x6_linear_all_engines
  COMMAND ${SAME} ${TOTEX} --topo torus:6x6@linear --model nic -- ref rtl systemc cosim)

# Dynamic mode (minimal adaptive routing with dimension-order escape VCs, dateline VCs, credits;
# and the first baseline, --dynamic dor): everything delivered exactly once, in exactly as many
# cycles as the RTL takes (tests/rtl/direct checks the same counts there), with the same delivery
# trace on the RTL, the SystemC model and the co-simulation.
set(DYN_JQ ".passed==true and .delivered==.expected_delivered and .delivered==240 and (.errors|length)==0")
foreach(engine systemc cosim)
  add_test(NAME systemc.direct_torus4x4_dynamic_${engine}
    COMMAND ${EXPECT} 0 "passed" --jq "${DYN_JQ} and .cycles==22 and .engine==\"${engine}\"" --
      ${TOTEX} sim --topo torus:4x4 --model nic --mode dynamic --engine ${engine} --json)
endforeach()
add_test(NAME systemc.direct_torus4x4_dynamic_all_engines
  COMMAND ${SAME} ${TOTEX} --topo torus:4x4 --model nic --mode dynamic -- rtl systemc cosim)
add_test(NAME systemc.direct_torus4x4_dynamic_dor_all_engines
  COMMAND ${SAME} ${TOTEX} --topo torus:4x4 --model nic --mode dynamic --dynamic dor -- rtl systemc cosim)
# The cycle counts the RTL takes (tests/rtl/direct; torus:8x8 measured on the RTL once, the
# Verilated 8x8 network is too slow to build for every test run).
foreach(case "hypercube:4;adaptive;22" "ring:8;adaptive;16" "torus:6x6@linear;adaptive;12" "torus:8x8;adaptive;107"
             "torus:8x8;dor;254")
  list(GET case 0 topo)
  list(GET case 1 routing)
  list(GET case 2 cycles)
  string(REGEX REPLACE "[:@]" "_" name "${topo}")
  add_test(NAME systemc.direct_${name}_dynamic_${routing}_systemc
    COMMAND ${EXPECT} 0 "passed" --jq ".passed==true and .delivered==.expected_delivered and (.errors|length)==0 and .cycles==${cycles}" --
      ${TOTEX} sim --topo ${topo} --model nic --mode dynamic --dynamic ${routing} --engine systemc --json)
  set_tests_properties(systemc.direct_${name}_dynamic_${routing}_systemc PROPERTIES TIMEOUT 600 LABELS systemc)
endforeach()

add_test(NAME systemc.direct_bad_dynamic_routing
  COMMAND ${EXPECT} 2 "--dynamic: 'west-first' is not accepted; accepted: adaptive \\| dor" --
    ${TOTEX} sim --topo torus:4x4 --model nic --mode dynamic --dynamic west-first --engine systemc)

# Given a different (valid) schedule than the RTL, the SystemC model reports a different digest.
add_test(NAME systemc.direct_different_schedule_different_digest
  COMMAND sh -c "${TOTEX} schedule --topo torus:4x4 --model all-port -o direct_table44.sched >/dev/null && \
    ${TOTEX} schedule --topo torus:4x4 --model all-port --algo pairwise -o direct_pairwise44.sched >/dev/null && \
    ${CMAKE_CURRENT_SOURCE_DIR}/different_digest.sh ${TOTEX} direct_table44.sched rtl direct_pairwise44.sched systemc"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# Model checks: schedules that break their model, run with --unverified, are caught by the SystemC
# router (the same files the RTL assertions catch in tests/rtl/direct). A doubly driven link also
# garbles what arrives, so later checks may fire too; the named violation must be among them.
foreach(case "single-port;sp_sends_twice_ring3;node 1 step 1: single-port: sends more than one message"
             "all-port;allport_link_twice_ring3;node 0 step 0: link driven twice"
             "nic;nic_ejects_twice_ring3;node 1 step 1: nic: ejects more than one message")
  list(GET case 0 model)
  list(GET case 1 file)
  list(GET case 2 regex)
  add_test(NAME systemc.direct_check_${model}
    COMMAND ${EXPECT} 1 "systemc check: router: ${regex}"
      --jq ".passed==false and .engine==\"systemc\" and (.errors|map(contains(\"systemc assertion(s) fired\"))|any)" --
      ${TOTEX} sim --schedule ${DIRECT_DATA}/${file}.sched --engine systemc --unverified --json)
endforeach()

# In the co-simulation the Verilated router's assertion catches the doubly driven link, and the
# SystemC NIC the misdelivered message that follows.
add_test(NAME systemc.direct_check_all-port_cosim
  COMMAND ${EXPECT} 1 "totex_router: node 0 step 0: link driven twice"
    --jq ".passed==false and .engine==\"cosim\" and (.errors|map(contains(\"cosim assertion\"))|any)" --
    ${TOTEX} sim --schedule ${DIRECT_DATA}/allport_link_twice_ring3.sched --engine cosim --unverified --json)

# Tracing: the SystemC VCD and its GTKWave view; every signal the view names is in the dump.
add_test(NAME systemc.direct_wave
  COMMAND sh -c "rm -f direct44.vcd direct44.vcd.gtkw && \
    ${EXPECT} 0 PASS -- ${TOTEX} sim --topo torus:4x4 --model all-port --engine systemc --wave direct44.vcd && \
    grep -q 'SystemC.top.node_0.out_valid_d0p' direct44.vcd.gtkw && grep -q 'out_valid_d0p' direct44.vcd && \
    grep -q 'eject_d1m' direct44.vcd"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# The co-simulation adds the Verilated routers' own signals (every router, one FST).
add_test(NAME systemc.direct_cosim_wave
  COMMAND sh -c "rm -f cdirect44.vcd cdirect44.rtl.fst && \
    ${EXPECT} 0 PASS -- ${TOTEX} sim --topo torus:4x4 --model all-port --engine cosim --wave cdirect44.vcd && \
    test -s cdirect44.vcd && test -s cdirect44.rtl.fst && grep -q 'cdirect44.rtl.fst' cdirect44.vcd.gtkw"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

set_tests_properties(
  systemc.direct_torus4x4_allport_all_engines systemc.direct_hypercube3_allport_all_engines
  systemc.direct_metacube21_nic_all_engines systemc.direct_torus3x5_single_port_all_engines
  systemc.direct_placed_torus6x6_linear_all_engines
  systemc.direct_torus4x4_dynamic_systemc systemc.direct_torus4x4_dynamic_cosim
  systemc.direct_torus4x4_dynamic_all_engines systemc.direct_torus4x4_dynamic_dor_all_engines
  systemc.direct_bad_dynamic_routing
  systemc.direct_different_schedule_different_digest systemc.direct_check_single-port systemc.direct_check_all-port
  systemc.direct_check_nic systemc.direct_check_all-port_cosim systemc.direct_wave systemc.direct_cosim_wave
  PROPERTIES TIMEOUT 600 LABELS systemc)
