# What the MPI-facing parts of simfab share (apps/capture, apps/hybrid).
#
# simfab_find_mpi_c(WHAT): finds an MPI C library (FindMPI's C component, whose test program needs
# the C language); MPI_C_FOUND says whether it did, and a status line says what is skipped if not.
macro(simfab_find_mpi_c what)
  include(CheckLanguage)
  check_language(C)
  if(CMAKE_C_COMPILER)
    enable_language(C)
    find_package(MPI COMPONENTS C)
  endif()
  if(NOT MPI_C_FOUND)
    message(STATUS "${what}: no MPI C library found (install libopenmpi-dev); skipped with its tests")
  endif()
endmacro()

# simfab_preload_library(TARGET EXPORTS_MAP): a shared library preloaded into MPI programs: C++17,
# hidden symbols but those EXPORTS_MAP names (its MPI interface; no C++ runtime symbol may
# interpose on the application's), warnings as errors, linked against MPI, placed in the build
# directory. The caller clears its directory's compile options first: a preloaded library must not
# carry the sanitizers of the ASan build into un-instrumented programs.
function(simfab_preload_library target exports)
  set_target_properties(${target} PROPERTIES
    CXX_STANDARD 17
    CXX_STANDARD_REQUIRED ON
    CXX_EXTENSIONS OFF
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
  target_compile_definitions(${target} PRIVATE OMPI_SKIP_MPICXX MPICH_SKIP_MPICXX)
  target_link_libraries(${target} PRIVATE MPI::MPI_C)
  target_link_options(${target} PRIVATE -Wl,--no-undefined -Wl,--version-script=${exports})
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${exports})
endfunction()
