# cmake -DSOURCE=catalog.csv -DOUT=padded.csv -DSIZE=bytes -P make_padded_catalog.cmake
# Writes SOURCE followed by empty lines up to SIZE bytes in all.
file(READ "${SOURCE}" text)
string(LENGTH "${text}" length)
math(EXPR padding "${SIZE} - ${length}")
string(REPEAT "\n" ${padding} newlines)
file(WRITE "${OUT}" "${text}${newlines}")
