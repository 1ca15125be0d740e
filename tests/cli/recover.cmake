# Recovery from a stuck link (issue 47 item 4, docs/tdm-runs.md "Recovery from a stuck link"):
# `totex sim --periods K --fault-at PERIOD:A-B --recover`. Included from tests/cli/CMakeLists.txt
# (EXPECT, TOTEX, cli_test).
#
# Each run checks itself: the rtl and systemc harnesses compare their deliveries with the reference
# model's (run_recovery_reference) one by one, plus the link the counters named, STATUS, missed_o,
# error_o and the link counters (sim/recover_check.hpp; rtl also the arm's handshake cycle); the
# ref engine checks the model against the healthy and the degraded schedules. Here: the run passes, the counters named the stuck link, every lost message
# is named, the digest of the periods after the swap is the model's, and the degraded period is at
# least its bound.
set(RECOVER_OK ".passed and .recovery.lost_count > 0 and (.recovery.lost|length)==.recovery.lost_count and .recovery.digest_after_swap==.recovery.digest_after_swap_ref and .recovery.digest_before_fault==.recovery.digest_before_fault_ref and .recovery.degraded_period >= .recovery.degraded_bound and .recovery.swap_period > .recovery.detected_period and .delivered + .recovery.lost_count == .periods * 240")
# The degraded schedule is the periodic generators' (periodic_schedule, auto) and its bound the
# periodic bound: measured 2026-11-29, torus:4x4~fail 16 slots (bound 15), torus:8x8~fail:27-28 and
# ~fail:0-1 71 (bound 69, periodic-list; one period's routes span 77 steps: they cross the period
# boundary).
set(RECOVER_OK_8x8 "${RECOVER_OK}")
string(REPLACE ".periods * 240" ".periods * 4032" RECOVER_OK_8x8 "${RECOVER_OK_8x8}")
foreach(engine ref rtl systemc)
  # No rotation keeps the NIC's spacing across the swap (17 -> 16 slots, every slot but one
  # injects): one idle period under the new table, its inject slots counted by missed_o.
  cli_test(recover_4x4_${engine} 0 "\"passed\": true"
    --jq "${RECOVER_OK} and .recovery.detected_link==\"0-1\" and .recovery.degraded_period==16 and .recovery.degraded_bound==15 and .recovery.degraded_budget==0.5 and .recovery.idle_transition==true and .recovery.new_start==.recovery.swap_cycle+.recovery.degraded_period" --
    ${TOTEX} sim --topo torus:4x4 --model nic --periods 8 --fault-at 2:0-1 --recover --recover-budget 0.5 --engine ${engine} --json)
  # Another link, away from node 0 (ports renumbered at nodes 5 and 6).
  cli_test(recover_4x4_idle_${engine} 0 "\"passed\": true"
    --jq "${RECOVER_OK} and .recovery.detected_link==\"5-6\" and .recovery.idle_transition==true and .recovery.new_start==.recovery.swap_cycle+.recovery.degraded_period" --
    ${TOTEX} sim --topo torus:4x4 --model nic --periods 8 --fault-at 2:6-5 --recover --recover-budget 0.5 --engine ${engine} --json)
  # torus:8x8 (67 -> 71 slots, a wrapping schedule; on link 0-1 no rotation is needed), the
  # degraded search at --recover-budget 1 (the same period 71 as at the default, in about a third
  # of the time, measured 2026-12-02); degraded_budget shows the harness's controller planned with it.
  cli_test(recover_8x8_${engine} 0 "\"passed\": true"
    --jq "${RECOVER_OK_8x8} and .recovery.detected_link==\"0-1\" and .recovery.degraded_algorithm==\"periodic-list\" and .recovery.degraded_period==71 and .recovery.degraded_bound==69 and .recovery.degraded_budget==1 and .recovery.degraded_steps > .recovery.degraded_period and .recovery.rotation==0 and .recovery.idle_transition==false" --
    ${TOTEX} sim --topo torus:8x8 --model nic --periods 10 --fault-at 3:0-1 --recover --recover-budget 1 --engine ${engine} --json)
  # A rotated wrapping table (link 1-2: by 1 slot at --recover-budget 1 and at the default, as
  # measured 2026-12-02): the messages moved across the period boundary.
  cli_test(recover_8x8_rotated_${engine} 0 "\"passed\": true"
    --jq "${RECOVER_OK_8x8} and .recovery.detected_link==\"1-2\" and .recovery.degraded_budget==1 and .recovery.degraded_steps > .recovery.degraded_period and .recovery.rotation > 0 and .recovery.idle_transition==false" --
    ${TOTEX} sim --topo torus:8x8 --model nic --periods 10 --fault-at 3:1-2 --recover --recover-budget 1 --engine ${engine} --json)
  # A periodic schedule (period 15 < its steps: routes cross the period boundaries; the poll takes
  # 15 cycles, so every second period); --budget 1 finds period 15 in about 3 s (at --budget 8, the
  # same period, 11 s: the SAT's conflicts scale with the budget and the stages before it fail).
  cli_test(recover_4x4_periodic_${engine} 0 "\"passed\": true"
    --jq "${RECOVER_OK} and .recovery.old_period==15 and .recovery.detected_link==\"0-1\"" --
    ${TOTEX} sim --topo torus:4x4 --model nic --periodic --budget 1 --periods 10 --fault-at 2:0-1 --recover --recover-budget 0.5 --engine ${engine} --json)
endforeach()
# The default budget (the README's command, on ref): the same period, no budget recorded.
cli_test(recover_8x8_default_ref 0 "\"passed\": true"
  --jq "${RECOVER_OK_8x8} and .recovery.detected_link==\"0-1\" and .recovery.degraded_period==71 and .recovery.degraded_budget==0" --
  ${TOTEX} sim --topo torus:8x8 --model nic --periods 10 --fault-at 3:0-1 --recover --engine ref --json)
set_tests_properties(cli.recover_4x4_rtl cli.recover_4x4_idle_rtl cli.recover_8x8_rtl cli.recover_8x8_rotated_rtl
  cli.recover_4x4_periodic_rtl PROPERTIES LABELS "rtl;recover")
set_tests_properties(cli.recover_4x4_systemc cli.recover_4x4_idle_systemc cli.recover_8x8_systemc
  cli.recover_8x8_rotated_systemc cli.recover_4x4_periodic_systemc PROPERTIES LABELS "systemc;recover")
set_tests_properties(cli.recover_4x4_ref cli.recover_4x4_idle_ref cli.recover_8x8_ref cli.recover_8x8_rotated_ref
  cli.recover_4x4_periodic_ref cli.recover_8x8_default_ref PROPERTIES LABELS recover)
set_tests_properties(cli.recover_8x8_ref cli.recover_8x8_rtl cli.recover_8x8_rotated_ref cli.recover_8x8_rotated_rtl
  cli.recover_8x8_systemc cli.recover_8x8_rotated_systemc cli.recover_8x8_default_ref PROPERTIES TIMEOUT 600)

# Refusals: exit 2, the flag and what it accepts named.
set(RECOVER_SIM ${TOTEX} sim --topo torus:4x4 --model nic)
cli_test(recover_bad_form 2 "--fault-at 'x': expected PERIOD:A-B, a period 1..K-1" -- ${RECOVER_SIM} --periods 8 --fault-at x --recover)
cli_test(recover_bad_period 2 "--fault-at '8:0-1': the fault's period must be 1..7" -- ${RECOVER_SIM} --periods 8 --fault-at 8:0-1 --recover)
cli_test(recover_first_period 2 "--fault-at '0:0-1': the fault's period must be 1..7" -- ${RECOVER_SIM} --periods 8 --fault-at 0:0-1 --recover)
cli_test(recover_not_adjacent 2 "nodes 0 and 5 are not adjacent on torus:4x4" -- ${RECOVER_SIM} --periods 8 --fault-at 2:0-5 --recover)
cli_test(recover_no_node 2 "nodes are 0..15 on torus:4x4" -- ${RECOVER_SIM} --periods 8 --fault-at 2:0-16 --recover --engine rtl)
cli_test(recover_partitioned 2 "path:12~fail:3-4 is partitioned"
  -- ${TOTEX} sim --topo path:12 --model nic --periods 8 --fault-at 2:3-4 --recover --engine rtl)
cli_test(recover_too_few_periods 2 "the swap comes at period 5 .* give --periods 7 or more"
  -- ${RECOVER_SIM} --periods 5 --fault-at 2:0-1 --recover --recover-budget 0.5)
cli_test(recover_no_flag 2 "--fault-at is the stuck link of a recovery run: give --recover too" -- ${RECOVER_SIM} --periods 8 --fault-at 2:0-1)
cli_test(recover_budget_alone 2 "--recover-budget is the work of a recovery run's degraded schedule: give --recover too"
  -- ${RECOVER_SIM} --periods 8 --recover-budget 1)
cli_test(recover_budget_bad 2 "--recover-budget: 'x' is not a number. accepted: a decimal number of seconds from 0.1 to 86400"
  -- ${RECOVER_SIM} --periods 8 --fault-at 2:0-1 --recover --recover-budget x)
cli_test(recover_no_fault 2 "--recover needs the fault: --fault-at PERIOD:A-B" -- ${RECOVER_SIM} --periods 8 --recover)
cli_test(recover_no_periods 2 "--recover runs the TDM tables periodically" -- ${RECOVER_SIM} --fault-at 2:0-1 --recover)
cli_test(recover_all_port 2 "accepted: --model nic"
  -- ${TOTEX} sim --topo torus:4x4 --model all-port --periods 8 --fault-at 2:0-1 --recover --engine rtl)
# Every periodic engine runs --recover; cosim, which runs no periodic exchange, is refused there.
cli_test(recover_cosim 2 "--periods: --engine cosim does not run periodic .TDM. exchanges. engines ref, rtl and systemc do"
  -- ${RECOVER_SIM} --periods 8 --fault-at 2:0-1 --recover --engine cosim)
add_test(NAME cli.recover_other_fault COMMAND ${CMAKE_COMMAND} -E env TOTEX_TDM_FAULT=pause
         ${EXPECT} 2 "--recover: TOTEX_TDM_FAULT=pause is another fault" -- ${RECOVER_SIM} --periods 8 --fault-at 2:0-1 --recover --engine rtl)
set_tests_properties(cli.recover_bad_form cli.recover_bad_period cli.recover_first_period cli.recover_not_adjacent
  cli.recover_no_node cli.recover_partitioned cli.recover_too_few_periods cli.recover_no_flag cli.recover_no_fault
  cli.recover_no_periods cli.recover_all_port cli.recover_cosim cli.recover_other_fault cli.recover_budget_alone
  cli.recover_budget_bad PROPERTIES LABELS recover)
