#!/bin/sh
# The Doxygen input filter (docs/Doxyfile.in): a header as Doxygen reads it;
# the file itself is unchanged.
# - Doxygen 1.9.4 reads the digit separator of 10'000 as the start of a
#   character literal and loses the declarations after it: the separators
#   are removed (digit-separators.sed).
# - One convention instead of a comment on each: a defaulted operator== with
#   no comment of its own compares every member, and the reference says so
#   beside it (a trailing ///<, on the same line, so that line numbers hold).
sed -E -f "$(dirname "$0")/digit-separators.sed" "$1" | awk '
  /^[ \t]*friend (constexpr )?bool operator==\(.*\) = default;[ \t]*$/ && prev !~ /^[ \t]*\/\/\// {
    print $0 "  ///< Equal when every member is equal (a defaulted operator==)."
    prev = $0
    next
  }
  { print; prev = $0 }'
