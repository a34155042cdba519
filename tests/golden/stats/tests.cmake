# `simfab run --stats DIR` (issue 10): the CSV statistics of a 4-rank TI trace (LogGOPS and flow
# models) and of LogGOPSim's worked GOAL example, checked against closed forms and each other, then
# byte for byte against tests/golden/stats/expected/; determinism; an unwritable --stats directory.
add_test(NAME stats_csv
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/golden/stats/run.py
                 $<TARGET_FILE:simfab> ${PROJECT_SOURCE_DIR})
