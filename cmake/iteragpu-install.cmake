# Install rules and the CMake config package:
#   find_package(iteragpu CONFIG [COMPONENTS json torch compiled json_compiled])
# sets iteragpu_DATA_DIR (the shipped data) and iteragpu_CATALOG (the
# shipped rental catalog, a file of that folder).
# The core target needs nothing; a component asks for its own dependency.
set(ITERAGPU_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/iteragpu")

set(_iteragpu_exported iteragpu)
if(ITERAGPU_HAS_BOOST)
  list(APPEND _iteragpu_exported iteragpu_json)
endif()
install(TARGETS ${_iteragpu_exported} EXPORT iteragpu-targets FILE_SET HEADERS)
install(EXPORT iteragpu-targets NAMESPACE iteragpu:: DESTINATION "${ITERAGPU_CMAKE_DIR}")
export(EXPORT iteragpu-targets NAMESPACE iteragpu:: FILE "${PROJECT_BINARY_DIR}/iteragpu-targets.cmake")

# The compiled-once libraries, each its own component (one file of targets each).
set(_iteragpu_compiled_targets iteragpu_compiled iteragpu_json_compiled)
set(_iteragpu_compiled_files compiled json-compiled)
foreach(_target _file IN ZIP_LISTS _iteragpu_compiled_targets _iteragpu_compiled_files)
  if(TARGET ${_target})
    install(TARGETS ${_target} EXPORT iteragpu-${_file}-targets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
    install(EXPORT iteragpu-${_file}-targets NAMESPACE iteragpu:: DESTINATION "${ITERAGPU_CMAKE_DIR}")
    export(EXPORT iteragpu-${_file}-targets NAMESPACE iteragpu:: FILE "${PROJECT_BINARY_DIR}/iteragpu-${_file}-targets.cmake")
  endif()
endforeach()

if(ITERAGPU_HAS_TORCH)
  install(TARGETS iteragpu_torch EXPORT iteragpu-torch-targets FILE_SET HEADERS)
  install(EXPORT iteragpu-torch-targets NAMESPACE iteragpu:: DESTINATION "${ITERAGPU_CMAKE_DIR}")
  export(EXPORT iteragpu-torch-targets NAMESPACE iteragpu:: FILE "${PROJECT_BINARY_DIR}/iteragpu-torch-targets.cmake")
endif()

# Two configs: the installed one finds the data beside itself under the
# prefix; the build tree's (find_package from a build folder) finds it in
# the source tree.
set(ITERAGPU_CONFIG_DATA_DIR "${CMAKE_INSTALL_DATADIR}/iteragpu")
configure_package_config_file(cmake/iteragpu-config.cmake.in "${PROJECT_BINARY_DIR}/install-config/iteragpu-config.cmake"
  INSTALL_DESTINATION "${ITERAGPU_CMAKE_DIR}" PATH_VARS ITERAGPU_CONFIG_DATA_DIR)
set(ITERAGPU_CONFIG_DATA_DIR "${PROJECT_SOURCE_DIR}/data")
configure_package_config_file(cmake/iteragpu-config.cmake.in "${PROJECT_BINARY_DIR}/iteragpu-config.cmake"
  INSTALL_DESTINATION "${PROJECT_BINARY_DIR}" INSTALL_PREFIX "${PROJECT_BINARY_DIR}" PATH_VARS ITERAGPU_CONFIG_DATA_DIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/iteragpu-config-version.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/install-config/iteragpu-config.cmake" "${PROJECT_BINARY_DIR}/iteragpu-config-version.cmake"
  DESTINATION "${ITERAGPU_CMAKE_DIR}")
install(FILES LICENSE.txt README.md DESTINATION "${CMAKE_INSTALL_DOCDIR}")
# The reference pages the README links to, beside it as in the source tree
# (docs/mainpage.md is the API reference's input, not one of them).
file(GLOB _iteragpu_reference_pages "${PROJECT_SOURCE_DIR}/docs/*.md")
list(FILTER _iteragpu_reference_pages EXCLUDE REGEX "/mainpage\\.md$")
install(FILES ${_iteragpu_reference_pages} DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs")
# The shipped catalog, results grid and quality protocol; calcul_forfaits
# finds the catalog here relative to its own bin directory.
install(FILES data/tarifs-forfaits.csv data/resultats-bruts.csv data/protocole-qualite.md data/README.md
  DESTINATION "${CMAKE_INSTALL_DATADIR}/iteragpu")
