# `simfab calibrate program` prints simfab_calibrate.c (the MPI calibration program), embedded in the
# simfab executable as a C++ raw string literal: generated/simfab_calibrate_c.inc in the build
# directory, regenerated whenever the C file changes (it is a configure dependency).
set(_simfab_calibrate_c ${CMAKE_CURRENT_LIST_DIR}/simfab_calibrate.c)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_simfab_calibrate_c})
file(READ ${_simfab_calibrate_c} SIMFAB_CALIBRATE_C)
configure_file(${CMAKE_CURRENT_LIST_DIR}/simfab_calibrate_c.inc.in ${CMAKE_BINARY_DIR}/generated/simfab_calibrate_c.inc
               @ONLY)
target_include_directories(simfab PRIVATE ${CMAKE_BINARY_DIR}/generated)
