# Doxygen 1.9.4 reads the digit separator of 10'000 as the start of a
# character literal and loses the declarations after it: the headers reach
# Doxygen with the separators removed (the files themselves are unchanged).
s/([0-9])'([0-9A-Fa-f])/\1\2/g
