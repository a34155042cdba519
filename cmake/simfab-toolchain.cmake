# simfab-toolchain.cmake: builds a CMake project's MPI programs for `simfab exec` by making simfab's
# compiler wrappers the project's C, C++ and Fortran compilers.
#
#   cmake -S app -B app-build -DCMAKE_TOOLCHAIN_FILE=<simfab>/cmake/simfab-toolchain.cmake \
#         -DSIMFAB_BUILD_DIR=<simfab build directory>
#   cmake --build app-build          # add_executable(app ...) now produces a shared object
#   simfab exec -np 4 app-build/app
#
# SIMFAB_BUILD_DIR is the directory where simfab was built (it holds simfab, simfab-cc and
# simfab-cxx); it is required. The wrappers add simfab's mpi.h to the include path and make every
# linked program a shared object (see apps/wrappers/simfab-cc.in), so the project needs no MPI of
# its own: drop find_package(MPI) and MPI::MPI_C / MPI::MPI_CXX from it, or keep them only where an
# MPI is installed (they would add that MPI's headers and libraries; simfab's come first on the
# include path, but linking a real MPI library defeats the simulation).
# The underlying compilers are `cc`, `c++` and `gfortran`, or SIMFAB_CC / SIMFAB_CXX / SIMFAB_FC from
# the environment.

if(NOT SIMFAB_BUILD_DIR)
  message(FATAL_ERROR "simfab-toolchain.cmake: pass -DSIMFAB_BUILD_DIR=<simfab build directory> "
                      "(the directory holding simfab-cc and simfab-cxx)")
endif()
foreach(wrapper simfab-cc simfab-cxx)
  if(NOT EXISTS "${SIMFAB_BUILD_DIR}/${wrapper}")
    message(FATAL_ERROR "simfab-toolchain.cmake: ${SIMFAB_BUILD_DIR}/${wrapper} does not exist; "
                        "configure simfab in that directory first")
  endif()
endforeach()

# Try-compiles (compiler checks) run in fresh projects: hand them the variable.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SIMFAB_BUILD_DIR)

set(CMAKE_C_COMPILER "${SIMFAB_BUILD_DIR}/simfab-cc")
set(CMAKE_CXX_COMPILER "${SIMFAB_BUILD_DIR}/simfab-cxx")
set(CMAKE_Fortran_COMPILER "${SIMFAB_BUILD_DIR}/simfab-fc")
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
