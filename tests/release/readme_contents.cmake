# The README's table of contents against its sections: the list after the
# line **Contents** must name every ## section, each once, in the order of
# the file, each linked to the anchor GitHub gives that heading (lower case,
# punctuation but - and _ dropped, spaces as -). ### headings and lines in
# fenced code are not sections.
#
#   cmake -DREADME=<README.md> -P readme_contents.cmake
#
# Each difference is one line on stderr, then the script fails:
#   missing: ## TITLE (line N)                  a section the contents leave out
#   not a section: TITLE (line N)               an entry that names no section
#   listed twice: TITLE                         an entry given more than once
#   out of order: entry K is TITLE, section K is OTHER
#   wrong anchor: TITLE links to #A, the section's anchor is #B
cmake_minimum_required(VERSION 3.25)
if(NOT README OR NOT EXISTS "${README}")
  message(FATAL_ERROR "readme-contents: -DREADME= must name an existing file (got '${README}')")
endif()
include("${CMAKE_CURRENT_LIST_DIR}/readme_lines.cmake")
readme_lines("${README}" _readme)

# Sections and entries as numbered variables, so that no character of a
# title is a list separator.
set(_sections 0)
set(_entries 0)
set(_in_contents FALSE)
set(_contents_seen FALSE)
foreach(_i RANGE 1 ${_readme_COUNT})
  set(_line "${_readme_${_i}}")
  if(_line MATCHES "^## (.+)$")
    math(EXPR _sections "${_sections} + 1")
    set(_section_${_sections} "${CMAKE_MATCH_1}")
    set(_section_line_${_sections} ${_readme_LINE_${_i}})
  endif()
  if(NOT _contents_seen AND _line STREQUAL "**Contents**")
    set(_contents_seen TRUE)
    set(_in_contents TRUE)
  elseif(_in_contents AND _line MATCHES "^- \\[(.+)\\]\\(#([^)]*)\\)$")
    math(EXPR _entries "${_entries} + 1")
    set(_entry_${_entries} "${CMAKE_MATCH_1}")
    set(_entry_anchor_${_entries} "${CMAKE_MATCH_2}")
    set(_entry_line_${_entries} ${_readme_LINE_${_i}})
  elseif(_in_contents AND NOT _line STREQUAL "")
    set(_in_contents FALSE)
  endif()
endforeach()
if(NOT _contents_seen OR _entries EQUAL 0)
  message(FATAL_ERROR "readme-contents: ${README} has no table of contents (a line **Contents** followed by a "
                      "list of - [Title](#anchor))")
endif()
if(_sections EQUAL 0)
  message(FATAL_ERROR "readme-contents: ${README} has no ## section")
endif()

set(_problems "")
# Each section once among the entries; each entry a section.
set(_common_sections "")
foreach(_s RANGE 1 ${_sections})
  set(_section_listed_${_s} 0)
  foreach(_e RANGE 1 ${_entries})
    if(_entry_${_e} STREQUAL _section_${_s})
      math(EXPR _section_listed_${_s} "${_section_listed_${_s}} + 1")
      set(_entry_section_${_e} ${_s})
    endif()
  endforeach()
  if(_section_listed_${_s} EQUAL 0)
    list(APPEND _problems "missing: ## ${_section_${_s}} (line ${_section_line_${_s}})")
  elseif(_section_listed_${_s} GREATER 1)
    list(APPEND _problems "listed twice: ${_section_${_s}}")
  endif()
endforeach()
foreach(_e RANGE 1 ${_entries})
  if(NOT DEFINED _entry_section_${_e})
    list(APPEND _problems "not a section: ${_entry_${_e}} (line ${_entry_line_${_e}})")
  endif()
endforeach()

# Order: the entries that are sections (a repeated one at its first place),
# against the sections that are listed, position by position.
set(_k 0)
set(_s 0)
foreach(_e RANGE 1 ${_entries})
  if(NOT DEFINED _entry_section_${_e} OR DEFINED _placed_${_entry_section_${_e}})
    continue()
  endif()
  set(_placed_${_entry_section_${_e}} TRUE)
  math(EXPR _k "${_k} + 1")
  math(EXPR _s "${_s} + 1")
  while(_section_listed_${_s} EQUAL 0)
    math(EXPR _s "${_s} + 1")
  endwhile()
  if(NOT _entry_section_${_e} EQUAL _s)
    list(APPEND _problems "out of order: entry ${_k} is ${_entry_${_e}}, section ${_k} is ${_section_${_s}}")
  endif()
  # The anchor GitHub gives the heading.
  string(TOLOWER "${_entry_${_e}}" _anchor)
  string(REGEX REPLACE "[^a-z0-9 _-]" "" _anchor "${_anchor}")
  string(REPLACE " " "-" _anchor "${_anchor}")
  if(NOT _entry_anchor_${_e} STREQUAL _anchor)
    list(APPEND _problems "wrong anchor: ${_entry_${_e}} links to #${_entry_anchor_${_e}}, the section's anchor is #${_anchor}")
  endif()
endforeach()

if(_problems)
  foreach(_problem IN LISTS _problems)
    message(NOTICE "readme-contents: ${_problem}")
  endforeach()
  list(LENGTH _problems _problem_count)
  message(FATAL_ERROR "readme-contents: ${_problem_count} difference(s) between the table of contents of ${README} "
                      "and its ## sections")
endif()
message(STATUS "readme-contents: OK: the table of contents lists the ${_sections} ## sections in order")
