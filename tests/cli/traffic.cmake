# CLI tests of --traffic (issue 49, docs/traffic.md) on the commands that take it so far: bound.
# Included from CMakeLists.txt.

# all is today's bound, term for term (the traffic library's all and lower_bound agree).
cli_test(bound_traffic_all_unchanged 0 "lower_bound"
  --jq ".lower_bound==67 and .binding==\"nic_pipeline, link_fill\" and .periodic.lower_bound==64 and (has(\"traffic\")|not)" --
  ${TOTEX} bound --topo torus:8x8 --model nic --traffic all --json)
cli_test(bound_traffic_all_1 0 "lower_bound"
  --jq ".lower_bound==67 and .periodic.lower_bound==64 and .traffic.kind==\"all\"" --
  ${TOTEX} bound --topo torus:8x8 --model nic --traffic all:1 --json)
# A hot spot by hand (ring:4): node 0 receives 3 + 2 + 5 = 10 flits, one per step under nic.
cli_test(bound_traffic_matrix_hotspot 0 "traffic matrix:.*\\(11 flits, 4 pairs\\): lower bound 10 steps"
  -- ${TOTEX} bound --topo ring:4 --model nic --traffic matrix:${DATA}/hotspot_ring4.txt)
cli_test(bound_traffic_binding 0 "binding: nic_ejection"
  -- ${TOTEX} bound --topo ring:4 --model nic --traffic matrix:${DATA}/hotspot_ring4.txt)
# The transpose of torus:8x8 with 8 flits per pair: the congestion LP (z* = 8.8) binds the period at 9.
cli_test(bound_traffic_transpose_lp 0 "period_bound"
  --jq ".period_bound==9 and .traffic.kind==\"perm\" and .traffic.flits==448 and ([.period_bound_terms[]|select(.name==\"congestion_lp\")][0].value==9)" --
  ${TOTEX} bound --topo torus:8x8 --model nic --traffic perm:transpose:8 --periodic --json)
# Past the arc form's column limit (256 sources x 1024 links), the LP in path form: torus:16x16
# perm:bitrev's z* = 2.027 binds the period at 3 (the cuts and the link count give 2).
cli_test(bound_traffic_lp_path_form 0 "period_bound"
  --jq ".period_bound==3 and ([.period_bound_terms[]|select(.name==\"congestion_lp\")][0]|.value==3 and (.detail|test(\"in path form .* z. = 2.027027\")))" --
  ${TOTEX} bound --topo torus:16x16 --model nic --traffic perm:bitrev --periodic --json)
# Refusals: an unknown generator and a transpose of a MIN's terminals (exit 2), a traffic past the limits (exit 3, before work).
cli_test(bound_traffic_unknown 2 "bad traffic 'bogus': unknown traffic generator 'bogus'. accepted: all"
  -- ${TOTEX} bound --topo torus:4x4 --model nic --traffic bogus)
cli_test(bound_traffic_min_transpose 2 "perm:transpose needs a square 2-D network .*. min:16:4:omega .16 terminals. is not one"
  -- ${TOTEX} bound --topo min:16:4 --traffic perm:transpose)
cli_test(bound_traffic_too_large 3 "resources: traffic 'all:20000000': flits per pair M 20000000 is above the limit"
  -- ${TOTEX} bound --topo torus:4x4 --model nic --traffic all:20000000)
cli_test(bound_traffic_missing_file 2 "nope.txt:0: cannot open file"
  -- ${TOTEX} bound --topo ring:4 --model nic --traffic matrix:nope.txt)

# totex plot --kind traffic: the matrix, its sums and the bound (the JSON's bound is the one bound prints).
set(TRAFFIC_PLOT_DIR ${CMAKE_CURRENT_BINARY_DIR}/traffic)
file(MAKE_DIRECTORY ${TRAFFIC_PLOT_DIR})
cli_test(plot_traffic_hotspot 0 "hotspot.svg"
  --jq ".kind==\"traffic\" and .lower_bound==10 and .bound_term==\"nic_ejection\" and .traffic.flits==11" --
  ${TOTEX} plot --topo ring:4 --model nic --kind traffic --traffic matrix:${DATA}/hotspot_ring4.txt
  -o ${TRAFFIC_PLOT_DIR}/hotspot.svg --json)
add_test(NAME cli.plot_traffic_sums COMMAND sh -c
  "grep -c 'data-received=\"10\"' '${TRAFFIC_PLOT_DIR}/hotspot.svg' | grep -qx 1 && grep -c 'data-sent=\"5\"' '${TRAFFIC_PLOT_DIR}/hotspot.svg' | grep -qx 1")
set_tests_properties(cli.plot_traffic_sums PROPERTIES DEPENDS cli.plot_traffic_hotspot)
cli_test(plot_traffic_needs_model 2 "--kind traffic: give --model"
  -- ${TOTEX} plot --topo ring:4 --kind traffic --traffic all:2 -o ${TRAFFIC_PLOT_DIR}/x.svg)
# A MIN's all is paper 002's (the self slot included): its bound, N + log_d N - 1.
cli_test(plot_traffic_min_all 0 "traffic all: 240 flits, lower bound 17 under nic .configurations . pipeline."
  -- ${TOTEX} plot --topo min:16:4 --kind traffic -o ${TRAFFIC_PLOT_DIR}/y.svg)
cli_test(plot_traffic_other_kind 2 "--traffic: applies to --kind traffic here"
  -- ${TOTEX} plot --topo ring:4 --model nic --kind heatmap --traffic all:2 -o ${TRAFFIC_PLOT_DIR}/z.svg)

# totex schedule --traffic and verify (docs/traffic.md, "Schedules"): the file records the traffic,
# verify reads it again from its spec and checks the digest.
set(TRAFFIC_DIR ${CMAKE_CURRENT_BINARY_DIR}/traffic)
file(MAKE_DIRECTORY ${TRAFFIC_DIR})
cli_test(schedule_traffic_random 0 "steps"
  --jq ".verified and .traffic.kind==\"random\" and .steps==.lower_bound and .proven_optimal and .delivered==.expected_delivered" --
  ${TOTEX} schedule --topo torus:4x4 --model nic --traffic random:2:0.5:3 --json)
cli_test(schedule_traffic_groups_periodic 0 "periodic-lines: period 8 \\(period bound 8"
  -- ${TOTEX} schedule --topo torus:8x8 --model nic --traffic groups:0 --periodic)
cli_test(schedule_traffic_all_json 0 "traffic"
  --jq ".traffic.kind==\"all\" and .traffic.flits==240 and .steps==17" --
  ${TOTEX} schedule --topo torus:4x4 --model nic --traffic all:1 --json)
cli_test(schedule_traffic_all_unchanged 0 "torus:4x4, nic, pattern: 17 steps \\(lower bound 17"
  -- ${TOTEX} schedule --topo torus:4x4 --model nic --traffic all:1)
add_test(NAME cli.schedule_traffic_write COMMAND ${TOTEX} schedule --topo torus:4x4 --model nic --traffic moe:8:2:6:3 --periodic
         -o ${TRAFFIC_DIR}/moe.sched)
cli_test(verify_traffic_recorded 0 "verified, .* flits delivered, traffic moe:8:2:6:3"
  -- ${TOTEX} verify ${TRAFFIC_DIR}/moe.sched)
cli_test(verify_traffic_other 1 "schedule is for traffic 'moe:8:2:6:3', not 'moe:8:2:6:4'"
  -- ${TOTEX} verify ${TRAFFIC_DIR}/moe.sched --traffic moe:8:2:6:4)
cli_test(verify_traffic_all 1 "schedule is for traffic 'moe:8:2:6:3', not 'all'"
  -- ${TOTEX} verify ${TRAFFIC_DIR}/moe.sched --traffic all)
set_tests_properties(cli.verify_traffic_recorded cli.verify_traffic_other cli.verify_traffic_all PROPERTIES DEPENDS cli.schedule_traffic_write)
cli_test(schedule_traffic_shd 2 "--format shd cannot record a traffic other than all"
  -- ${TOTEX} schedule --topo torus:4x4 --model nic --traffic perm:transpose -o ${TRAFFIC_DIR}/x.shd)
cli_test(schedule_traffic_bad_algo 2 "--algo lines needs groups:D"
  -- ${TOTEX} schedule --topo torus:4x4 --model nic --traffic perm:transpose --algo lines)
# The exact candidate (one-shot, small instances): a proof by UNSAT above the bound, and a schedule at it.
# ring:5 perm:shift:2:2: the exact search proves 3 steps infeasible (unit test); the time-expanded
# LP, run once the list's 4 is in hand, proves it too, so the bound is 4 and met.
cli_test(schedule_traffic_exact_unsat 0 "list: 4 steps \\(lower bound 4, binding time_expanded_lp.*optimal: meets the lower bound \\(time_expanded_lp\\)\\)"
  -- ${TOTEX} schedule --topo ring:5 --model nic --traffic perm:shift:2:2)
cli_test(schedule_traffic_exact_bound 0 "exact: 4 steps \\(lower bound 4, binding .*optimal: meets the lower bound"
  -- ${TOTEX} schedule --topo mesh:3x3 --model all-port --traffic random:1:0.3:2 --algo exact)
# Periodic, the every-route model (any walk, modulo the period): ring:8 perm:shift:3 has period
# bound 2 and period 2 is UNSAT, so the list's 3 is proven optimal (auto) and exact alone climbs
# from the bound to 3; on ring:6 perm:shift:2:2 it finds the bound 3 alone; too large refused.
cli_test(schedule_traffic_exact_periodic_unsat 0 "\"proven_optimal\": true"
  --jq ".periodic and .period==3 and .period_bound==2 and .proven_optimal and (.proof|test(\"period 2 infeasible: UNSAT with every route\"))" --
  ${TOTEX} schedule --topo ring:8 --model nic --traffic perm:shift:3 --periodic --json)
cli_test(schedule_traffic_exact_periodic_alone 0 "periodic-exact: period 3 \\(period bound 2, .*optimal: exact: period 2 infeasible: UNSAT with every route"
  -- ${TOTEX} schedule --topo ring:8 --model nic --traffic perm:shift:3 --periodic --algo exact)
cli_test(schedule_traffic_exact_periodic_bound 0 "periodic-exact: period 3 \\(period bound 3, .*optimal: meets the lower bound"
  -- ${TOTEX} schedule --topo ring:6 --model nic --traffic perm:shift:2:2 --periodic --algo exact)
# In auto, route-sat's detours (two hops longer than a shortest route) reach it first.
cli_test(schedule_traffic_route_sat_detours 0 "\"proven_optimal\": true"
  --jq ".period==3 and .period_bound==3 and .algorithm==\"periodic-route-sat\" and (.search|map(select(test(\"route-sat: period 3: .*all routes UNSAT.* detours SAT\")))|length==1)" --
  ${TOTEX} schedule --topo ring:6 --model nic --traffic perm:shift:2:2 --periodic --json)
# torus:2x2 all:3 (Poseidon's async.xml) by route-sat alone: the balanced routes are every route,
# so that model is solved once, with half the work; undecided there, the detours fit the bound 9 at
# once (62 s under auto before, on two undecided solves of the same 2,580-clause model counted at
# its size; auto now repeats the period-3 all-to-all schedule).
cli_test(schedule_traffic_route_sat_small_model 0 "\"proven_optimal\": true"
  --jq ".period==9 and .algorithm==\"periodic-route-sat\" and (.search|map(select(test(\"route-sat: period 9: .*balanced routes: every route. all routes unknown .budget., 2580 clauses, [0-9]+ conflicts. detours SAT\")))|length==1)" --
  ${TOTEX} schedule --topo torus:2x2 --model nic --traffic all:3 --periodic --algo route-sat --json)
# torus:8x8 perm:shift:3 (rank i to i + 3) is mapped onto itself by the 8 translations along
# dimension 1: route-sat places one pair per orbit, on paths with at most two turns every way
# round each ring (a 0-1 program for CBC; before that stage, 2026-12-01, on paths one way round each
# ring in the directions a negotiation chose, and before that over every path up to 2 hops longer
# than a shortest one), and reaches the period bound 2 (the list stops at 3; alone on ring:8
# period 2 is infeasible, above).
cli_test(schedule_traffic_translation_orbits 0 "\"proven_optimal\": true"
  --jq ".period==2 and .period_bound==2 and .proven_optimal and .algorithm==\"periodic-route-sat\" and (.search|map(select(test(\"translation-invariant two-turn paths \\\\(ILP\\\\) SAT\")))|length==1) and (.errors|length==0)" --
  ${TOTEX} schedule --topo torus:8x8 --model nic --traffic perm:shift:3 --periodic --json)
cli_test(schedule_traffic_exact_periodic_large 2 "--algo exact is for small instances \\(flits x directed links x period <= 1500000"
  -- ${TOTEX} schedule --topo torus:16x16 --model nic --traffic perm:transpose:8 --periodic --algo exact)

# totex sim --traffic on the direct routers (one message per pair): every engine delivers exactly
# the traffic's pairs, with one digest (the rtl model is rtl.direct.torus4x4_nic's, same cache).
foreach(traffic "groups:0" "matrix:${DATA}/alltoallv_torus4x4.txt")
  string(REGEX REPLACE "[^a-z0-9]+" "_" name "${traffic}")
  string(REGEX REPLACE "_work_.*_data_" "" name "${name}")
  add_test(NAME cli.sim_traffic_engines_${name}
    COMMAND ${CMAKE_SOURCE_DIR}/tests/cosim/same_digest.sh ${TOTEX} --topo torus:4x4 --model nic --traffic ${traffic}
            -- ref rtl systemc)
  set_tests_properties(cli.sim_traffic_engines_${name} PROPERTIES TIMEOUT 600
    ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
endforeach()
cli_test(sim_traffic_pairs 0 "delivered"
  --jq ".passed and .delivered==9 and .expected_delivered==9 and .traffic.pairs==9" --
  ${TOTEX} sim --topo torus:4x4 --model nic --traffic matrix:${DATA}/alltoallv_torus4x4.txt --json)
# Multi-flit traffic on the direct routers (one-shot, no --periods): flit f of (s,d) sits in NIC
# slot {f, d} and carries payload_of(s, d, f); every engine checks each flit (source, destination,
# flit, payload, cycle) and that a pair's flits arrive in index order, and all four agree on the
# digest. One schedule file each (the search runs once): all:2 on nic, the 1-5 flit matrix on nic
# and all:2 on all-port (at its bound 16, some pairs' two flits arriving in one step over two
# links: the digest sorts them by payload, not in the order an engine delivers them). rtl models
# tile_..._fl<F> (Flits = 2 and 5, built on first use).
foreach(case "nic_all2|nic|all:2" "nic_matrix|nic|matrix:tests/cli/data/multiflit_torus4x4.txt"
             "allport_all2|all-port|all:2")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 model)
  list(GET parts 2 traffic)
  add_test(NAME cli.sim_traffic_direct_multi_schedule_${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${TOTEX} schedule --topo torus:4x4 --model ${model} --traffic ${traffic} --algo list --budget 2
            -o ${TRAFFIC_DIR}/direct_multi_${name}.sched)
  set_tests_properties(cli.sim_traffic_direct_multi_schedule_${name} PROPERTIES FIXTURES_SETUP direct_multi_${name})
  add_test(NAME cli.sim_traffic_direct_multi_${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${CMAKE_SOURCE_DIR}/tests/cosim/same_digest.sh ${TOTEX} --schedule ${TRAFFIC_DIR}/direct_multi_${name}.sched
            -- ref rtl systemc cosim)
  set_tests_properties(cli.sim_traffic_direct_multi_${name} PROPERTIES TIMEOUT 600 FIXTURES_REQUIRED direct_multi_${name}
    ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
endforeach()
# The model cache named relative to the working directory (the model builds run make in a
# directory of their own: a relative TOTEX_CACHE_DIR failed to build before 2026-11-30).
add_test(NAME cli.sim_traffic_relative_cache_dir WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
  COMMAND ${EXPECT} 0 "trace_sha256" --jq ".passed and .delivered==480" --
          ${TOTEX} sim --schedule ${TRAFFIC_DIR}/direct_multi_allport_all2.sched --engine rtl --json)
set_tests_properties(cli.sim_traffic_relative_cache_dir PROPERTIES TIMEOUT 600 FIXTURES_REQUIRED direct_multi_allport_all2
  ENVIRONMENT "TOTEX_CACHE_DIR=rtl-cache" LABELS rtl)
# Every flit is required: all:2 is 16 x 15 x 2 = 480 flits, the matrix 23.
cli_test(sim_traffic_direct_multi_count 0 "delivered"
  --jq ".passed and .delivered==480 and .expected_delivered==480 and .traffic.flits==480" --
  ${TOTEX} sim --schedule ${TRAFFIC_DIR}/direct_multi_nic_all2.sched --engine rtl --json)
set_tests_properties(cli.sim_traffic_direct_multi_count PROPERTIES FIXTURES_REQUIRED direct_multi_nic_all2
  ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
# A pair's flits out of index order (flits 0 and 1 of (0,8) relabelled: the verifier accepts it,
# flits being interchangeable, but a message must arrive in order): every engine names the pair.
foreach(engine ref rtl systemc cosim)
  add_test(NAME cli.sim_traffic_direct_multi_order_${engine}
    COMMAND sh -c "awk 'NF==5 && $3==0 && $4==8 {$5=1-$5} {print}' ${TRAFFIC_DIR}/direct_multi_nic_all2.sched > ${TRAFFIC_DIR}/direct_multi_swap_${engine}.sched && ${EXPECT} 1 'flit .0,8.#1 arrived in cycle [0-9]+, before flit .0,8.#0 .cycle [0-9]+.: the pair.s flits are out of order' -- $0 sim --schedule ${TRAFFIC_DIR}/direct_multi_swap_${engine}.sched --engine ${engine}"
            ${TOTEX})
  set_tests_properties(cli.sim_traffic_direct_multi_order_${engine} PROPERTIES TIMEOUT 600
    FIXTURES_REQUIRED direct_multi_nic_all2 ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
endforeach()
# The dynamic baseline with a traffic (--mode dynamic --traffic T, no schedule): every NIC's send
# queue holds its row of T (round f: flit f to each destination in the baseline's send order), each
# flit carries payload_of(s, d, f), and the scoreboard requires every flit of T exactly once at its
# destination with its payload. rtl, systemc and cosim (RTL routers, SystemC NICs) deliver the same
# trace: all:2 (480 flits), the 1-5 flit matrix (23) and perm:transpose:3 (36) on torus:4x4. rtl
# models tile_dynamic_..._fl<F> (F = 2, 5, 3: the heaviest pair), built on first use.
foreach(case "all2|all:2" "matrix|matrix:tests/cli/data/multiflit_torus4x4.txt" "perm|perm:transpose:3")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 traffic)
  add_test(NAME cli.sim_traffic_dynamic_engines_${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${CMAKE_SOURCE_DIR}/tests/cosim/same_digest.sh ${TOTEX} --topo torus:4x4 --model nic --mode dynamic
            --traffic ${traffic} -- rtl systemc cosim)
  set_tests_properties(cli.sim_traffic_dynamic_engines_${name} PROPERTIES TIMEOUT 600
    ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
endforeach()
# The backdoor load writes the same send queues into the models' memories: the same digest.
add_test(NAME cli.sim_traffic_dynamic_backdoor WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  COMMAND ${CMAKE_SOURCE_DIR}/tests/cosim/same_digest.sh ${TOTEX} --topo torus:4x4 --model nic --mode dynamic
          --traffic matrix:tests/cli/data/multiflit_torus4x4.txt --load backdoor -- rtl systemc)
set_tests_properties(cli.sim_traffic_dynamic_backdoor PROPERTIES TIMEOUT 600
  ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
# Every flit is required and counted, and the run reports the traffic's nic lower bound
# (traffic_lower_bound; `totex bound --model nic --traffic T` prints the same).
foreach(case "all2|all:2|480" "matrix|matrix:tests/cli/data/multiflit_torus4x4.txt|23" "perm|perm:transpose:3|36")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 traffic)
  list(GET parts 2 flits)
  add_test(NAME cli.sim_traffic_dynamic_count_${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${EXPECT} 0 "delivered" --jq ".passed and .mode==\"dynamic\" and .delivered==${flits} and .expected_delivered==${flits} and .traffic.flits==${flits} and .lower_bound>0 and .cycles>=.lower_bound and .reordered_flits>=0"
    -- ${TOTEX} sim --topo torus:4x4 --model nic --mode dynamic --traffic ${traffic} --engine systemc --json)
endforeach()
cli_test(sim_traffic_dynamic_text 0 "PASS, 23/23 flits delivered in [0-9]+ cycles .dynamic adaptive routing. traffic matrix:.*multiflit_torus4x4.txt, 23 flits. its nic lower bound [0-9]+."
  -- ${TOTEX} sim --topo torus:4x4 --model nic --mode dynamic --traffic matrix:${DATA}/multiflit_torus4x4.txt --engine systemc)
# Dimension-order routing keeps a pair's flits in order (one path, FIFOs): there the scoreboard
# also requires index order, and the run passes.
cli_test(sim_traffic_dynamic_dor_in_order 0 "PASS, 480/480"
  -- ${TOTEX} sim --topo torus:4x4 --model nic --mode dynamic --dynamic dor --traffic all:2 --engine rtl)
set_tests_properties(cli.sim_traffic_dynamic_dor_in_order PROPERTIES TIMEOUT 600
  ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
# `all` given explicitly is today's run: the same digest as no --traffic.
add_test(NAME cli.sim_traffic_dynamic_all_unchanged
  COMMAND bash -c "a=$(${TOTEX} sim --topo torus:4x4 --model nic --mode dynamic --engine systemc --json | jq -r .trace_sha256) && b=$(${TOTEX} sim --topo torus:4x4 --model nic --mode dynamic --traffic all --engine systemc --json | jq -r .trace_sha256) && echo \"$a $b\" && [ \"$a\" = cd289db863b48d9286ee27886040579ea0bccfd77f5bbfb047dd5bab23e1f7c7 ] && [ \"$a\" = \"$b\" ]")
# What is refused (exit 2, naming the flag): a send queue past its limit, and --traffic with a
# schedule file (the NICs send the traffic the file records).
cli_test(sim_traffic_dynamic_queue_limit 2 "--traffic all:5000: pair .0,1. sends 5000 flits, so every dynamic NIC's send queue would need .N - 1. x 5000 = 75000 slots. --mode dynamic builds at most 65536"
  -- ${TOTEX} sim --topo torus:4x4 --model nic --mode dynamic --traffic all:5000 --engine systemc)
cli_test(sim_traffic_dynamic_with_schedule 2 "--traffic and --schedule exclude each other in --mode dynamic"
  -- ${TOTEX} sim --schedule ${TRAFFIC_DIR}/direct_multi_nic_all2.sched --mode dynamic --traffic all:2 --engine systemc)
set_tests_properties(cli.sim_traffic_dynamic_with_schedule PROPERTIES FIXTURES_REQUIRED direct_multi_nic_all2)
# A schedule file's traffic: --mode dynamic sends it (all:2, 480 flits).
cli_test(sim_traffic_dynamic_schedule_file 0 "PASS, 480/480"
  -- ${TOTEX} sim --schedule ${TRAFFIC_DIR}/direct_multi_nic_all2.sched --mode dynamic --engine systemc)
set_tests_properties(cli.sim_traffic_dynamic_schedule_file PROPERTIES FIXTURES_REQUIRED direct_multi_nic_all2)

# totex sim --periods K on the TDM tiles with a traffic (one flit per pair and period): the tables of
# the traffic's periodic schedule (period 3 for both, run once every 6 slots: the tile's minimum is
# 5), every node offers only what its table injects, and the TDM scoreboard requires exactly K x the
# traffic's pairs (48 for groups:0, 9 for the matrix), from the traffic the file records. One digest
# on ref, rtl and systemc (the rtl model is tdm_nic_p4_w32_n4_d8, in the TDM tests' cache). The
# matrix is named by a relative path: the harnesses inherit the working directory.
add_test(NAME cli.sim_traffic_tdm_schedule_groups
  COMMAND ${TOTEX} schedule --topo torus:4x4 --model nic --traffic groups:0 --periodic --algo lines --budget 1
          -o ${TRAFFIC_DIR}/tdm_groups.sched)
add_test(NAME cli.sim_traffic_tdm_schedule_matrix WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  COMMAND ${TOTEX} schedule --topo torus:4x4 --model nic --traffic matrix:tests/cli/data/alltoallv_torus4x4.txt
          --periodic -o ${TRAFFIC_DIR}/tdm_matrix.sched)
foreach(name groups matrix)
  add_test(NAME cli.sim_traffic_tdm_engines_${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${CMAKE_SOURCE_DIR}/tests/cosim/same_digest.sh ${TOTEX} --schedule ${TRAFFIC_DIR}/tdm_${name}.sched
            --periods 3 -- ref rtl systemc)
  set_tests_properties(cli.sim_traffic_tdm_engines_${name} PROPERTIES TIMEOUT 600
    DEPENDS cli.sim_traffic_tdm_schedule_${name} ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
endforeach()
set_tests_properties(cli.sim_traffic_tdm_schedule_groups cli.sim_traffic_tdm_schedule_matrix
  PROPERTIES FIXTURES_SETUP tdm_traffic_schedules)
set_tests_properties(cli.sim_traffic_tdm_engines_groups cli.sim_traffic_tdm_engines_matrix
  PROPERTIES FIXTURES_REQUIRED tdm_traffic_schedules)
# The all-port tile (a lane per output) with the matrix: --periodic generated by every engine alike.
add_test(NAME cli.sim_traffic_tdm_engines_allport WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  COMMAND ${CMAKE_SOURCE_DIR}/tests/cosim/same_digest.sh ${TOTEX} --topo torus:4x4 --model all-port
          --traffic matrix:tests/cli/data/alltoallv_torus4x4.txt --periodic --periods 2 -- ref rtl systemc)
set_tests_properties(cli.sim_traffic_tdm_engines_allport PROPERTIES TIMEOUT 600
  ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
# The scoreboard's count and the period, and --periodic generating the schedule itself.
add_test(NAME cli.sim_traffic_tdm_periodic WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  COMMAND ${EXPECT} 0 "delivered" --jq
          ".passed and .delivered==18 and .expected_delivered==18 and .period==6 and .traffic.pairs==9" --
          ${TOTEX} sim --topo torus:4x4 --model nic --traffic matrix:tests/cli/data/alltoallv_torus4x4.txt --periodic
          --periods 2 --json)
# The scoreboard catches a lost delivery (node 0's first eject taken out of its table) on the rtl tiles.
add_test(NAME cli.sim_traffic_tdm_fault COMMAND ${EXPECT} 1 "node 0: message .1,0. of period 1 never arrived .expected in cycle 9."
  -- ${TOTEX} sim --schedule ${TRAFFIC_DIR}/tdm_groups.sched --periods 2 --engine rtl)
set_tests_properties(cli.sim_traffic_tdm_fault PROPERTIES TIMEOUT 600 FIXTURES_REQUIRED tdm_traffic_schedules
  ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache;TOTEX_TDM_FAULT=eject")
# The matrix sends node 0 nothing: the fault takes the first eject of the lowest node that ejects
# (node 1), never a no-op.
foreach(engine rtl systemc)
  add_test(NAME cli.sim_traffic_tdm_fault_matrix_${engine} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${EXPECT} 1 "node 1: message .0,1. of period 1 never arrived .expected in cycle 8."
    -- ${TOTEX} sim --schedule ${TRAFFIC_DIR}/tdm_matrix.sched --periods 2 --engine ${engine})
  set_tests_properties(cli.sim_traffic_tdm_fault_matrix_${engine} PROPERTIES TIMEOUT 600
    FIXTURES_REQUIRED tdm_traffic_schedules ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache;TOTEX_TDM_FAULT=eject")
endforeach()
# The pairs come from the traffic, never from the schedule under test: the matrix's schedule
# relabelled as made for alltoallv_torus4x4_other.txt (7->8 replaced by 3->12; its digest) and run
# --unverified fails on every engine, naming both the pair it delivers and the pair it never does.
set(OTHER_SHA 47a2ba82a356f749d3d23ad4aafe2d080b1ac8a5a0368d1d64eca87461527c03)
foreach(engine ref rtl systemc)
  set(other ${TRAFFIC_DIR}/tdm_other_${engine}.sched)
  add_test(NAME cli.sim_traffic_tdm_other_${engine} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND sh -c "sed 's|^traffic .*|traffic 9 ${OTHER_SHA} matrix:tests/cli/data/alltoallv_torus4x4_other.txt|' ${TRAFFIC_DIR}/tdm_matrix.sched > ${other} && ${EXPECT} 1 'node 8: message .7,8. is not a message of this exchange' -- $0 sim --schedule ${other} --periods 2 --unverified --engine ${engine} && ${EXPECT} 1 'node 12: message .3,12. of period 1 never arrived .the schedule never delivers it.' -- $0 sim --schedule ${other} --periods 2 --unverified --engine ${engine}"
            ${TOTEX})
  set_tests_properties(cli.sim_traffic_tdm_other_${engine} PROPERTIES TIMEOUT 600 FIXTURES_REQUIRED tdm_traffic_schedules
    ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
endforeach()
# Multi-flit traffic on the nic tiles (the NIC queue, docs/tdm-tile.md "Traffic"): every flit
# (s,d)#f checked on every engine, one digest. all:2 (two flits per pair, each destination's slots
# a half period apart), a sparse matrix of 1-5 flits per pair (period 9: a pair's flits in slots
# close together), the transpose with 8 flits per pair (period 8: every slot of a node injects to
# one destination, back to back), and a schedule file (perm:transpose:2). rtl models
# tdm_nic_p4_w32_n4_d*_q* (built on first use into the TDM tests' cache).
foreach(traffic "all:2" "matrix:tests/cli/data/multiflit_torus4x4.txt" "perm:transpose:8")
  string(REGEX REPLACE "[^a-z0-9]+" "_" name "${traffic}")
  add_test(NAME cli.sim_traffic_tdm_multi_${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${CMAKE_SOURCE_DIR}/tests/cosim/same_digest.sh ${TOTEX} --topo torus:4x4 --model nic --traffic ${traffic}
            --periodic --periods 3 -- ref rtl systemc)
  set_tests_properties(cli.sim_traffic_tdm_multi_${name} PROPERTIES TIMEOUT 600
    ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
endforeach()
# The count is the traffic's flits (2 + 4 + 1 + 3 x 3 + 5 + 1 + 1 = 23 a period) and the queue
# holds the most flits of one pair (5, rounded up to 8).
add_test(NAME cli.sim_traffic_tdm_multi_count WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  COMMAND ${EXPECT} 0 "delivered" --jq ".passed and .delivered==46 and .expected_delivered==46 and .traffic.flits==23" --
          ${TOTEX} sim --topo torus:4x4 --model nic --traffic matrix:tests/cli/data/multiflit_torus4x4.txt --periodic
          --periods 2 --json)
add_test(NAME cli.sim_traffic_tdm_schedule_multi COMMAND ${TOTEX} schedule --topo torus:4x4 --model nic
  --traffic perm:transpose:2 --periodic -o ${TRAFFIC_DIR}/tdm_transpose2.sched)
add_test(NAME cli.sim_traffic_tdm_multi_file
  COMMAND ${CMAKE_SOURCE_DIR}/tests/cosim/same_digest.sh ${TOTEX} --schedule ${TRAFFIC_DIR}/tdm_transpose2.sched
          --periods 2 -- ref rtl systemc)
set_tests_properties(cli.sim_traffic_tdm_multi_file PROPERTIES TIMEOUT 600
  ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
set_tests_properties(cli.sim_traffic_tdm_schedule_multi PROPERTIES FIXTURES_SETUP tdm_traffic_multi)
set_tests_properties(cli.sim_traffic_tdm_multi_file PROPERTIES FIXTURES_REQUIRED tdm_traffic_multi)
# rtl and systemc agree delivery by delivery on the multi-flit matrix, clean and with faults (a lost
# eject: both name the flit; pauses: both pass).
foreach(fault none eject pauses)
  add_test(NAME cli.sim_traffic_tdm_multi_agree_${fault} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${CMAKE_SOURCE_DIR}/tests/tdm/tdm_agree.sh ${TOTEX} torus:4x4 nic 2 ${fault}
            --traffic matrix:tests/cli/data/multiflit_torus4x4.txt --periodic)
  set_tests_properties(cli.sim_traffic_tdm_multi_agree_${fault} PROPERTIES TIMEOUT 600
    ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
endforeach()
# The scoreboard names the lost flit (s,d)#k (node 1's first eject taken out of its table).
foreach(engine rtl systemc)
  add_test(NAME cli.sim_traffic_tdm_multi_lost_${engine} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${EXPECT} 1 "node 1: flit .0,1.#0 of period 1 never arrived .expected in cycle 12."
    -- ${TOTEX} sim --topo torus:4x4 --model nic --traffic matrix:tests/cli/data/multiflit_torus4x4.txt --periodic
       --periods 2 --engine ${engine})
  set_tests_properties(cli.sim_traffic_tdm_multi_lost_${engine} PROPERTIES TIMEOUT 600
    ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache;TOTEX_TDM_FAULT=eject")
endforeach()
# Multi-flit traffic on the all-port and single-port tiles (their NIC lanes are queues too,
# docs/tdm-tile.md "Traffic"): all:2 (periodic) and the 1-5 flit matrix (one-shot schedule, folded)
# on ref, rtl and systemc with one digest. The all-port matrix has pairs whose flits leave on
# different links (lanes). rtl models tdm_allport_* / tdm_single_* with _q2 and _q8.
foreach(model all-port single-port)
  foreach(traffic "all:2" "matrix:tests/cli/data/multiflit_torus4x4.txt")
    string(REGEX REPLACE "[^a-z0-9]+" "_" name "${model}_${traffic}")
    set(periodic "")
    if(traffic STREQUAL "all:2")
      set(periodic "--periodic")
    endif()
    add_test(NAME cli.sim_traffic_tdm_multi_${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
      COMMAND ${CMAKE_SOURCE_DIR}/tests/cosim/same_digest.sh ${TOTEX} --topo torus:4x4 --model ${model}
              --traffic ${traffic} ${periodic} --periods 2 -- ref rtl systemc)
    set_tests_properties(cli.sim_traffic_tdm_multi_${name} PROPERTIES TIMEOUT 600
      ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
  endforeach()
  # rtl and systemc agree delivery by delivery with a lost eject (both name the flit).
  add_test(NAME cli.sim_traffic_tdm_multi_agree_eject_${model} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${CMAKE_SOURCE_DIR}/tests/tdm/tdm_agree.sh ${TOTEX} torus:4x4 ${model} 2 eject
            --traffic matrix:tests/cli/data/multiflit_torus4x4.txt)
  set_tests_properties(cli.sim_traffic_tdm_multi_agree_eject_${model} PROPERTIES TIMEOUT 600
    ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
  # Every flit counted (23 a period), m_axis_tlast checked on the pair's last flit.
  add_test(NAME cli.sim_traffic_tdm_multi_count_${model} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${EXPECT} 0 "delivered" --jq ".passed and .delivered==46 and .expected_delivered==46 and .traffic.flits==23" --
            ${TOTEX} sim --topo torus:4x4 --model ${model} --traffic matrix:tests/cli/data/multiflit_torus4x4.txt
            --periods 2 --engine systemc --json)
  set_tests_properties(cli.sim_traffic_tdm_multi_count_${model} PROPERTIES TIMEOUT 600)
endforeach()
# What stays refused (exit 2, on every engine, before anything runs): a schedule that delivers the
# flits one all-port NIC lane sends out of their order (a hand-written ring:4 schedule: (0,2)#0 and
# #1 both leave towards node 1, #0 turns back and arrives last).
foreach(engine ref rtl systemc)
  add_test(NAME cli.sim_traffic_tdm_multi_lane_order_${engine} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMAND ${EXPECT} 2 "flits .0,2.#1 and .0,2.#0 leave node 0 on output port 0 in steps 1 and 0 but arrive in steps 3 and 4: the all-port TDM tile's NIC lane keeps a pair's flits in order"
    -- ${TOTEX} sim --schedule tests/cli/data/multiflit_ring4_lane_order.sched --periods 1 --engine ${engine})
endforeach()
# A Poseidon communication spec names its network: without --topo the platform is the topology
# (graph:FILE.xml, here the bitorus torus:4x4); 2x2 + 2 + 2 + 3x2 + 1 = 15 flits a period.
cli_test(schedule_traffic_poseidon_platform 0 "period"
  --jq ".verified and .periodic and .traffic.flits==15 and (.topology|startswith(\"graph:\")) and .period>=.period_bound" --
  ${TOTEX} schedule --model nic --traffic poseidon:${DATA}/poseidon_bitorus4x4.xml --periodic --json)
cli_test(schedule_no_topo 2 "the spec is empty. accepted: .*or --traffic poseidon:FILE.xml, whose platform names the network"
  -- ${TOTEX} schedule --model nic --traffic random:1:0.5:2)

# totex fpga --traffic: the tile tables of the traffic's periodic schedule (no synthesis here), the
# recorded traffic of a schedule file verified, more than one flit per pair and period refused.
add_test(NAME cli.fpga_traffic_tables WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  COMMAND ${EXPECT} 0 "tables" --jq ".period==6 and .depth==8 and .traffic.pairs==9 and (.tables|length)==16" --
          ${TOTEX} fpga --topo torus:4x4 --model nic --traffic matrix:tests/cli/data/alltoallv_torus4x4.txt
          --tables-out ${TRAFFIC_DIR}/fpga_matrix --json)
add_test(NAME cli.fpga_traffic_schedule_file
  COMMAND ${EXPECT} 0 "tables" --jq ".period==6 and .traffic.spec==\"groups:0\"" --
          ${TOTEX} fpga --schedule ${TRAFFIC_DIR}/tdm_groups.sched --tables-out ${TRAFFIC_DIR}/fpga_groups --json)
set_tests_properties(cli.fpga_traffic_schedule_file PROPERTIES FIXTURES_REQUIRED tdm_traffic_schedules)
# Multi-flit traffic: the NIC queue sized from the schedule (the most flits of one pair per period,
# rounded up to a power of two: 4 for the MoE's node 5 -> 36, 2 for the transpose), the entry one
# bit wider (its last bit: 5 x 3 + 2 x 6 + 1 = 28 on torus:8x8; 5 x 3 + 2 x 4 + 1 = 24 on torus:4x4).
cli_test(fpga_traffic_multi_flit 0 "tables" --jq ".queue_depth==4 and .entry_bits==28"
  -- ${TOTEX} fpga --topo torus:8x8 --model nic --traffic moe:16:2:8:1 --tables-out ${TRAFFIC_DIR}/fpga_moe --json)
cli_test(fpga_traffic_multi_file 0 "tables" --jq ".queue_depth==2 and .entry_bits==24"
  -- ${TOTEX} fpga --schedule ${TRAFFIC_DIR}/tdm_transpose2.sched --tables-out ${TRAFFIC_DIR}/fpga_transpose2 --json)
# ... and on the all-port tile (a last bit per input link: 4 x 3 + 4 + 2 x 4 x 4 + 4 = 52; the lane
# of every flit, as a pair's flits may leave on different links) and the single-port tile (one last
# bit: 2 x 3 + 4 + 2 x 4 + 2 x 4 + 1 = 27 with its 16-word relay buffer).
cli_test(fpga_traffic_multi_allport 0 "tables"
  --jq ".queue_depth==2 and .entry_bits==52 and .kind==\"all-port\" and (.flit_lanes|length)==16" --
  ${TOTEX} fpga --topo torus:4x4 --model all-port --traffic all:2 --tables-out ${TRAFFIC_DIR}/fpga_allport2 --json)
cli_test(fpga_traffic_multi_single 0 "tables"
  --jq ".queue_depth==2 and .entry_bits==27 and .kind==\"single-port\" and .buffer_words==16" --
  ${TOTEX} fpga --topo torus:4x4 --model single-port --traffic all:2 --tables-out ${TRAFFIC_DIR}/fpga_single2 --json)
set_tests_properties(cli.fpga_traffic_multi_file PROPERTIES FIXTURES_REQUIRED tdm_traffic_multi)
cli_test(fpga_traffic_and_schedule 2 "--traffic and --schedule exclude each other"
  -- ${TOTEX} fpga --schedule ${TRAFFIC_DIR}/tdm_groups.sched --traffic groups:0 --tables-out ${TRAFFIC_DIR}/fpga_x)
set_tests_properties(cli.fpga_traffic_and_schedule PROPERTIES FIXTURES_REQUIRED tdm_traffic_schedules)
# A degraded torus: list repairs the base network's schedule (docs/traffic.md, "Schedules"):
# Rows and transposes on a degraded torus are named in the base network's coordinates: groups:0
# is every row's all-to-all (a failed node in none of them), perm:transpose runs with a failed
# link and is refused with a failed node.
cli_test(schedule_degraded_groups 0 "torus:8x8~fail:0-1, nic, traffic groups:1 \\(448 flits, 448 pairs\\), list: 9 steps \\(lower bound 9, .*optimal"
  -- ${TOTEX} schedule --topo torus:8x8~fail:0-1 --model nic --traffic groups:1)
cli_test(schedule_degraded_groups_failed_node 0 "traffic groups:0 \\(42 flits, 42 pairs\\), .*verified"
  -- ${TOTEX} schedule --topo torus:4x4~fail:5 --model nic --traffic groups:0)
cli_test(schedule_degraded_transpose 0 "traffic perm:transpose:2 \\(112 flits, 56 pairs\\), list: 9 steps \\(lower bound 9, .*optimal"
  -- ${TOTEX} schedule --topo torus:8x8~fail:0-1 --model nic --traffic perm:transpose:2)
cli_test(schedule_degraded_transpose_failed_node 2 "perm:transpose needs a square 2-D network with a processor at every node .* torus:4x4~fail:5 is not one"
  -- ${TOTEX} schedule --topo torus:4x4~fail:5 --model nic --traffic perm:transpose)
# torus:6x6~fail:0-1 all-port reaches the bound 30 (pairwise: 32; measured 2026-11-29).
cli_test(schedule_degraded_repair 0 "torus:6x6~fail:0-1, all-port, list: 30 steps \\(lower bound 30, optimal"
  -- ${TOTEX} schedule --topo torus:6x6~fail:0-1 --model all-port)
# sim too takes the network from the Poseidon file (2-phit channels: up to 6 flits per pair, which
# the direct routers carry as flits of their own).
cli_test(sim_traffic_poseidon_platform 0 "on ref: PASS, 15/15 flits delivered"
  -- ${TOTEX} sim --model nic --traffic poseidon:${DATA}/poseidon_bitorus4x4.xml)
# ... and runs on the nic TDM tiles (their NIC queue): one digest on ref, rtl and systemc.
add_test(NAME cli.sim_traffic_tdm_multi_poseidon
  COMMAND ${CMAKE_SOURCE_DIR}/tests/cosim/same_digest.sh ${TOTEX} --model nic
          --traffic poseidon:${DATA}/poseidon_bitorus4x4.xml --periodic --periods 2 -- ref rtl systemc)
set_tests_properties(cli.sim_traffic_tdm_multi_poseidon PROPERTIES TIMEOUT 600
  ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")

# Any traffic on a MIN (min_traffic.hpp, docs/traffic.md "On a MIN"): the gather binds at 12
# configurations + 1 pipeline cycle (hand-computed: terminal 0 receives 12 flits), met and proven.
cli_test(bound_min_traffic_gather 0 "lower_bound"
  --jq ".lower_bound==13 and ([.bounds[]|select(.name==\"nic_ejection\" or .name==\"switch_states\")|.value]==[12,12]) and ([.bounds[]|select(.name==\"pipeline\")][0].value==1) and .binding==\"nic_ejection, switch_states + pipeline\"" --
  ${TOTEX} bound --topo min:16:4 --traffic matrix:${DATA}/gather_scatter_min16.txt --json)
cli_test(schedule_min_traffic_gather 0 "proven_optimal"
  --jq ".algorithm==\"min-traffic\" and .steps==13 and .lower_bound==13 and .proven_optimal==true and .delivered==20 and .expected_delivered==20" --
  ${TOTEX} schedule --topo min:16:4 --traffic matrix:${DATA}/gather_scatter_min16.txt --json)
cli_test(schedule_min_traffic_all3 0 "min-traffic: 191 steps, 189 configurations .lower bound 191, .*optimal: meets the lower bound 191., verified"
  -- ${TOTEX} schedule --topo min:64:4 --traffic all:3)
# The file records its traffic: verify reads it again, and a --traffic naming another fails (exit 1),
# and plot draws a traffic file against its traffic's bound (a MIN's and a periodic torus file).
add_test(NAME cli.min_traffic_file
  COMMAND sh -c "set -e; d=$(mktemp -d); trap 'rm -rf $d' EXIT
    $0 schedule --topo min:16:2 --traffic random:5:0.3:3 -o $d/r.cfg > /dev/null
    $0 verify $d/r.cfg | grep -q 'verified, .* flits delivered, traffic random:5:0.3:3'
    ! $0 verify $d/r.cfg --traffic random:6:0.3:3 > $d/out
    grep -q \"schedule is for traffic 'random:5:0.3:3', not 'random:6:0.3:3'\" $d/out
    $0 sim --schedule $d/r.cfg --engine ref | grep -q 'PASS, .* flits delivered'
    lb=$($0 bound --topo min:16:2 --traffic random:5:0.3:3 --json | jq .lower_bound)
    $0 plot $d/r.cfg --kind heatmap -o $d/h.svg --json | jq -e \".lower_bound == $lb\" > /dev/null
    $0 schedule --topo torus:4x4 --model nic --traffic random:5:0.3:3 --periodic -o $d/p.sched > /dev/null
    pb=$($0 bound --topo torus:4x4 --model nic --traffic random:5:0.3:3 --periodic --json | jq .period_bound)
    $0 plot $d/p.sched --kind heatmap -o $d/p.svg --json | jq -e \".lower_bound == $pb\" > /dev/null" ${TOTEX})
cli_test(schedule_min_traffic_periodic 2 "--periodic: applies to direct networks. a MIN's configurations run once"
  -- ${TOTEX} schedule --topo min:16:4 --traffic random:1:0.3:2 --periodic)
cli_test(sim_min_traffic_computed 2 "--min-mode computed derives paper 002's N configurations from M.0. a traffic's configurations need --min-mode table"
  -- ${TOTEX} sim --topo min:16:4 --traffic random:1:0.3:2 --min-mode computed)
cli_test(plot_min_traffic 0 "lower bound 13 under nic .nic_ejection, switch_states . pipeline."
  -- ${TOTEX} plot --topo min:16:4 --kind traffic --traffic matrix:${DATA}/gather_scatter_min16.txt -o ${CMAKE_CURRENT_BINARY_DIR}/min_traffic.svg)
# Every engine carries a multi-flit traffic through the MIN with one digest (RTL: the repeat
# control register turns the NICs' received-from check off; the scoreboard checks every flit).
foreach(spec "min:16:4" "min:8:2:baseline")
  string(REGEX REPLACE "[^a-z0-9]+" "_" name "${spec}")
  add_test(NAME cli.sim_min_traffic_engines_${name}
    COMMAND ${CMAKE_SOURCE_DIR}/tests/cosim/same_digest.sh ${TOTEX} --topo ${spec} --traffic random:2:0.4:3
            -- ref rtl systemc cosim)
  set_tests_properties(cli.sim_min_traffic_engines_${name} PROPERTIES TIMEOUT 900
    ENVIRONMENT "TOTEX_CACHE_DIR=${CMAKE_BINARY_DIR}/rtl-cache")
endforeach()

# One-way links (a Poseidon custom platform: the ring 0 -> 1 -> 3 -> 2 -> 0). `all` there is the
# traffic all:1 (the all generators assume links both ways): 24 link crossings on 4 links, so
# period 6 is the bound, met and proven; verify and the ref engine take the file, the router RTL,
# the TDM tiles, failures and the one-shot exact search refuse the network.
set(ONE_WAY ${DATA}/platform_one_way_ring.xml)
cli_test(one_way_bound 0 "lower_bound"
  --jq ".lower_bound==6 and .traffic.spec==\"all:1\" and (.binding|contains(\"link_traversals\"))" --
  ${TOTEX} bound --topo graph:${ONE_WAY} --model nic --json)
cli_test(one_way_schedule 0 "written to"
  -- ${TOTEX} schedule --topo graph:${ONE_WAY} --model nic --periodic -o ${TRAFFIC_DIR}/one_way.sched)
set_tests_properties(cli.one_way_schedule PROPERTIES FIXTURES_SETUP one_way_sched)
cli_test(one_way_verify 0 "verified, 6 steps, 12/12 flits delivered, traffic all:1"
  -- ${TOTEX} verify ${TRAFFIC_DIR}/one_way.sched)
cli_test(one_way_sim_ref 0 "on ref: PASS, 12/12 flits delivered in 6 cycles"
  -- ${TOTEX} sim --schedule ${TRAFFIC_DIR}/one_way.sched --engine ref)
cli_test(one_way_sim_rtl 2 "has one-way links, and the router RTL and its SystemC model .* assume links both ways"
  -- ${TOTEX} sim --schedule ${TRAFFIC_DIR}/one_way.sched --engine rtl)
set_tests_properties(cli.one_way_verify cli.one_way_sim_ref cli.one_way_sim_rtl PROPERTIES FIXTURES_REQUIRED one_way_sched)
cli_test(one_way_periodic_optimal 0 "period 6 \\(period bound 6.*optimal: meets the lower bound"
  -- ${TOTEX} schedule --topo graph:${ONE_WAY} --model all-port --periodic)
cli_test(one_way_tdm 2 "the TDM tiles assume links both ways"
  -- ${TOTEX} sim --topo graph:${ONE_WAY} --model nic --periodic --periods 2)
cli_test(one_way_fail 2 "failures .* assume links both ways"
  -- ${TOTEX} bound --topo graph:${ONE_WAY} --fail 0-1 --model nic)
cli_test(one_way_exact_one_shot 2 "--algo exact needs links both ways"
  -- ${TOTEX} schedule --topo graph:${ONE_WAY} --model nic --algo exact)
cli_test(one_way_undeliverable 2 "traffic perm:shift:1 cannot be delivered|cannot be reached"
  -- ${TOTEX} bound --topo graph:${DATA}/platform_one_way.xml --model nic --traffic perm:shift:1)

# Poseidon's greedy (farthest first, every shortest path at the earliest start) as the one-shot
# start where links bind: torus:12x12 random:1:0.7:2 at --budget 1, 270 steps against the priority
# orders' 300, shortened to 260 (bound 228; measured 2026-11-30).
cli_test(schedule_traffic_every_path_greedy 0 "steps"
  --jq ".verified and .steps <= 260 and .steps >= .lower_bound and (.search|map(capture(\"greedy over every shortest path, farthest first: (?<g>[0-9]+) steps .[0-9]+ look-ups.. the priority orders: (?<o>[0-9]+) .[0-9]+.. the greedy.s kept\"))|length==1 and (.[0].g|tonumber) < (.[0].o|tonumber) and (.[0].g|tonumber) <= 270)" --
  ${TOTEX} schedule --topo torus:12x12 --model nic --traffic random:1:0.7:2 --budget 1 --json)
# Not where the work suffices (5,000 look-ups or more per hop the traffic needs): torus:8x8
# random:1:0.1:2, 641 flits at the default 4 s, has no greedy start.
cli_test(schedule_traffic_no_greedy_start 0 "steps"
  --jq ".verified and (.search|map(select(test(\"greedy over every shortest path\")))|length==0) and (.search|map(select(test(\"^list: priority orders\")))|length==1)" --
  ${TOTEX} schedule --topo torus:8x8 --model nic --traffic random:1:0.1:2 --json)
# The periodic list search's local SAT repair (docs/traffic.md, "Schedules"): mesh:5x5 single-port
# random:2:0.5:3 stalls at period 96 with 2 flits in conflict; the repair places them, and the
# descent goes on to 94 (bound 86), verified (4 s). Until 2026-11-30 mesh:8x8 random:6:0.3:8 showed
# it, until 2026-12-01 torus:5x5 all-port perm:transpose:8 at its bound 6: since the one-shot list
# places over every direction where shortest paths cannot meet the bound, its start is 7, not 8,
# and the negotiation fits 6 itself.
cli_test(schedule_traffic_local_sat_repair 0 "period"
  --jq ".period==94 and .period_bound==86 and .verified and (.search|any(test(\"^list: period 96 fits \\\\(a local SAT repair of the 2 flits\")))" --
  ${TOTEX} schedule --topo mesh:5x5 --model single-port --traffic random:2:0.5:3 --periodic --json)
# route-sat's first stage, the congestion LP's paths: torus:6x6 perm:transpose:8 at its bound 8,
# proven (`--algo route-sat`: under auto the list's first try at the bound fits since 2026-11-30).
cli_test(schedule_traffic_lp_routes 0 "period"
  --jq ".period==8 and .period_bound==8 and .proven_optimal and .verified and .algorithm==\"periodic-route-sat\" and (.search|any(test(\"^route-sat: period 8: LP routes SAT\")))" --
  ${TOTEX} schedule --topo torus:6x6 --model nic --traffic perm:transpose:8 --periodic --algo route-sat --json)
# The LP's flows with the fewest crossings among its optima: torus:6x6 perm:shift:3:4 at its bound
# 6, proven (the first optimum's paths: UNSAT).
cli_test(schedule_traffic_lp_routes_fewest_hops 0 "period"
  --jq ".period==6 and .period_bound==6 and .proven_optimal and .verified and (.search|any(test(\"^route-sat: period 6: LP routes SAT\")))" --
  ${TOTEX} schedule --topo torus:6x6 --model nic --traffic perm:shift:3:4 --periodic --algo route-sat --json)
# route-sat's stage over paths one way round each ring, in the directions a negotiation chose:
# torus:16x16 perm:transpose:2 at period 6 (negotiation 1 fits); where no negotiation fits, one
# SAT model over the directions of all of them: at its bound 5, proven (about 5 s; with a quarter
# of the work for each negotiation's own directions it stayed unknown, 6 then; 2026-11-30). The
# two-turn ILP stage before it passes its size limit here.
cli_test(schedule_traffic_route_sat_union_directions 0 "period"
  --jq ".period==5 and .period_bound==5 and .proven_optimal and .verified and (.search|any(test(\"^route-sat: period 6: .*translation-invariant paths one way round each ring: negotiation [0-9]+ fits\"))) and (.search|any(test(\"^route-sat: period 5: .*two-turn paths \\\\(ILP\\\\): about [0-9]+ nonzeros, more than 60000.*one way round each ring, the directions of 4 negotiations SAT\")))" --
  ${TOTEX} schedule --topo torus:16x16 --model nic --traffic perm:transpose:2 --periodic --algo route-sat --json)
# route-sat's two-turn stage: every pair's paths with at most two turns every way round each ring,
# one pair per translation orbit, a 0-1 program solved by CBC. torus:16x16 perm:shift:5:2 at its
# bound 7, proven: 22 of a row's 32 flits go 5 hops one way, 10 go 11 hops the other way round
# (the LP routes' SAT model stays unknown after about 97,000 conflicts; the list reaches 9, the
# other stages 8). torus:8x8 perm:transpose:4 at its bound 5 with --algo route-sat.
cli_test(schedule_traffic_route_sat_two_turn_shift 0 "period"
  --jq ".period==7 and .period_bound==7 and .proven_optimal and .verified and .algorithm==\"periodic-route-sat\" and (.search|any(test(\"^route-sat: period 7: .*translation-invariant two-turn paths \\\\(ILP\\\\) SAT, [0-9]+ nonzeros\")))" --
  ${TOTEX} schedule --topo torus:16x16 --model nic --traffic perm:shift:5:2 --periodic --json)
cli_test(schedule_traffic_route_sat_two_turn_transpose 0 "period"
  --jq ".period==5 and .period_bound==5 and .proven_optimal and .verified and (.search|any(test(\"^route-sat: period 5: .*translation-invariant two-turn paths \\\\(ILP\\\\) SAT\")))" --
  ${TOTEX} schedule --topo torus:8x8 --model nic --traffic perm:transpose:4 --periodic --algo route-sat --json)
# One-shot, where shortest paths alone cannot meet the bound (the congestion LP over them: 28 on
# torus:16x16 perm:transpose:8, bound 23), the list negotiates the horizons up to 28 over every
# path each way round each ring: 26 steps (29 on shortest paths).
cli_test(schedule_traffic_list_every_direction 0 "steps"
  --jq ".steps==26 and .lower_bound==23 and .verified and .algorithm==\"list\" and (.search|any(test(\"^list: shortest paths alone load a link 28 times at least .*horizons up to 28 over every path each way round each ring\")))" --
  ${TOTEX} schedule --topo torus:16x16 --model nic --traffic perm:transpose:8 --algo list --json)
# The periodic list's first try at the bound when the one-shot schedule is more than 5 % above it:
# the negotiation from the balanced routes' greedy placement (kColdBoundShare). mesh:6x6
# perm:transpose:8 at its bound 13, proven (14 without it: the descent's starts stall at 13).
cli_test(schedule_traffic_periodic_cold_bound 0 "period"
  --jq ".period==13 and .period_bound==13 and .proven_optimal and .verified and .algorithm==\"periodic-list\" and (.search|.[1]==\"list: period 13 fits\")" --
  ${TOTEX} schedule --topo mesh:6x6 --model nic --traffic perm:transpose:8 --periodic --json)
# ... and refused before it is built where its model would pass route-sat's size limit (b10x10
# Poseidon sets took 21 GB before the check).
cli_test(schedule_traffic_lp_routes_size_limit 2 "LP routes: size limit: about [0-9]+ clauses, more than 4000000"
  -- ${TOTEX} schedule --topo torus:8x8 --model nic --traffic random:1:0.5:8 --periodic --algo route-sat)

# route-sat's path-graph models (every path of a pair at once, one pair per translation orbit):
# torus:16x16 perm:transpose at its period bound 3 (the congestion LP's), which no invariant
# schedule on shortest paths reaches; one-shot torus:8x8 perm:shift:3:4 in 9 steps (the list: 11).
# The periodic one (paths up to 2 hops longer, SAT) is now reached first on paths one way round
# each ring, in negotiated directions: the stage before the path graphs. (torus:8x8
# perm:transpose:4 at 5, here until 2026-12-01, is now the two-turn stage's.)
cli_test(schedule_traffic_path_graph_transpose 0 "\"proven_optimal\": true"
  --jq ".period==3 and .period_bound==3 and .verified and .algorithm==\"periodic-route-sat\" and (.search|any(test(\"^route-sat: period 3: .*translation-invariant paths one way round each ring: negotiation [0-9]+ fits\")))" --
  ${TOTEX} schedule --topo torus:16x16 --model nic --traffic perm:transpose --periodic --json)
cli_test(schedule_traffic_path_graph_one_shot 0 "\"verified\": true"
  --jq ".steps==9 and .periodic==false and (.search|any(test(\"^route-sat: 9: .*translation-invariant paths up to 2 hops longer SAT\")))" --
  ${TOTEX} schedule --topo torus:8x8 --model nic --traffic perm:shift:3:4 --algo route-sat --json)
# split: perm:shift:3:4 is 4 x perm:shift:3, whose period 2 (route-sat) four times over is the
# period bound 8 (the list alone: 9); every flit checked by the periodic verifier.
cli_test(schedule_traffic_split 0 "\"proven_optimal\": true"
  --jq ".period==8 and .period_bound==8 and .verified and .algorithm==\"periodic-split\" and (.search|any(test(\"^split: 4 x the period-2 \")))" --
  ${TOTEX} schedule --topo torus:8x8 --model nic --traffic perm:shift:3:4 --periodic --algo split --json)
cli_test(schedule_traffic_split_needs_factor 2 "--algo split needs --periodic, flits per pair with a common factor"
  -- ${TOTEX} schedule --topo torus:8x8 --model nic --traffic perm:shift:3:4 --algo split)
# The time-expanded LP (one-shot fill and drain on top of the congestion): torus:8x8
# perm:shift:3:4 in 8 steps is proven too few (the congestion LP's bound), so route-sat's 9 is
# optimal; ring:8 perm:shift:3:2 in 4 steps too few (hand-checked in docs/traffic.md).
cli_test(bound_traffic_time_expanded 0 "time_expanded_lp >= 5  \\(4 steps too few: .*certified by its dual lengths"
  -- ${TOTEX} bound --topo ring:8 --model nic --traffic perm:shift:3:2)
cli_test(schedule_traffic_time_expanded_optimal 0 "\"proven_optimal\": true"
  --jq ".steps==9 and .lower_bound==9 and .binding==\"time_expanded_lp\" and .verified" --
  ${TOTEX} schedule --topo torus:8x8 --model nic --traffic perm:shift:3:4 --json)
