# CLI tests of issue 48's findings (docs/reliability.md): files totex writes read back, refusals that
# say why, JSON that survives bytes that are not UTF-8. Included from CMakeLists.txt.
set(RELIABILITY_DIR ${CMAKE_CURRENT_BINARY_DIR}/reliability)
file(MAKE_DIRECTORY ${RELIABILITY_DIR})

# Every writer and form (text, gzip, binary, tables, MIN, placed, periodic, .shd, Poseidon XML) read
# back by verify; what a format cannot hold is refused with no file left.
add_test(NAME cli.every_written_file_reads_back
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/roundtrip.sh ${TOTEX} ${RELIABILITY_DIR}/roundtrip)
set_tests_properties(cli.every_written_file_reads_back PROPERTIES PASS_REGULAR_EXPRESSION "every written file read back")

# --json with names and headers that are not UTF-8: the bytes escaped as \xHH, never an internal error.
add_test(NAME cli.json_non_utf8_file_name
  COMMAND sh -c "cp '${DATA}/hand_3x3.shd' \"$1/x$(printf '\\377').shd\" && \"$2\" verify --topo torus:3x3 --json \"$1/x$(printf '\\377').shd\" | jq -e '.verified and (.file|endswith(\"x\\\\xff.shd\"))'"
  sh ${RELIABILITY_DIR} ${TOTEX})
add_test(NAME cli.json_non_utf8_output_name
  COMMAND sh -c "\"$2\" schedule --topo ring:5 --model nic --json -o \"$1/o$(printf '\\376').sched\" | jq -e '.verified and (.file|endswith(\"o\\\\xfe.sched\"))'"
  sh ${RELIABILITY_DIR} ${TOTEX})

# Messages that say what is wrong and what is accepted.
cli_test(budget_negative 2 "--budget: '-1' is negative. accepted: a decimal number of seconds from 0.1"
  -- ${TOTEX} schedule --topo ring:5 --model nic --budget -1)
cli_test(period_not_integer 2 "--period: 'abc' is not an integer. accepted: an integer from 1 to 50000000"
  -- ${TOTEX} verify --period abc ${DATA}/broken_ring3.sched)
cli_test(period_zero 2 "--period: '0' is out of range. accepted: an integer from 1 to 50000000"
  -- ${TOTEX} verify --period 0 ${DATA}/broken_ring3.sched)
cli_test(shd_on_mesh_names_format 2 "--format shd .*needs a 2-D torus torus:K1xK2, not mesh:4x4. write a totex schedule file"
  -- ${TOTEX} schedule --topo mesh:4x4 --model nic -o ${RELIABILITY_DIR}/m.shd)
cli_test(shd_empty_line_one 2 "empty.shd:1: empty file" -- ${TOTEX} verify --topo torus:3x3 ${DATA}/empty.shd)
cli_test(no_link_token_cut 2 "no_link_long.sched:9: no link 0->0{60}\\.\\.\\. in torus:3x3" -- ${TOTEX} verify ${DATA}/no_link_long.sched)
add_test(NAME cli.json_non_utf8_tables_out
  COMMAND sh -c "\"$2\" fpga --topo torus:3x3 --model nic --payload 8 --json --tables-out \"$1/t$(printf '\\376')\" | jq -e '(.out|endswith(\"t\\\\xfe\")) and (.tables|length)==9' && jq -e '.out|endswith(\"t\\\\xfe\")' \"$1/t$(printf '\\376')/tables.json\""
  sh ${RELIABILITY_DIR} ${TOTEX})
