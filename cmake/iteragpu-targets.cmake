# The library's targets, all INTERFACE (header-only):
#   iteragpu::iteragpu  estimate, units, money, catalog, measurement over policies, files; no dependency
#   iteragpu::json      JSON reports and the snapshot file readers (Boost.JSON), and the umbrella iteragpu.hpp
#   iteragpu::cli       the programs' command lines (examples/cli/, Boost.Program_options):
#                       defined for this project's own programs and tests only, never installed
#   iteragpu::torch     the LibTorch adapters: dtypes, GPU backend, allocator counters, model
#   iteragpu::compiled       the core's function bodies compiled once (iteragpu/src_core.hpp), static
#   iteragpu::json_compiled  the bodies that need Boost.JSON compiled once (iteragpu/src_json.hpp), static
# Each asks for its dependency only when it is defined. Each header's
# function bodies are in its impl/*.ipp, which the header includes (see
# iteragpu/config.hpp); a program that links a compiled library is built
# with ITERAGPU_SEPARATE_COMPILATION, which the library passes on, and sees
# declarations only. ITERAGPU_SEPARATE_COMPILATION=ON builds this project's
# programs and tests that way.

include("${CMAKE_CURRENT_LIST_DIR}/iteragpu-header-group.cmake")

file(GLOB_RECURSE _iteragpu_all_headers CONFIGURE_DEPENDS
  RELATIVE "${PROJECT_SOURCE_DIR}/include" "${PROJECT_SOURCE_DIR}/include/iteragpu/*.hpp"
  "${PROJECT_SOURCE_DIR}/include/iteragpu/*.ipp")
set(_iteragpu_core_headers "")
set(_iteragpu_json_headers "")
set(_iteragpu_torch_headers "")
foreach(_h IN LISTS _iteragpu_all_headers)
  iteragpu_header_group("${_h}" _group)
  list(APPEND _iteragpu_${_group}_headers "include/${_h}")
endforeach()

function(_iteragpu_interface name alias)
  add_library(${name} INTERFACE)
  add_library(iteragpu::${alias} ALIAS ${name})
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${alias})
  target_compile_features(${name} INTERFACE cxx_std_20)
  # Consumers who add us as a subdirectory see our headers as system headers,
  # so their warning flags do not apply to our code.
  if(NOT PROJECT_IS_TOP_LEVEL)
    set_target_properties(${name} PROPERTIES SYSTEM ON)
  endif()
endfunction()

_iteragpu_interface(iteragpu iteragpu)
target_sources(iteragpu INTERFACE
  FILE_SET HEADERS BASE_DIRS "${PROJECT_SOURCE_DIR}/include" FILES ${_iteragpu_core_headers})
# iteragpu/nvml/ loads NVML at run time with dlopen: part of libc since
# glibc 2.34, in libdl before.
target_link_libraries(iteragpu INTERFACE ${CMAKE_DL_LIBS})

find_package(Boost 1.81 CONFIG COMPONENTS json program_options)
if(Boost_FOUND)
  _iteragpu_interface(iteragpu_json json)
  target_sources(iteragpu_json INTERFACE
    FILE_SET HEADERS BASE_DIRS "${PROJECT_SOURCE_DIR}/include" FILES ${_iteragpu_json_headers})
  target_link_libraries(iteragpu_json INTERFACE iteragpu Boost::json)

  # The command line of the two programs lives beside them in examples/cli/:
  # an application, not part of the installed library.
  if(ITERAGPU_BUILD_PROGRAMS)
    add_library(iteragpu_cli INTERFACE)
    add_library(iteragpu::cli ALIAS iteragpu_cli)
    target_compile_features(iteragpu_cli INTERFACE cxx_std_20)
    target_include_directories(iteragpu_cli INTERFACE "${PROJECT_SOURCE_DIR}/examples")
    target_link_libraries(iteragpu_cli INTERFACE iteragpu_json Boost::program_options)
  endif()
  set(ITERAGPU_HAS_BOOST ON)

else()
  message(STATUS "iteragpu: Boost 1.81 (json, program_options) not found; only iteragpu::iteragpu is defined")
  set(ITERAGPU_HAS_BOOST OFF)
endif()

# The compiled-once libraries: one generated TU each, which includes the
# group's src header. Position-independent, so that a consumer's PIE or
# shared library can take them in.
function(_iteragpu_compiled name alias header)
  file(CONFIGURE OUTPUT "${PROJECT_BINARY_DIR}/${name}.cpp" CONTENT "#include <${header}>\n" @ONLY)
  add_library(${name} STATIC "${PROJECT_BINARY_DIR}/${name}.cpp")
  add_library(iteragpu::${alias} ALIAS ${name})
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${alias} POSITION_INDEPENDENT_CODE ON)
  target_compile_definitions(${name} PUBLIC ITERAGPU_SEPARATE_COMPILATION)
endfunction()
if(ITERAGPU_BUILD_COMPILED OR ITERAGPU_SEPARATE_COMPILATION)
  _iteragpu_compiled(iteragpu_compiled compiled iteragpu/src_core.hpp)
  target_link_libraries(iteragpu_compiled PUBLIC iteragpu)
  if(ITERAGPU_HAS_BOOST)
    _iteragpu_compiled(iteragpu_json_compiled json_compiled iteragpu/src_json.hpp)
    target_link_libraries(iteragpu_json_compiled PUBLIC iteragpu_compiled iteragpu_json)
  endif()
endif()

set(ITERAGPU_HAS_TORCH OFF)
set(ITERAGPU_HAS_TORCH_CUDA OFF)
if(ITERAGPU_WITH_TORCH STREQUAL "ON")
  find_package(Torch REQUIRED)
elseif(ITERAGPU_WITH_TORCH STREQUAL "AUTO")
  find_package(Torch QUIET)
elseif(NOT ITERAGPU_WITH_TORCH STREQUAL "OFF")
  message(FATAL_ERROR "ITERAGPU_WITH_TORCH is '${ITERAGPU_WITH_TORCH}'; expected AUTO, ON or OFF")
endif()
if(Torch_FOUND OR TORCH_FOUND)
  set(ITERAGPU_HAS_TORCH ON)
  # A CUDA build of LibTorch lists its CUDA libraries; Debian's CPU build
  # ships c10/cuda headers that cannot be compiled, so the headers alone
  # prove nothing.
  if(TORCH_CUDA_LIBRARIES OR TARGET torch_cuda OR TARGET c10_cuda)
    set(ITERAGPU_HAS_TORCH_CUDA ON)
  endif()
  # ROCm builds of LibTorch: a guess from the target names, never seen here
  # (no ROCm LibTorch exists where this project is built and tested).
  set(ITERAGPU_HAS_TORCH_HIP OFF)
  if(NOT ITERAGPU_HAS_TORCH_CUDA AND (TARGET torch_hip OR TARGET c10_hip))
    set(ITERAGPU_HAS_TORCH_HIP ON)
  endif()
  _iteragpu_interface(iteragpu_torch torch)
  target_sources(iteragpu_torch INTERFACE
    FILE_SET HEADERS BASE_DIRS "${PROJECT_SOURCE_DIR}/include" FILES ${_iteragpu_torch_headers})
  target_link_libraries(iteragpu_torch INTERFACE iteragpu ${TORCH_LIBRARIES})
  if(ITERAGPU_HAS_TORCH_CUDA)
    target_compile_definitions(iteragpu_torch INTERFACE ITERAGPU_TORCH_CUDA=1)
  elseif(ITERAGPU_HAS_TORCH_HIP)
    target_compile_definitions(iteragpu_torch INTERFACE ITERAGPU_TORCH_HIP=1)
  endif()
endif()
if(ITERAGPU_SEPARATE_COMPILATION AND NOT ITERAGPU_HAS_BOOST)
  message(FATAL_ERROR "ITERAGPU_SEPARATE_COMPILATION needs Boost 1.81 (json): the compiled bodies include the JSON readers")
endif()
message(STATUS "iteragpu: LibTorch ${ITERAGPU_HAS_TORCH} (CUDA ${ITERAGPU_HAS_TORCH_CUDA}), Boost ${ITERAGPU_HAS_BOOST}")
