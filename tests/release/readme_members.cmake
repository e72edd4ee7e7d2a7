# The README's list of release members against an archive's MANIFEST.json:
# the table of section "Release archive and notebook" whose first column is
# `member` lists each entry between backquotes. An entry ending in / is a
# folder taken whole, one with * matches any run of characters but /, any
# other is one exact path.
#
#   cmake -DREADME=<README.md> -DMANIFEST=<MANIFEST.json> -P readme_members.cmake
#
# Each difference is one line on stderr, then the script fails:
#   unlisted: PATH            a member that no entry matches
#   listed twice: PATH (A, B) a member that more than one entry matches
#   matches nothing: ENTRY    an entry that matches no member
cmake_minimum_required(VERSION 3.25)
foreach(_v README MANIFEST)
  if(NOT ${_v} OR NOT EXISTS "${${_v}}")
    message(FATAL_ERROR "readme-members: -D${_v}= must name an existing file (got '${${_v}}')")
  endif()
endforeach()

include("${CMAKE_CURRENT_LIST_DIR}/readme_lines.cmake")
readme_lines("${README}" _readme)

# The entries: first-column cells of the members table of the section, up to
# the next ## heading. Kept as numbered variables, so that no character of
# an entry is a list separator.
set(_in_section FALSE)
set(_in_table FALSE)
set(_entry_count 0)
foreach(_i RANGE 1 ${_readme_COUNT})
  set(_line "${_readme_${_i}}")
  if(_line MATCHES "^## ")
    if(_line STREQUAL "## Release archive and notebook")
      set(_in_section TRUE)
    elseif(_in_section)
      break()
    endif()
  elseif(NOT _in_section)
  elseif(_line MATCHES "^\\| *member *\\|")
    set(_in_table TRUE)
  elseif(_in_table AND _line MATCHES "^\\| *-+ *\\|")
  elseif(_in_table AND _line MATCHES "^\\| *`([^`]+)` *\\|")
    math(EXPR _entry_count "${_entry_count} + 1")
    set(_entry_${_entry_count} "${CMAKE_MATCH_1}")
    # An entry as a regular expression over a member's path.
    string(REGEX REPLACE "([][+.?^$()|{}\\\\])" "\\\\\\1" _pattern "${CMAKE_MATCH_1}")
    string(REPLACE "*" "[^/]*" _pattern "${_pattern}")
    if(_entry_${_entry_count} MATCHES "/$")
      string(APPEND _pattern ".+")
    endif()
    set(_pattern_${_entry_count} "^${_pattern}$")
    set(_used_${_entry_count} FALSE)
  else()
    set(_in_table FALSE)
  endif()
endforeach()
if(_entry_count EQUAL 0)
  message(FATAL_ERROR "readme-members: ${README} has no table of members (a `| member |` table in section "
                      "\"Release archive and notebook\")")
endif()

file(READ "${MANIFEST}" _manifest)
string(JSON _count ERROR_VARIABLE _error LENGTH "${_manifest}" members)
if(_error)
  message(FATAL_ERROR "readme-members: ${MANIFEST} has no members array: ${_error}")
endif()
if(_count EQUAL 0)
  message(FATAL_ERROR "readme-members: ${MANIFEST} lists no member")
endif()

set(_problems "")
math(EXPR _last "${_count} - 1")
foreach(_i RANGE ${_last})
  string(JSON _path GET "${_manifest}" members ${_i} path)
  set(_matched "")
  set(_times 0)
  foreach(_e RANGE 1 ${_entry_count})
    if(_path MATCHES "${_pattern_${_e}}")
      if(_times EQUAL 0)
        set(_matched "${_entry_${_e}}")
      else()
        string(APPEND _matched ", ${_entry_${_e}}")
      endif()
      math(EXPR _times "${_times} + 1")
      set(_used_${_e} TRUE)
    endif()
  endforeach()
  if(_times EQUAL 0)
    list(APPEND _problems "unlisted: ${_path}")
  elseif(_times GREATER 1)
    list(APPEND _problems "listed twice: ${_path} (${_matched})")
  endif()
endforeach()
foreach(_e RANGE 1 ${_entry_count})
  if(NOT _used_${_e})
    list(APPEND _problems "matches nothing: ${_entry_${_e}}")
  endif()
endforeach()

if(_problems)
  foreach(_problem IN LISTS _problems)
    message(NOTICE "readme-members: ${_problem}")
  endforeach()
  list(LENGTH _problems _problem_count)
  message(FATAL_ERROR "readme-members: ${_problem_count} difference(s) between the README's list of release members "
                      "and ${MANIFEST}")
endif()
message(STATUS "readme-members: OK: the ${_count} members of the manifest, each matched by one of the README's "
               "${_entry_count} entries, every entry used")
