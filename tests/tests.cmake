# Differential tests against SQLite and file-driven SQL tests; included by the top-level
# CMakeLists.txt. They drive the `hindsight` CLI (DESIGN.md section 8) from Python 3 scripts
# (standard library only).
#
# Test data is generated once per build tree by two fixture tests and reused by later runs:
#   testdata/tpch-sf0.01        hindsight gen tpch --sf 0.01            (differential_uniform, sql_files)
#   testdata/tpch-sf0.01-skew1  hindsight gen tpch --sf 0.01 --skew 1   (differential_skewed)
#   testdata/tpch-sf0.1         hindsight gen tpch --sf 0.1             (differential_tpch_sf0.1)
# Delete a folder to regenerate it (e.g. after the generator changed).

find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(WARNING "python3 not found: differential and SQL file tests are not registered")
  return()
endif()

set(HINDSIGHT_TESTDATA ${CMAKE_BINARY_DIR}/testdata)
set(HINDSIGHT_DIFFERENTIAL ${CMAKE_SOURCE_DIR}/tests/differential/run_differential.py)
set(HINDSIGHT_UNIFORM_DATA ${HINDSIGHT_TESTDATA}/tpch-sf0.01)
set(HINDSIGHT_SKEWED_DATA ${HINDSIGHT_TESTDATA}/tpch-sf0.01-skew1)
set(HINDSIGHT_SF01_DATA ${HINDSIGHT_TESTDATA}/tpch-sf0.1)

add_test(NAME gen_testdata_uniform
  COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
          --sf 0.01 --workdir ${HINDSIGHT_UNIFORM_DATA} --gen-only)
set_tests_properties(gen_testdata_uniform PROPERTIES FIXTURES_SETUP tpch_uniform TIMEOUT 900)

add_test(NAME gen_testdata_skewed
  COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
          --sf 0.01 --skew 1 --workdir ${HINDSIGHT_SKEWED_DATA} --gen-only)
set_tests_properties(gen_testdata_skewed PROPERTIES FIXTURES_SETUP tpch_skewed TIMEOUT 900)

# Each differential run keeps 2 processors busy (hindsight processes in parallel + SQLite).
add_test(NAME differential_uniform
  COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
          --sf 0.01 --workdir ${HINDSIGHT_UNIFORM_DATA} --jobs 2)
set_tests_properties(differential_uniform PROPERTIES
  FIXTURES_REQUIRED tpch_uniform TIMEOUT 900 PROCESSORS 2)

add_test(NAME differential_skewed
  COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
          --sf 0.01 --skew 1 --workdir ${HINDSIGHT_SKEWED_DATA} --jobs 2)
set_tests_properties(differential_skewed PROPERTIES
  FIXTURES_REQUIRED tpch_skewed TIMEOUT 900 PROCESSORS 2)

# The skewed workload of the re-execution benchmark (bench/workloads/skewed.sql), against SQLite on the skewed data.
add_test(NAME differential_skewed_workload
  COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
          --sf 0.01 --skew 1 --workdir ${HINDSIGHT_SKEWED_DATA} --jobs 2 ${CMAKE_SOURCE_DIR}/bench/workloads/skewed.sql)
set_tests_properties(differential_skewed_workload PROPERTIES
  FIXTURES_REQUIRED tpch_skewed TIMEOUT 900 PROCESSORS 2)

# bench/workloads/tpch.sql is generated from tests/differential/tpch (bench/workloads/tpch_workload.py): the same 22
# statements, and the file the script writes. No data needed.
add_test(NAME workload_tpch_in_sync
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/differential/tpch_workload_test.py)
set_tests_properties(workload_tpch_in_sync PROPERTIES TIMEOUT 60)

add_test(NAME sql_files
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/sql/run_sql_tests.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_UNIFORM_DATA} --jobs 2 ${CMAKE_SOURCE_DIR}/tests/sql)
set_tests_properties(sql_files PROPERTIES FIXTURES_REQUIRED tpch_uniform TIMEOUT 900 PROCESSORS 2)

# The 22 TPC-H queries at SF 0.1 (a hash table of thousands of rows per worker, batches that fill), with 1 and 3
# workers, each compared with one SQLite run. About 60 s of SQLite on 2 cores, most of it Q5 and Q9.
add_test(NAME gen_testdata_sf0.1
  COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
          --sf 0.1 --workdir ${HINDSIGHT_SF01_DATA} --gen-only)
set_tests_properties(gen_testdata_sf0.1 PROPERTIES FIXTURES_SETUP tpch_sf01 TIMEOUT 900)
add_test(NAME differential_tpch_sf0.1
  COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
          --sf 0.1 --workdir ${HINDSIGHT_SF01_DATA} --jobs 2 --workers 1,3 ${CMAKE_SOURCE_DIR}/tests/differential/tpch)
set_tests_properties(differential_tpch_sf0.1 PROPERTIES
  FIXTURES_REQUIRED tpch_sf01 TIMEOUT 900 PROCESSORS 2)

# Memory reported vs memory held: every operator of the 22 TPC-H queries charges within 2x of the live data it
# holds (and the statement's peak within 2x of what is live then), at SF 0.1 with 1 and 3 workers (about 10 s).
add_test(NAME cli_memory_held
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/memory_held_test.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_SF01_DATA} --workers 1,3)
set_tests_properties(cli_memory_held PROPERTIES FIXTURES_REQUIRED tpch_sf01 TIMEOUT 300)

# The CTE queries again with every CTE materialized (planned once, read by each reference).
add_test(NAME differential_materialized_ctes
  COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
          --sf 0.01 --workdir ${HINDSIGHT_UNIFORM_DATA} --jobs 2 --set cte_materialization=always --only "cte_|q15")
set_tests_properties(differential_materialized_ctes PROPERTIES
  FIXTURES_REQUIRED tpch_uniform TIMEOUT 900 PROCESSORS 2)

# Semi, anti and null-aware anti joins inside the join order (docs/join-order.md): the queries that reorder them,
# and the TPC-H queries with EXISTS / IN / NOT EXISTS, at 1 and 4 workers on uniform and skewed data, and in the
# written order (the rule disabled): each against SQLite, so reordered and unreordered results agree.
set(HINDSIGHT_SEMI_QUERIES "semi_reorder|subquery_|q04|q16|q18|q20|q21|q22")
foreach(workers 1 4)
  add_test(NAME differential_semi_reorder_uniform_w${workers}
    COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
            --sf 0.01 --workdir ${HINDSIGHT_UNIFORM_DATA} --jobs 2 --set workers=${workers}
            --only "${HINDSIGHT_SEMI_QUERIES}")
  set_tests_properties(differential_semi_reorder_uniform_w${workers} PROPERTIES
    FIXTURES_REQUIRED tpch_uniform TIMEOUT 900 PROCESSORS 2)
  add_test(NAME differential_semi_reorder_skewed_w${workers}
    COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
            --sf 0.01 --skew 1 --workdir ${HINDSIGHT_SKEWED_DATA} --jobs 2 --set workers=${workers}
            --only "${HINDSIGHT_SEMI_QUERIES}")
  set_tests_properties(differential_semi_reorder_skewed_w${workers} PROPERTIES
    FIXTURES_REQUIRED tpch_skewed TIMEOUT 900 PROCESSORS 2)
endforeach()
add_test(NAME differential_semi_written_order
  COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
          --sf 0.01 --workdir ${HINDSIGHT_UNIFORM_DATA} --jobs 2 --set disabled_rules=cost_based_join_order
          --only "${HINDSIGHT_SEMI_QUERIES}")
set_tests_properties(differential_semi_written_order PROPERTIES
  FIXTURES_REQUIRED tpch_uniform TIMEOUT 900 PROCESSORS 2)

# LEFT joins inside the join order (docs/join-order.md, "LEFT members"): the queries that move them (NULL join keys
# included), LEFT of LEFT, a FULL join among them, and TPC-H Q13, at 1 and 4 workers on uniform and skewed data and
# in the written order: each against SQLite.
set(HINDSIGHT_LEFT_QUERIES "left_reorder|join_left|null_join_keys|join_full|q13")
foreach(workers 1 4)
  foreach(data uniform skewed)
    if(data STREQUAL "uniform")
      set(left_data --workdir ${HINDSIGHT_UNIFORM_DATA})
      set(left_fixture tpch_uniform)
    else()
      set(left_data --skew 1 --workdir ${HINDSIGHT_SKEWED_DATA})
      set(left_fixture tpch_skewed)
    endif()
    add_test(NAME differential_left_reorder_${data}_w${workers}
      COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
              --sf 0.01 ${left_data} --jobs 2 --set workers=${workers} --only "${HINDSIGHT_LEFT_QUERIES}")
    set_tests_properties(differential_left_reorder_${data}_w${workers} PROPERTIES
      FIXTURES_REQUIRED ${left_fixture} TIMEOUT 900 PROCESSORS 2)
  endforeach()
endforeach()
add_test(NAME differential_left_written_order
  COMMAND ${Python3_EXECUTABLE} ${HINDSIGHT_DIFFERENTIAL} --bin $<TARGET_FILE:hindsight>
          --sf 0.01 --workdir ${HINDSIGHT_UNIFORM_DATA} --jobs 2 --set disabled_rules=cost_based_join_order
          --only "${HINDSIGHT_LEFT_QUERIES}")
set_tests_properties(differential_left_written_order PROPERTIES
  FIXTURES_REQUIRED tpch_uniform TIMEOUT 900 PROCESSORS 2)

# The tests/cli scripts share tests/cli/cli_harness.py (found beside each script, whatever the working folder):
# running hindsight with a timeout (a hang or a signal is named), counted checks, exit 1 on any failure.
# CLI behaviour on small data folders each script makes in a temp dir (no TPC-H fixture needed).
add_test(NAME cli_csv_round_trip
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/csv_round_trip.py --bin $<TARGET_FILE:hindsight>)
set_tests_properties(cli_csv_round_trip PROPERTIES TIMEOUT 300)
add_test(NAME cli_interrupted_cache_write
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/interrupted_cache_write.py --bin $<TARGET_FILE:hindsight>)
set_tests_properties(cli_interrupted_cache_write PROPERTIES TIMEOUT 600)
# `hindsight stats` on a store the script fills through the documented schema (no query needed).
add_test(NAME cli_stats_command
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/stats_command_test.py --bin $<TARGET_FILE:hindsight>)
set_tests_properties(cli_stats_command PROPERTIES TIMEOUT 120)
# Re-execution that learns: misestimate (learn, rerun), slow, the regression guard (a plan slowed down by a delay
# fault is demoted), EXPLAIN REOPTIMIZATION text and JSON (its own TPC-H SF 0.01 folder in a temp dir).
add_test(NAME cli_reexec_learning
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/reexec_learning_cli_test.py --bin $<TARGET_FILE:hindsight>)
set_tests_properties(cli_reexec_learning PROPERTIES TIMEOUT 300)
# The CLI on hostile input (bad encodings, NUL, unbounded or missing statement files, giant identifiers): a typed
# error with exit code 1 and, with --format json, a JSON object on stdout.
add_test(NAME cli_robustness
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/cli_robustness_test.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_UNIFORM_DATA})
set_tests_properties(cli_robustness PROPERTIES FIXTURES_REQUIRED tpch_uniform TIMEOUT 300)

# Random queries over a small dataset with NULLs, against SQLite and by ternary logic partitioning.
include(${CMAKE_SOURCE_DIR}/tests/random/random.cmake)
# bench/plan_quality.py (make bench) runs: Q1 and Q6 at SF 0.01, model and oracle plans at 1 and 2 workers, and a
# wrapper binary that drops a row from the oracle's result is flagged as a wrong answer (about 10 s).
add_test(NAME bench_plan_quality
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/plan_quality_test.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_UNIFORM_DATA})
set_tests_properties(bench_plan_quality PROPERTIES FIXTURES_REQUIRED tpch_uniform TIMEOUT 120)

# Feedback through the CLI: observations reach later processes, stale data is ignored, damaged stores never fail a
# query, export/import keep the estimates (a data folder the script makes).
add_test(NAME cli_feedback
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/feedback_cli_test.py --bin $<TARGET_FILE:hindsight>)
set_tests_properties(cli_feedback PROPERTIES TIMEOUT 300)

# Re-execution through the CLI: the map-join case, persistence, fault injection, overlays (its own
# TPC-H SF 0.01 folder in a temp dir).
add_test(NAME cli_reexec
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/reexec_cli_test.py --bin $<TARGET_FILE:hindsight>)
set_tests_properties(cli_reexec PROPERTIES TIMEOUT 300)
# A three-way join whose join order (not only a distribution) changes after a failed first attempt (the skewed
# fixture; asserts the attempts and each attempt's join order).
add_test(NAME cli_reexec_join_order
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/reexec_join_order_test.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_SKEWED_DATA})
set_tests_properties(cli_reexec_join_order PROPERTIES FIXTURES_REQUIRED tpch_skewed TIMEOUT 300)
# A misestimate re-plan after an attempt that spilled is priced with spilling on, as that attempt ran (the skewed
# fixture; asserts the attempts, the rows and the decision's costs).
add_test(NAME cli_reexec_after_spill
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/reexec_after_spill_test.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_SKEWED_DATA})
set_tests_properties(cli_reexec_after_spill PROPERTIES FIXTURES_REQUIRED tpch_skewed TIMEOUT 300)
# A hash aggregate that spills (docs/spilling.md): TPC-H q01, q10, q13, q18 and a many-groups GROUP BY with
# spill = on under limits below what their aggregates need, at workers 1 and 4, on both SF 0.01 fixtures: the
# rows equal an unconstrained run's and the aggregates spilled.
add_test(NAME cli_spill_aggregate
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/spill_aggregate_test.py --bin $<TARGET_FILE:hindsight>
          --uniform ${HINDSIGHT_UNIFORM_DATA} --skewed ${HINDSIGHT_SKEWED_DATA})
set_tests_properties(cli_spill_aggregate PROPERTIES FIXTURES_REQUIRED "tpch_uniform;tpch_skewed" TIMEOUT 300)
# Randomized: no strategy, memory limit, worker count, data or injected fault makes a re-executed query return
# other rows than one unconstrained run, or fail with anything but a typed error (fixed seed; --seed to replay;
# `make reexec-fuzz` for a longer run with a random seed).
add_test(NAME cli_reexec_random
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/reexec_random_test.py --bin $<TARGET_FILE:hindsight>
          --uniform ${HINDSIGHT_UNIFORM_DATA} --skewed ${HINDSIGHT_SKEWED_DATA} --jobs 2)
set_tests_properties(cli_reexec_random PROPERTIES FIXTURES_REQUIRED "tpch_uniform;tpch_skewed" TIMEOUT 600 PROCESSORS 2)
# Workload capture (docs/workload.md): the skewed workload captured and shown, digests independent of the plan,
# failing queries recorded, bad SQL and workload files clear errors.
add_test(NAME cli_workload_capture
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/workload_capture_test.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_SKEWED_DATA} --workload ${CMAKE_SOURCE_DIR}/bench/workloads/skewed.sql)
set_tests_properties(cli_workload_capture PROPERTIES FIXTURES_REQUIRED tpch_skewed TIMEOUT 300)
# Exchange buffers and sorts that spill (docs/spilling.md): the ORDER BY over lineitem under 0.6x/0.55x of its
# peak returns the unconstrained rows in order with the Sort spilled; TPC-H q02/q03/q17/q19/q20 at 4 workers
# under fractions of their peaks return the right rows or fail with a typed error, their exchanges spilling.
add_test(NAME cli_spill_exchange_sort
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/spill_exchange_sort_test.py --bin $<TARGET_FILE:hindsight>
          --uniform ${HINDSIGHT_UNIFORM_DATA} --skewed ${HINDSIGHT_SKEWED_DATA})
set_tests_properties(cli_spill_exchange_sort PROPERTIES FIXTURES_REQUIRED "tpch_uniform;tpch_skewed" TIMEOUT 300)
# Spilling hash joins end to end: TPC-H and skewed-workload join queries under memory limits below their peak with
# spill = on (no re-execution) return the unconstrained rows, and the single-worker runs finish with a HashJoin
# spilled (docs/spilling.md).
add_test(NAME cli_spill_join
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/spill_join_test.py --bin $<TARGET_FILE:hindsight>
          --uniform ${HINDSIGHT_UNIFORM_DATA} --skewed ${HINDSIGHT_SKEWED_DATA})
set_tests_properties(cli_spill_join PROPERTIES FIXTURES_REQUIRED "tpch_uniform;tpch_skewed" TIMEOUT 300)
# Workload replay (docs/workload.md): feedback off on the capture's data gives its results and plans; other data
# warns and still gives the right rows; several modes and the oracle comparison; --promote holds back a regressed
# query's observations.
add_test(NAME cli_workload_replay
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/workload_replay_test.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_SKEWED_DATA} --other-data ${HINDSIGHT_UNIFORM_DATA}
          --workload ${CMAKE_SOURCE_DIR}/bench/workloads/skewed.sql)
set_tests_properties(cli_workload_replay PROPERTIES FIXTURES_REQUIRED "tpch_skewed;tpch_uniform" TIMEOUT 300)
# An oracle replay found in the store (docs/workload.md): recorded by --feedback oracle --store, used by a later replay
# of the same workload on the same data, not on other data or for another workload; corrupt rows left out.
add_test(NAME cli_replay_oracle_store
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/replay_oracle_store_test.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_SKEWED_DATA} --other-data ${HINDSIGHT_UNIFORM_DATA})
set_tests_properties(cli_replay_oracle_store PROPERTIES FIXTURES_REQUIRED "tpch_skewed;tpch_uniform" TIMEOUT 300)
# The progress bar of capture and replay (cli/progress.hpp): drawn on a terminal (a pty here), cleared at the end,
# never as wide as the terminal; nothing of it when stderr is a pipe.
add_test(NAME cli_progress_tty
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/progress_tty_test.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_SKEWED_DATA})
set_tests_properties(cli_progress_tty PROPERTIES FIXTURES_REQUIRED tpch_skewed TIMEOUT 120)
# `make demo` (scripts/demo.sh) on a fresh data folder (SF 0.1, generated in a temp dir): the query rescued after
# MEMORY_LIMIT_EXCEEDED with the unconstrained rows, one attempt in a new process, the groups, and the replay
# summary of the skewed workload with 0 results that differ. About a minute on 2 cores.
add_test(NAME demo_script
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/demo_test.py --bin $<TARGET_FILE:hindsight>)
set_tests_properties(demo_script PROPERTIES TIMEOUT 900 PROCESSORS 2)
# capture --from-store (docs/workload.md): three queries run with one store become a workload of those three texts,
# named and in order; --since; a missing store, a file that is not one and usage errors.
add_test(NAME cli_capture_from_store
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/capture_from_store_test.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_SKEWED_DATA})
set_tests_properties(cli_capture_from_store PROPERTIES FIXTURES_REQUIRED tpch_skewed TIMEOUT 120)
# make bench's results (docs/benchmarks.md): scripts/bench-compare.sh on two fixed merged files (ratios, marks in
# each metric's direction, added/removed, bad files exit 2) and bench/bench_merge.py (failed, skipped and missing
# sections recorded, metadata, metrics).
add_test(NAME bench_compare
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/bench_compare_test.py)
set_tests_properties(bench_compare PROPERTIES TIMEOUT 120)
# bench/replay_bench.py (make bench's replay section) on the SF 0.01 skewed fixture with --repeat 1: its JSON has
# the summary keys per mode and 0 results that differ; then scripts/bench.sh with SECTIONS=replay: one merged file
# with the metadata, the replay ok and the other sections recorded as skipped.
add_test(NAME bench_replay
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/replay_bench_test.py --bin $<TARGET_FILE:hindsight>
          --data ${HINDSIGHT_SKEWED_DATA})
set_tests_properties(bench_replay PROPERTIES FIXTURES_REQUIRED tpch_skewed TIMEOUT 600)
