# Timeline outputs (issue 10): `simfab run --trace-out/--paje` against golden files, with the
# tiling, flow-pairing, filter and pj_dump checks of run.py.
add_test(NAME trace_outputs
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/golden/trace_outputs/run.py
                 $<TARGET_FILE:simfab> ${PROJECT_SOURCE_DIR})
