# The unpacked archive UNPACKED holds the release members of SOURCE_DIR and
# nothing else: every member but MANIFEST.json is byte for byte the source
# tree's file, every header and data file is there, and no build product,
# test or script is.
cmake_minimum_required(VERSION 3.25)
foreach(_v UNPACKED SOURCE_DIR)
  if(NOT ${_v})
    message(FATAL_ERROR "contents.cmake: -D${_v}= is required")
  endif()
endforeach()
set(_problems "")

file(GLOB_RECURSE _members LIST_DIRECTORIES false RELATIVE "${UNPACKED}" "${UNPACKED}/*")
foreach(_required README.md LICENSE.txt CMakeLists.txt CMakePresets.json MANIFEST.json
        cmake/manifest-verify.cmake cmake/iteragpu-targets.cmake examples/CMakeLists.txt
        examples/mesure_memoire.cpp examples/mesure-memoire.ipynb include/iteragpu/core.hpp examples/cli/common.hpp
        scripts/run scripts/setup.sh scripts/test docs/replay.md docs/library.md)
  if(NOT _required IN_LIST _members)
    list(APPEND _problems "${_required} is not in the archive")
  endif()
endforeach()

# What the source tree has that must ship: every header, every data file
# (the catalog, results grid, quality protocol and data README as they land),
# every example source, every page of the reference the README links to.
file(GLOB _pages LIST_DIRECTORIES false RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/docs/*.md")
list(REMOVE_ITEM _pages docs/mainpage.md)
file(GLOB_RECURSE _expected LIST_DIRECTORIES false RELATIVE "${SOURCE_DIR}"
  "${SOURCE_DIR}/include/*" "${SOURCE_DIR}/data/*" "${SOURCE_DIR}/cmake/*")
file(GLOB _examples LIST_DIRECTORIES false RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/examples/*.cpp"
  "${SOURCE_DIR}/examples/cli/*.hpp")
list(APPEND _expected ${_examples} ${_pages})
list(FILTER _expected EXCLUDE REGEX "(^|/)\\.|~$")
foreach(_file IN LISTS _expected)
  if(NOT _file IN_LIST _members)
    list(APPEND _problems "${_file} is in the source tree but not in the archive")
  endif()
endforeach()

foreach(_member IN LISTS _members)
  if(_member STREQUAL "MANIFEST.json")
    continue()
  endif()
  if(NOT _member MATCHES "^(README\\.md|LICENSE\\.txt|CMakeLists\\.txt|CMakePresets\\.json|scripts/(run|setup\\.sh|test)|docs/[^/]+\\.md|(cmake|data|include|examples)/.+)$")
    list(APPEND _problems "${_member} is not a release member (headers, examples, data, CMake files, README and reference pages, LICENSE, quick-start scripts)")
  elseif(_member STREQUAL "docs/mainpage.md")
    list(APPEND _problems "${_member} is the API reference's input, not a release member")
  elseif(NOT EXISTS "${SOURCE_DIR}/${_member}")
    list(APPEND _problems "${_member} does not come from the source tree")
  else()
    execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${UNPACKED}/${_member}" "${SOURCE_DIR}/${_member}"
      RESULT_VARIABLE _differs)
    if(_differs)
      list(APPEND _problems "${_member} differs from the source tree's")
    endif()
  endif()
endforeach()

# The manifest says nothing about where or when it was made.
file(READ "${UNPACKED}/MANIFEST.json" _manifest)
get_filename_component(_source_real "${SOURCE_DIR}" REALPATH)
foreach(_path "${SOURCE_DIR}" "${_source_real}" "${CMAKE_CURRENT_BINARY_DIR}")
  string(FIND "${_manifest}" "${_path}" _at)
  if(NOT _at EQUAL -1)
    list(APPEND _problems "MANIFEST.json names the folder ${_path}")
  endif()
endforeach()
if(_manifest MATCHES "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9]:[0-9][0-9]")
  list(APPEND _problems "MANIFEST.json holds a date or time: ${CMAKE_MATCH_0}")
endif()

if(_problems)
  list(JOIN _problems "\n  " _text)
  message(FATAL_ERROR "the archive's members are not the release members:\n  ${_text}")
endif()
list(LENGTH _members _count)
message(STATUS "${_count} members, each the source tree's own file")
