# calcul_forfaits end to end: the built program, its exit codes and output.
set(_cf_catalogs "${PROJECT_SOURCE_DIR}/tests/data/catalogs")
set(_cf_b200 --gpu b200 --days 7 --lots 2)

# The seed command: 4 GPUs, twice the 7-day b200 lot price (1680.00 USD).
iteragpu_cli_case(calcul_forfaits_seed_json PROGRAM calcul_forfaits EXIT 0
  STDOUT "^\\{\"provider\":\"illustrative\",\"currency\":\"USD\",\"snapshot_date\":\"2026-09-24\",\"illustrative\":true,\"gpu\":\"b200\",\"name\":\"NVIDIA B200\",\"days\":7,\"lots\":2,\"gpus_per_lot\":2,\"total_gpus\":4,\"lot_price_cents\":168000,\"total_price_cents\":336000,\"total_price\":\"3360\\.00\",\"accepted_results\":null,\"unit_cost_cents\":null,\"notes\":\\[\"ILLUSTRATIVE[^\"]*not a real offer[^\"]*\",[^]]*\\]\\}\n$"
  ARGS ${_cf_b200} --json)
iteragpu_cli_case(calcul_forfaits_seed_unit_cost PROGRAM calcul_forfaits EXIT 0
  STDOUT "\"total_price_cents\":336000,.*\"accepted_results\":3,\"unit_cost_cents\":\"112000\\.0000\","
  ARGS ${_cf_b200} --accepted-results 3 --json)
iteragpu_cli_case(calcul_forfaits_seed_text PROGRAM calcul_forfaits EXIT 0
  STDOUT "ILLUSTRATIVE catalog: not a real offer.*2 x 2 GPUs per lot = 4 GPUs.*lot price     1680\\.00 USD.*total price   3360\\.00 USD.*not computed \\(no --accepted-results\\).*provider illustrative, snapshot 2026-09-24.*neither availability nor a reservation"
  ARGS ${_cf_b200})
iteragpu_cli_case(calcul_forfaits_tie_rounds_to_even PROGRAM calcul_forfaits EXIT 0
  STDOUT "\"unit_cost_cents\":\"3548\\.5714\""
  ARGS --gpu h200 --days 3 --lots 1 --accepted-results 7 --json)
iteragpu_cli_case(calcul_forfaits_list PROGRAM calcul_forfaits EXIT 0
  STDOUT "45 packages\n.*not a real offer.*b200 +NVIDIA B200 +180 +2 +7 +1680\\.00\n.*rtx-4090 +NVIDIA GeForce RTX 4090 +24 +1 +30 +208\\.80\n"
  ARGS --list)
iteragpu_cli_case(calcul_forfaits_crlf_catalog PROGRAM calcul_forfaits EXIT 0
  STDOUT "\"provider\":\"acme\",.*\"illustrative\":false,.*\"name\":\"Example X1, \\\\\"80 GB\\\\\"\",.*\"total_price_cents\":600000,"
  ARGS --catalog "${_cf_catalogs}/valid-crlf-quoted.csv" --gpu x1 --days 30 --lots 2 --json)
iteragpu_cli_case(calcul_forfaits_help PROGRAM calcul_forfaits EXIT 0 STDOUT "--accepted-results.*half to even" ARGS --help)

# Bad input: exit 2, one line on stderr, nothing on stdout.
function(_cf_refused name stderr)
  iteragpu_cli_case(calcul_forfaits_${name} PROGRAM calcul_forfaits EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
    STDERR "${stderr}" ARGS ${ARGN})
endfunction()
_cf_refused(unknown_gpu "--gpu: 'b201' is not in the catalog; expected one of: b300, b200, .*, rtx-4090"
  --gpu b201 --days 7 --lots 1)
_cf_refused(unknown_duration "--days: b200 has no 5-day package; expected 3, 7 or 30" --gpu b200 --days 5 --lots 1)
_cf_refused(zero_lots "--lots: '0' is too small" --gpu b200 --days 7 --lots 0)
_cf_refused(negative_lots "--lots" --gpu b200 --days 7 --lots -2)
_cf_refused(malformed_lots "--lots: '2x'" --gpu b200 --days 7 --lots 2x)
_cf_refused(missing_lots "--lots is required" --gpu b200 --days 7)
_cf_refused(zero_accepted "--accepted-results: '0' is too small" ${_cf_b200} --accepted-results 0)
_cf_refused(malformed_accepted "--accepted-results: '1e3'" ${_cf_b200} --accepted-results 1e3)
_cf_refused(total_price_overflow "--lots: 18446744073709551615 lots x 100800 cents is past 64 bits"
  --gpu b300 --days 7 --lots 18446744073709551615)
_cf_refused(total_gpus_overflow "--lots: 9223372036854775808 lots x 2 GPUs per lot does not fit in 64 bits"
  --gpu b200 --days 7 --lots 9223372036854775808)
_cf_refused(missing_catalog "--catalog: '/nonexistent/tarifs.csv' does not exist"
  --catalog /nonexistent/tarifs.csv ${_cf_b200})
_cf_refused(catalog_is_a_directory "is not a regular file" --catalog "${_cf_catalogs}" ${_cf_b200})
_cf_refused(list_with_gpu "--gpu does not go with it" --list --gpu b200)
_cf_refused(unknown_flag "--currency" ${_cf_b200} --currency EUR)

# Each invalid catalog fixture, with its file:line:column reason.
foreach(_case IN ITEMS
    "empty|1:1: an empty file"
    "header-only|2:1: no price rows after the header"
    "bad-header|1:78: header field 9 'price_cents'; expected 'lot_price_cents'"
    "missing-duration|2:21: x1 with rows for 3 and 7 days only"
    "duplicate-row|5:40: a second x1 row for 7 days"
    "zero-price|2:42: lot_price_cents '0'; expected a positive whole number"
    "decimal-price|2:42: lot_price_cents '300\\.00'"
    "price-too-large|2:42: lot_price_cents '18446744073709551616'; expected a price that fits 64 bits"
    "two-providers|5:1: provider 'other'; expected 'acme' as on line 2"
    "euro|2:6: currency 'EUR'; expected USD"
    "bad-date|2:10: snapshot_date '24/09/2026'; expected an ISO 8601 calendar date"
    "bad-gpu-id|2:21: gpu 'X1'"
    "lots-differ|4:38: gpus_per_lot '2' for x1; expected 1 as on line 2"
    "unclosed-quote|4:24: a quoted field that is never closed"
    "eight-fields|3:41: a row of 8 fields; expected 9 fields")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _fixture)
  list(GET _parts 1 _reason)
  _cf_refused(catalog_${_fixture} "^calcul_forfaits: invalid catalog: [^\n]*/${_fixture}\\.csv:${_reason}"
    --catalog "${_cf_catalogs}/${_fixture}.csv" --list)
endforeach()

# The default catalog from an install: install into a fresh prefix, move the
# prefix elsewhere, and run the installed program from an unrelated working
# directory; it must read the catalog of its own prefix.
if(ITERAGPU_INSTALL)
  add_test(NAME cli.calcul_forfaits_installed
    COMMAND "${CMAKE_COMMAND}" "-DBUILD_DIR=${PROJECT_BINARY_DIR}"
            "-DWORK=${CMAKE_CURRENT_BINARY_DIR}/calcul_forfaits_installed"
            "-DBINDIR=${CMAKE_INSTALL_BINDIR}" "-DDATADIR=${CMAKE_INSTALL_DATADIR}"
            -P "${CMAKE_CURRENT_SOURCE_DIR}/calcul_forfaits_installed.cmake")
  set_tests_properties(cli.calcul_forfaits_installed PROPERTIES LABELS cli RESOURCE_LOCK build_tree)
endif()

# Bounded time and memory whatever the catalog holds, under a 256 MiB
# address-space cap: a file whose size the file system reports as 0
# (/proc/self/pagemap) is read up to the 16 MiB limit and refused; 16 MiB of
# trailing empty lines (allowed) are read in linear time and constant extra
# memory; one byte more is refused before it is parsed.
set(_cf_cap 268435456)
set(_cf_padded "${CMAKE_CURRENT_BINARY_DIR}/padded-16MiB.csv")
set(_cf_overfull "${CMAKE_CURRENT_BINARY_DIR}/padded-16MiB-and-1.csv")
add_test(NAME cli.calcul_forfaits_make_padded_catalogs
  COMMAND "${CMAKE_COMMAND}" -E chdir "${CMAKE_CURRENT_BINARY_DIR}"
          "${CMAKE_COMMAND}" "-DSOURCE=${PROJECT_SOURCE_DIR}/data/tarifs-forfaits.csv" "-DOUT=${_cf_padded}"
          -DSIZE=16777216 -P "${CMAKE_CURRENT_SOURCE_DIR}/make_padded_catalog.cmake")
add_test(NAME cli.calcul_forfaits_make_overfull_catalog
  COMMAND "${CMAKE_COMMAND}" "-DSOURCE=${PROJECT_SOURCE_DIR}/data/tarifs-forfaits.csv" "-DOUT=${_cf_overfull}"
          -DSIZE=16777217 -P "${CMAKE_CURRENT_SOURCE_DIR}/make_padded_catalog.cmake")
set_tests_properties(cli.calcul_forfaits_make_padded_catalogs cli.calcul_forfaits_make_overfull_catalog
  PROPERTIES FIXTURES_SETUP padded_catalogs LABELS cli)
iteragpu_cli_case(calcul_forfaits_pagemap_refused PROGRAM calcul_forfaits EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  LIMIT_AS ${_cf_cap} STDERR "--catalog: '/proc/self/pagemap' is larger than 16 MiB"
  ARGS --catalog /proc/self/pagemap --list)
iteragpu_cli_case(calcul_forfaits_16MiB_of_empty_lines_read PROGRAM calcul_forfaits EXIT 0
  LIMIT_AS ${_cf_cap} STDOUT "45 packages\n.*rtx-4090 +NVIDIA GeForce RTX 4090 +24 +1 +30 +208\\.80\n"
  ARGS --catalog "${_cf_padded}" --list)
iteragpu_cli_case(calcul_forfaits_past_16MiB_refused PROGRAM calcul_forfaits EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  LIMIT_AS ${_cf_cap} STDERR "is larger than 16 MiB" ARGS --catalog "${_cf_overfull}" --list)
set_tests_properties(cli.calcul_forfaits_16MiB_of_empty_lines_read cli.calcul_forfaits_past_16MiB_refused
  PROPERTIES FIXTURES_REQUIRED padded_catalogs)
