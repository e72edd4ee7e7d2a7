# Configures a two-line outside project in WORK that uses the package the
# way CASE names, and requires the configuration to fail with the package's
# own words (EXPECT, a regular expression), not CMake's generic ones.
#   json_without_component: links iteragpu::json, asks for no component;
#   unknown_component: asks for a component the package does not have.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/source")
if(CASE STREQUAL "json_without_component")
  set(body "find_package(iteragpu CONFIG REQUIRED)\nadd_library(uses_json INTERFACE)\ntarget_link_libraries(uses_json INTERFACE iteragpu::json)\n")
elseif(CASE STREQUAL "unknown_component")
  set(body "find_package(iteragpu CONFIG REQUIRED COMPONENTS jsn)\n")
else()
  message(FATAL_ERROR "expect_refusal: unknown CASE '${CASE}'")
endif()
file(WRITE "${WORK}/source/CMakeLists.txt"
  "cmake_minimum_required(VERSION 3.25)\nproject(iteragpu_refused LANGUAGES CXX)\n${body}")
set(args -S "${WORK}/source" -B "${WORK}/build" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}"
  "-DCMAKE_PREFIX_PATH=${SEARCH}" -DCMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY=ON)
if(BOOST_DIR)
  list(APPEND args "-DBoost_DIR=${BOOST_DIR}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "expect_refusal ${CASE}: the configuration succeeded:\n${out}")
endif()
string(REGEX REPLACE "[ \t\r\n]+" " " flat "${out}")
if(NOT flat MATCHES "${EXPECT}")
  message(FATAL_ERROR "expect_refusal ${CASE}: the configuration failed without '${EXPECT}':\n${out}")
endif()
message(STATUS "expect_refusal ${CASE}: refused as expected")
