# libFuzzer targets (tests/fuzz/README.md). Included by the top-level CMakeLists.txt after hindsight_lib is
# defined.
#
# Two roles:
#  - HINDSIGHT_FUZZ=ON (a separate build tree, `make fuzz-build`: build-fuzz with clang++): the whole build gets
#    coverage instrumentation plus ASan and UBSan (no recovery: every report is a crash), and defines the
#    targets fuzz_sql, fuzz_csv, fuzz_catalog.
#  - otherwise (the normal g++ build): registers one ctest entry per target that runs the binary of the fuzz
#    build tree for a fixed number of inputs with a fixed seed. `make test` builds the fuzz tree first.

set(HINDSIGHT_FUZZ_TARGETS sql exec csv catalog)

option(HINDSIGHT_FUZZ "Build the libFuzzer targets (clang++ only) with ASan and UBSan" OFF)
if(HINDSIGHT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "HINDSIGHT_FUZZ needs clang++ (-DCMAKE_CXX_COMPILER=clang++), not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  # -O1 keeps the sanitizers' reports precise; no NDEBUG.
  set(CMAKE_CXX_FLAGS_RELEASE "-O1 -g")
  # PUBLIC: the library and everything linking it (the targets below) are instrumented alike.
  target_compile_options(hindsight_lib PUBLIC -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                         -fno-omit-frame-pointer)
  target_link_options(hindsight_lib INTERFACE -fsanitize=address,undefined)
  add_custom_target(hindsight_fuzzers)
  foreach(t IN LISTS HINDSIGHT_FUZZ_TARGETS)
    add_executable(fuzz_${t} EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_${t}.cpp)
    target_link_libraries(fuzz_${t} PRIVATE hindsight_lib)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
    add_dependencies(hindsight_fuzzers fuzz_${t})
  endforeach()
  return()
endif()

# Where `make fuzz-build` puts the fuzz binaries (Makefile FUZZ_BUILD).
set(HINDSIGHT_FUZZ_BUILD_DIR "${CMAKE_SOURCE_DIR}/build-fuzz" CACHE PATH "Build tree of the libFuzzer targets")
# Inputs per target in ctest: sized so that the four together take about two minutes on 2 cores.
set(HINDSIGHT_FUZZ_RUNS_sql 8000)
set(HINDSIGHT_FUZZ_RUNS_exec 8000)
set(HINDSIGHT_FUZZ_RUNS_csv 100000)
set(HINDSIGHT_FUZZ_RUNS_catalog 150000)
foreach(t IN LISTS HINDSIGHT_FUZZ_TARGETS)
  add_test(NAME fuzz_${t}
    COMMAND bash ${CMAKE_SOURCE_DIR}/tests/fuzz/run_fuzz.sh ${HINDSIGHT_FUZZ_BUILD_DIR}/fuzz_${t}
            ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${t} ${CMAKE_BINARY_DIR}/fuzz/${t} --fresh
            -runs=${HINDSIGHT_FUZZ_RUNS_${t}} -seed=1)
  set_tests_properties(fuzz_${t} PROPERTIES TIMEOUT 600)
endforeach()
