# Changes a copy of README (in WORK) as MODE says, runs the check it is about
# and checks its verdict: each change must fail the check with exactly the
# lines expected, one per difference.
#   contents_missing         the License entry deleted: one section missing
#   contents_not_a_section   an entry for a section that does not exist
#   contents_listed_twice    the License entry given twice
#   contents_out_of_order    the first two entries swapped: two places
#   contents_wrong_anchor    the License entry linked to #licence
#   members_unlisted         the LICENSE.txt row deleted: one member unlisted
#   members_matches_nothing  a bench/ row, a folder the archive does not ship
#   members_listed_twice     an examples/* row: every member directly in
#                            examples/ matched twice
#   links_no_such_page       a link to docs/nowhere.md
#   links_not_linked         the docs/sources.md row of the reference deleted
# The links_ modes copy the README's docs/ beside the changed copy.
# The members_ modes need MANIFEST, the unpacked archive's manifest.
cmake_minimum_required(VERSION 3.25)
foreach(_v README WORK MODE)
  if(NOT ${_v})
    message(FATAL_ERROR "readme_case.cmake: -D${_v}= is required")
  endif()
endforeach()

file(READ "${README}" _text)
set(_license "- [License](#license)\n")
set(_manifest_row "| `MANIFEST.json` |")

# _change(OLD NEW): OLD must be in the README exactly once.
function(_change old new)
  string(FIND "${_text}" "${old}" _at)
  string(FIND "${_text}" "${old}" _last REVERSE)
  if(_at EQUAL -1 OR NOT _at EQUAL _last)
    message(FATAL_ERROR "readme_case.cmake: the README must hold '${old}' exactly once for MODE=${MODE}")
  endif()
  string(REPLACE "${old}" "${new}" _changed "${_text}")
  set(_text "${_changed}" PARENT_SCOPE)
endfunction()

set(_check contents)
set(_expected "")
set(_expected_count 1)
if(MODE STREQUAL "contents_missing")
  _change("${_license}" "")
  set(_expected "^missing: ## License \\(line [0-9]+\\)$")
elseif(MODE STREQUAL "contents_not_a_section")
  _change("${_license}" "${_license}- [Benchmarks](#benchmarks)\n")
  set(_expected "^not a section: Benchmarks \\(line [0-9]+\\)$")
elseif(MODE STREQUAL "contents_listed_twice")
  _change("${_license}" "${_license}${_license}")
  set(_expected "^listed twice: License$")
elseif(MODE STREQUAL "contents_out_of_order")
  if(NOT _text MATCHES "\n\\*\\*Contents\\*\\*\n\n(- [^\n]*\n)(- [^\n]*\n)")
    message(FATAL_ERROR "readme_case.cmake: no two entries after **Contents** to swap")
  endif()
  _change("${CMAKE_MATCH_1}${CMAKE_MATCH_2}" "${CMAKE_MATCH_2}${CMAKE_MATCH_1}")
  set(_expected "^out of order: entry [12] is .+, section [12] is .+$")
  set(_expected_count 2)
elseif(MODE STREQUAL "contents_wrong_anchor")
  _change("${_license}" "- [License](#licence)\n")
  set(_expected "^wrong anchor: License links to #licence, the section's anchor is #license$")
elseif(MODE STREQUAL "links_no_such_page")
  set(_check links)
  _change("${_license}" "${_license}- [Nowhere](docs/nowhere.md#nothing)\n")
  set(_expected "^no such page: docs/nowhere\\.md$")
elseif(MODE STREQUAL "links_not_linked")
  set(_check links)
  string(REGEX MATCH "\n\\| \\[docs/sources\\.md\\]\\(docs/sources\\.md\\) \\|[^\n]*" _row "${_text}")
  _change("${_row}" "")
  set(_expected "^not linked: docs/sources\\.md$")
elseif(MODE MATCHES "^members_")
  set(_check members)
  if(NOT MANIFEST)
    message(FATAL_ERROR "readme_case.cmake: -DMANIFEST= is required for MODE=${MODE}")
  endif()
  if(MODE STREQUAL "members_unlisted")
    string(REGEX MATCH "\n\\| `LICENSE\\.txt` \\|[^\n]*" _row "${_text}")
    _change("${_row}" "")
    set(_expected "^unlisted: LICENSE\\.txt$")
  elseif(MODE STREQUAL "members_matches_nothing")
    _change("${_manifest_row}" "| `bench/` | the benchmarks |\n${_manifest_row}")
    set(_expected "^matches nothing: bench/$")
  elseif(MODE STREQUAL "members_listed_twice")
    _change("${_manifest_row}" "| `examples/*` | every example file |\n${_manifest_row}")
    set(_expected "^listed twice: examples/[^ ]+ \\([^,]+, examples/\\*\\)$")
    # As many lines as the archive has members directly in examples/ (`*`
    # stops at a /: examples/cli/ is a row of its own).
    file(READ "${MANIFEST}" _manifest)
    string(JSON _count LENGTH "${_manifest}" members)
    math(EXPR _last "${_count} - 1")
    set(_expected_count 0)
    foreach(_i RANGE ${_last})
      string(JSON _path GET "${_manifest}" members ${_i} path)
      if(_path MATCHES "^examples/[^/]+$")
        math(EXPR _expected_count "${_expected_count} + 1")
      endif()
    endforeach()
  else()
    message(FATAL_ERROR "readme_case.cmake: unknown MODE '${MODE}'")
  endif()
else()
  message(FATAL_ERROR "readme_case.cmake: unknown MODE '${MODE}'")
endif()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/README.md" "${_text}")
if(_check STREQUAL "links")
  get_filename_component(_source_root "${README}" DIRECTORY)
  file(GLOB _pages "${_source_root}/docs/*.md")
  file(COPY ${_pages} DESTINATION "${WORK}/docs")
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DREADME=${WORK}/README.md"
                          -P "${CMAKE_CURRENT_LIST_DIR}/readme_links.cmake"
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
elseif(_check STREQUAL "contents")
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DREADME=${WORK}/README.md"
                          -P "${CMAKE_CURRENT_LIST_DIR}/readme_contents.cmake"
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
else()
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DREADME=${WORK}/README.md" "-DMANIFEST=${MANIFEST}"
                          -P "${CMAKE_CURRENT_LIST_DIR}/readme_members.cmake"
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
endif()
set(_said "--- exit ${_rc}\n--- stdout:\n${_out}--- stderr:\n${_err}")
if(_rc EQUAL 0)
  message(FATAL_ERROR "the ${_check} check passed after MODE=${MODE}\n${_said}")
endif()

# The problem lines, each checked against the expected form.
string(REGEX MATCHALL "readme-${_check}: [^\n]*" _lines "${_err}")
set(_count 0)
foreach(_line IN LISTS _lines)
  string(REGEX REPLACE "^readme-${_check}: " "" _problem "${_line}")
  if(_problem MATCHES "^[0-9]+ difference\\(s\\) ")
    continue()  # the closing summary
  endif()
  if(NOT _problem MATCHES "${_expected}")
    message(FATAL_ERROR "unexpected line after MODE=${MODE}: '${_problem}'\n${_said}")
  endif()
  math(EXPR _count "${_count} + 1")
endforeach()
if(NOT _count EQUAL _expected_count)
  message(FATAL_ERROR "MODE=${MODE}: expected ${_expected_count} line(s) of differences, got ${_count}\n${_said}")
endif()
message(STATUS "MODE=${MODE}: ${_count} line(s), as expected")
