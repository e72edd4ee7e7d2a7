# The README's links to the pages of the reference against docs/: each link
# (docs/NAME.md, with or without #anchor) names a page that exists, and each
# page of docs/ but the API reference's first page is linked from the README.
#
#   cmake -DREADME=<README.md> -P readme_links.cmake
#
# Each difference is one line on stderr, then the script fails:
#   no such page: docs/NAME.md        a link to a page that does not exist
#   not linked: docs/NAME.md          a page the README does not link to
cmake_minimum_required(VERSION 3.25)
if(NOT README OR NOT EXISTS "${README}")
  message(FATAL_ERROR "readme-links: -DREADME= must name an existing file (got '${README}')")
endif()
get_filename_component(_root "${README}" ABSOLUTE)
get_filename_component(_root "${_root}" DIRECTORY)
file(READ "${README}" _text)
# Brackets dropped first: a ] in a list element would hide the ; after it.
string(REPLACE "](docs/" "\n=> docs/" _text "${_text}")
string(REGEX MATCHALL "\n=> docs/[^)#\n]+" _links "${_text}")
set(_linked "")
set(_problems "")
foreach(_link IN LISTS _links)
  string(SUBSTRING "${_link}" 4 -1 _page)
  if(_page IN_LIST _linked)
    continue()
  endif()
  list(APPEND _linked "${_page}")
  if(NOT EXISTS "${_root}/${_page}")
    list(APPEND _problems "no such page: ${_page}")
  endif()
endforeach()
file(GLOB _pages LIST_DIRECTORIES false RELATIVE "${_root}" "${_root}/docs/*.md")
list(REMOVE_ITEM _pages docs/mainpage.md)
foreach(_page IN LISTS _pages)
  if(NOT _page IN_LIST _linked)
    list(APPEND _problems "not linked: ${_page}")
  endif()
endforeach()
if(_problems)
  foreach(_problem IN LISTS _problems)
    message(NOTICE "readme-links: ${_problem}")
  endforeach()
  list(LENGTH _problems _problem_count)
  message(FATAL_ERROR "readme-links: ${_problem_count} difference(s) between the links of ${README} and docs/")
endif()
list(LENGTH _pages _page_count)
message(STATUS "readme-links: OK: the ${_page_count} pages of docs/ are linked from the README, every link a page")
