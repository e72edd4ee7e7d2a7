# The synopsis a reference page shows is the command's own usage: each usage
# line of `PROGRAM ARGS --help` (the first line, "usage: ...", and the lines
# indented under it), less that prefix, is in PAGE word for word; the page
# may wrap it (runs of blanks and line ends compare as one space).
#
#   cmake -DPROGRAM=<program> "-DARGS=<command>" -DPAGE=<file.md> -P docs_usage.cmake
#
# Each usage line the page lacks is one line on stderr, then the script fails.
cmake_minimum_required(VERSION 3.25)
foreach(_v PROGRAM PAGE)
  if(NOT ${_v})
    message(FATAL_ERROR "docs-usage: -D${_v}= is required")
  endif()
endforeach()
execute_process(COMMAND "${PROGRAM}" ${ARGS} --help RESULT_VARIABLE _rc OUTPUT_VARIABLE _help)
if(NOT _rc EQUAL 0 OR NOT _help MATCHES "^usage: ")
  message(FATAL_ERROR "docs-usage: '${ARGS} --help' exited ${_rc} or printed no usage line first")
endif()
file(READ "${PAGE}" _page)
string(REGEX REPLACE "[ \t\n]+" " " _page " ${_page} ")
string(SUBSTRING "${_help}" 7 -1 _rest)  # past "usage: "
set(_problems "")
set(_lines 0)
while(1)
  string(FIND "${_rest}" "\n" _end)
  if(_end EQUAL -1)
    break()
  endif()
  string(SUBSTRING "${_rest}" 0 ${_end} _line)
  math(EXPR _after "${_end} + 1")
  string(SUBSTRING "${_rest}" ${_after} -1 _rest)
  string(STRIP "${_line}" _words)
  string(REGEX REPLACE "[ \t]+" " " _words "${_words}")
  string(FIND "${_page}" " ${_words} " _at)
  if(_at EQUAL -1)
    string(APPEND _problems "docs-usage: ${PAGE} lacks the usage line: ${_line}\n")
  endif()
  math(EXPR _lines "${_lines} + 1")
  # The next line belongs to the usage when it is indented under "usage: ".
  string(LENGTH "${_rest}" _left)
  if(_left LESS 7)
    break()
  endif()
  string(SUBSTRING "${_rest}" 0 7 _indent)
  if(NOT _indent STREQUAL "       ")
    break()
  endif()
  string(SUBSTRING "${_rest}" 7 -1 _rest)
endwhile()
if(NOT _problems STREQUAL "")
  message(FATAL_ERROR "${_problems}")
endif()
message(STATUS "docs-usage: the ${_lines} usage line(s) of '${ARGS}' are in ${PAGE}")
