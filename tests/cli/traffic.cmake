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
# Refusals: an unknown generator and a MIN (exit 2), a traffic past the limits (exit 3, before work).
cli_test(bound_traffic_unknown 2 "bad traffic 'bogus': unknown traffic generator 'bogus'. accepted: all"
  -- ${TOTEX} bound --topo torus:4x4 --model nic --traffic bogus)
cli_test(bound_traffic_min 2 "--traffic: applies to direct networks"
  -- ${TOTEX} bound --topo min:16:4 --traffic perm:transpose)
cli_test(bound_traffic_too_large 3 "resources: traffic 'all:20000000': flits per pair M 20000000 is above the limit"
  -- ${TOTEX} bound --topo torus:4x4 --model nic --traffic all:20000000)
cli_test(bound_traffic_missing_file 2 "nope.txt:0: cannot open file"
  -- ${TOTEX} bound --topo ring:4 --model nic --traffic matrix:nope.txt)
