# Strict warnings for the project's own examples and tests only; nothing is
# forced on consumers of the library targets.
add_library(iteragpu_warnings INTERFACE)
target_compile_options(iteragpu_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow
  -Wold-style-cast -Wcast-qual -Wnull-dereference)
if(PROJECT_IS_TOP_LEVEL)
  target_compile_options(iteragpu_warnings INTERFACE -Werror)
endif()
