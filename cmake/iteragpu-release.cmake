# The release archive iteragpu-lab-<version>.zip: one top folder holding the
# headers, the example sources (with the programs' command line,
# examples/cli/) and the notebook, data/, README.md and the reference pages it
# links to (docs/*.md), LICENSE.txt, the CMake files needed to build, the
# README's quick-start scripts and MANIFEST.json.
#
#   cmake --build <build> --target release_archive   -> <build>/iteragpu-lab-<version>.zip
#
# Its content is copied from the source tree, never from an install, so no
# build product can enter it. This file has two roles:
#   - included by the top-level CMakeLists.txt, it defines `release_archive`
#     and the CPack ZIP configuration that target runs;
#   - run as a script (cmake -DSOURCE_DIR=... -DSTAGE_DIR=... -P), it copies
#     the release members into a fresh STAGE_DIR.

# Where the members come from, relative to the source tree. data/ and
# include/ are taken whole, so new files there join the release by themselves.
set(_iteragpu_release_files README.md LICENSE.txt CMakeLists.txt CMakePresets.json examples/mesure-memoire.ipynb
    scripts/run scripts/setup.sh scripts/test)
set(_iteragpu_release_trees cmake data include examples/cli)
set(_iteragpu_release_globs examples/CMakeLists.txt examples/*.cpp examples/*.hpp examples/*.ipynb docs/*.md)
# The API reference's first page is Doxygen's input, which the archive does
# not ship (docs/CMakeLists.txt, Doxyfile.in): not a page of the reference.
set(_iteragpu_release_left_out docs/mainpage.md)

if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.25)
  if(NOT IS_DIRECTORY "${SOURCE_DIR}" OR NOT EXISTS "${SOURCE_DIR}/include/iteragpu/version.hpp")
    message(FATAL_ERROR "iteragpu-release: SOURCE_DIR='${SOURCE_DIR}' is not the iteragpu source tree")
  endif()
  if(NOT STAGE_DIR OR STAGE_DIR STREQUAL SOURCE_DIR)
    message(FATAL_ERROR "iteragpu-release: STAGE_DIR='${STAGE_DIR}' must be a folder of its own")
  endif()
  foreach(_file IN LISTS _iteragpu_release_files)
    if(NOT EXISTS "${SOURCE_DIR}/${_file}")
      message(FATAL_ERROR "iteragpu-release: ${_file} is missing from the source tree")
    endif()
  endforeach()

  set(_members ${_iteragpu_release_files})
  foreach(_tree IN LISTS _iteragpu_release_trees)
    file(GLOB_RECURSE _found LIST_DIRECTORIES false RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${_tree}/*")
    list(APPEND _members ${_found})
  endforeach()
  foreach(_glob IN LISTS _iteragpu_release_globs)
    file(GLOB _found LIST_DIRECTORIES false RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${_glob}")
    list(APPEND _members ${_found})
  endforeach()
  # Hidden files and editor backups are never release members.
  list(FILTER _members EXCLUDE REGEX "(^|/)\\.|~$")
  list(REMOVE_ITEM _members ${_iteragpu_release_left_out})
  list(REMOVE_DUPLICATES _members)

  file(REMOVE_RECURSE "${STAGE_DIR}")
  foreach(_member IN LISTS _members)
    get_filename_component(_folder "${STAGE_DIR}/${_member}" DIRECTORY)
    file(MAKE_DIRECTORY "${_folder}")
    file(COPY_FILE "${SOURCE_DIR}/${_member}" "${STAGE_DIR}/${_member}")
  endforeach()
  list(LENGTH _members _count)
  message(STATUS "iteragpu-release: ${_count} files from the source tree staged in ${STAGE_DIR}")
  return()
endif()

# Included from the project: only a top-level build releases.
if(NOT PROJECT_IS_TOP_LEVEL)
  return()
endif()

set(ITERAGPU_RELEASE_NAME "iteragpu-lab-${PROJECT_VERSION}")
set(ITERAGPU_RELEASE_ARCHIVE "${PROJECT_BINARY_DIR}/${ITERAGPU_RELEASE_NAME}.zip")
set(_iteragpu_release_work "${PROJECT_BINARY_DIR}/release")
set(_iteragpu_release_stage "${_iteragpu_release_work}/stage/${ITERAGPU_RELEASE_NAME}")

# CPack packs the staged folder as it is (CPACK_INSTALLED_DIRECTORIES) and
# installs no project; the top folder is the package file name.
file(CONFIGURE OUTPUT "${_iteragpu_release_work}/CPackReleaseConfig.cmake" CONTENT [[
set(CPACK_GENERATOR "ZIP")
set(CPACK_PACKAGE_NAME "iteragpu-lab")
set(CPACK_PACKAGE_VERSION "@PROJECT_VERSION@")
set(CPACK_PACKAGE_DESCRIPTION "@PROJECT_DESCRIPTION@")
set(CPACK_PACKAGE_FILE_NAME "@ITERAGPU_RELEASE_NAME@")
set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY ON)
set(CPACK_INSTALLED_DIRECTORIES "@_iteragpu_release_stage@;.")
set(CPACK_INSTALL_CMAKE_PROJECTS "")
set(CPACK_IGNORE_FILES "")
set(CPACK_PACKAGE_DIRECTORY "@_iteragpu_release_work@/cpack")
]] ESCAPE_QUOTES @ONLY)

add_custom_target(release_archive
  COMMAND "${CMAKE_COMMAND}" -E rm -f "${ITERAGPU_RELEASE_ARCHIVE}"
  COMMAND "${CMAKE_COMMAND}" "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}" "-DSTAGE_DIR=${_iteragpu_release_stage}"
          -P "${PROJECT_SOURCE_DIR}/cmake/iteragpu-release.cmake"
  COMMAND "${CMAKE_COMMAND}" "-DARCHIVE_DIR=${_iteragpu_release_stage}"
          -P "${PROJECT_SOURCE_DIR}/cmake/manifest-write.cmake"
  COMMAND "${CMAKE_COMMAND}" "-DARCHIVE_DIR=${_iteragpu_release_stage}"
          -P "${PROJECT_SOURCE_DIR}/cmake/manifest-verify.cmake"
  COMMAND "${CMAKE_CPACK_COMMAND}" --config "${_iteragpu_release_work}/CPackReleaseConfig.cmake"
  COMMAND "${CMAKE_COMMAND}" -E rename "${_iteragpu_release_work}/cpack/${ITERAGPU_RELEASE_NAME}.zip"
          "${ITERAGPU_RELEASE_ARCHIVE}"
  BYPRODUCTS "${ITERAGPU_RELEASE_ARCHIVE}"
  WORKING_DIRECTORY "${_iteragpu_release_work}"
  COMMENT "Packing ${ITERAGPU_RELEASE_NAME}.zip from the source tree"
  VERBATIM)
