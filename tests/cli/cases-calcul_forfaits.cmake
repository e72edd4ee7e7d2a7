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
  STDOUT "ILLUSTRATIVE catalog: not a real offer.*2 x 2 GPUs per lot = 4 GPUs.*lot price     1680\\.00 USD.*total price   3360\\.00 USD.*not computed \\(no count of accepted results\\).*provider illustrative, snapshot 2026-09-24.*neither availability nor a reservation"
  ARGS ${_cf_b200})
iteragpu_cli_case(calcul_forfaits_tie_rounds_to_even PROGRAM calcul_forfaits EXIT 0
  STDOUT "\"unit_cost_cents\":\"3548\\.5714\""
  ARGS --gpu h200 --days 3 --lots 1 --accepted-results 7 --json)
iteragpu_cli_case(calcul_forfaits_list PROGRAM calcul_forfaits EXIT 0
  STDOUT "48 packages\n.*not a real offer.*b200 +NVIDIA B200 +180 +2 +7 +1680\\.00\n.*rtx-4090 +NVIDIA GeForce RTX 4090 +24 +1 +30 +208\\.80\nl4 +NVIDIA L4 +24 +1 +3 +36\\.00\n"
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
  LIMIT_AS ${_cf_cap} STDOUT "48 packages\n.*rtx-4090 +NVIDIA GeForce RTX 4090 +24 +1 +30 +208\\.80\n"
  ARGS --catalog "${_cf_padded}" --list)
iteragpu_cli_case(calcul_forfaits_past_16MiB_refused PROGRAM calcul_forfaits EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  LIMIT_AS ${_cf_cap} STDERR "is larger than 16 MiB" ARGS --catalog "${_cf_overfull}" --list)
set_tests_properties(cli.calcul_forfaits_16MiB_of_empty_lines_read cli.calcul_forfaits_past_16MiB_refused
  PROPERTIES FIXTURES_REQUIRED padded_catalogs)

# Searches: --fits, --fits-gib, --gpu-hours, and --compare-days.
set(_cf_fits "${PROJECT_SOURCE_DIR}/tests/data/fits")
set(_cf_estimate "${CMAKE_CURRENT_BINARY_DIR}/fits-estimate.json")

# The issue's example, end to end: the estimate of 7e9 parameters at 16 bits
# with a 4 GiB reserve (17.03851604461669921875 GiB) holds on every GPU of
# the shipped catalog; their 7-day lots, cheapest first, ties in the order
# of the catalog's rows; b200 sells 2 GPUs a lot. The same list from the
# file and from the GiB.
iteragpu_cli_case(calcul_forfaits_fits_write_estimate PROGRAM mesure_memoire EXIT 0 STDOUT_FILE "${_cf_estimate}"
  ARGS estimate --parameters 7000000000 --bits 16 --reserve-gib 4 --json)
set_tests_properties(cli.calcul_forfaits_fits_write_estimate PROPERTIES FIXTURES_SETUP fits_estimate)
set(_cf_seven_days "")
foreach(_row IN ITEMS "rtx-4090|1|48.72" "a6000|1|84.00" "l4|1|84.00" "rtx-5090|1|127.68" "l40s|1|157.92" "a100-40gb|1|168.00"
    "l40|1|168.00" "a100-80gb|1|233.52" "rtx-pro-6000|1|243.60" "h100-pcie|1|334.32" "h100-sxm|1|433.44"
    "h100-nvl|1|435.12" "mi300x|1|435.12" "h200|1|579.60" "b300|1|1008.00" "b200|2|1680.00")
  string(REPLACE "|" ";" _parts "${_row}")
  list(GET _parts 0 _gpu)
  list(GET _parts 1 _gpus)
  list(GET _parts 2 _price)
  string(REPLACE "." "\\." _price "${_price}")
  string(APPEND _cf_seven_days "\n${_gpu} [^\n]* fits +[0-9]+\\.[0-9][0-9] +7 +1 +${_gpus} +${_price} [^\n]*")
endforeach()
# A need read from a file is shown in bytes, its size beside for reading;
# GiB given with --fits-gib are shown as typed.
set(_cf_seven_days_list
  "^ILLUSTRATIVE catalog[^\n]*\nPackages of at least 1 GPU that holds 17\\.03851604461669921875 GiB \\(18294967296 bytes\\), 7 days: 16 packages\n.*USD/GPU-hour${_cf_seven_days}\nMemory rule \\(data/README\\.md\\): ")
set(_cf_seven_days_list_from_a_file
  "^ILLUSTRATIVE catalog[^\n]*\nPackages of at least 1 GPU that holds 18294967296 bytes \\(17\\.04 GiB\\), 7 days: 16 packages\n.*USD/GPU-hour${_cf_seven_days}\nMemory rule \\(data/README\\.md\\): ")
iteragpu_cli_case(calcul_forfaits_fits_estimate_file PROGRAM calcul_forfaits EXIT 0 STDOUT "${_cf_seven_days_list_from_a_file}"
  ARGS --fits "${_cf_estimate}" --days 7)
set_tests_properties(cli.calcul_forfaits_fits_estimate_file PROPERTIES FIXTURES_REQUIRED fits_estimate)
iteragpu_cli_case(calcul_forfaits_fits_gib PROGRAM calcul_forfaits EXIT 0 STDOUT "${_cf_seven_days_list}"
  ARGS --fits-gib 17.03851604461669921875 --days 7)

# Catalogs of our own: ties at 30.00 (fits before tight, then the catalog's
# order), 5 GPUs on r80's lots of 4 (2 lots, 8 GPUs), GPU-hours up to 64 bits.
iteragpu_cli_case(calcul_forfaits_fits_ties PROGRAM calcul_forfaits EXIT 0
  STDOUT "\"packages\":\\[\\{\"gpu\":\"q48\",\"name\":\"Test Q48\",\"memory_gb_per_gpu\":48,\"gpus_per_lot\":1,\"days\":3,\"lots\":1,\"total_gpus\":1,\"lot_price_cents\":3000,\"total_price_cents\":3000,\"total_price\":\"30\\.00\",\"fit\":\\{\"verdict\":\"fits\",\"basis\":\"nominal\",\"runtime_low_bytes\":47520000000,\"runtime_high_bytes\":51539607552,\"headroom_bytes\":7520000000,\"shortfall_bytes\":0\\},\"gpu_hours\":72,\"price_per_gpu_hour_cents\":\"41\\.6667\",\"unused_gpu_hours\":null,\"unit_cost_cents\":null\\},\\{\"gpu\":\"r80\",[^}]*\"total_gpus\":4,[^}]*\"verdict\":\"fits\"[^]]*\\{\"gpu\":\"p40\",[^}]*\"total_price_cents\":3000,[^}]*\"verdict\":\"tight\",[^}]*\"shortfall_bytes\":400000000\\}"
  ARGS --catalog "${_cf_fits}/catalog-ties.csv" --fits-gib 37.252902984619140625 --days 3 --json)
iteragpu_cli_case(calcul_forfaits_fits_gpus_round_up_to_lots PROGRAM calcul_forfaits EXIT 0
  STDOUT "\nr80 +Test R80 +80 +fits +73\\.76 +30 +2 +8 +1600\\.00 +5760 +0\\.277778\n"
  ARGS --catalog "${_cf_fits}/catalog-ties.csv" --fits-gib 0 --gpus 5 --days 30)
iteragpu_cli_case(calcul_forfaits_gpu_hours_to_64_bits PROGRAM calcul_forfaits EXIT 0
  STDOUT "\"gpu_hours\":18446744073709551600,\"accepted_results\":null,.*\"days\":30,\"lots\":25620477880152155,\"total_gpus\":25620477880152155,\"lot_price_cents\":5,\"total_price_cents\":128102389400760775,\"total_price\":\"1281023894007607\\.75\",\"fit\":null,\"gpu_hours\":18446744073709551600,\"price_per_gpu_hour_cents\":\"0\\.0069\",\"unused_gpu_hours\":0,"
  ARGS --catalog "${_cf_fits}/catalog-tiny.csv" --gpu-hours 18446744073709551600 --json)
iteragpu_cli_case(calcul_forfaits_fits_measurement PROGRAM calcul_forfaits EXIT 0
  STDOUT "\"memory_need\":\\{\"bytes\":2027945984,\"gib\":\"1\\.888671875\",\"gb\":\"2\\.027945984\",\"source\":\"measurement \\(schema_version 2\\): [^\"]*plus the memory outside the allocator, 593494016 bytes"
  ARGS --fits "${_cf_fits}/measurement-v2.json" --days 30 --json)
# measurement-v2-outside.json: the end of the first row of largest device use
# gives 200 bytes outside the allocator, the same with ties broken by the
# larger difference 500, and the largest difference of every sample (the one
# definition, memory/measured_need.hpp) 700, at model_load's baseline: a
# need of 1900 + 700 bytes (tests/unit/memory/measured_need_test.cpp has the sums).
iteragpu_cli_case(calcul_forfaits_fits_measurement_outside_largest_of_every_sample PROGRAM calcul_forfaits EXIT 0
  STDOUT "\"memory_need\":\\{\"bytes\":2600,[^}]*plus the memory outside the allocator, 700 bytes: the largest device used less reserved at the baseline and end of every row \\(device used 700 less reserved 0\\)"
  ARGS --fits "${_cf_fits}/measurement-v2-outside.json" --days 30 --json)
iteragpu_cli_case(calcul_forfaits_compare_days PROGRAM calcul_forfaits EXIT 0
  STDOUT "\"days\":7,\"lot_price_cents\":2400,\"lot_price\":\"24\\.00\",\"gpu_days\":7,\"price_per_gpu_day_cents\":\"342\\.8571\",\"dearer\":true,\"saving_per_gpu_day_cents\":\"-9\\.5238\",\"saving_percent\":\"-2\\.86\",\"unit_cost_cents\":\"800\\.0000\""
  ARGS --catalog "${_cf_fits}/catalog-durations.csv" --gpu d2 --compare-days --accepted-results 3 --json)
iteragpu_cli_case(calcul_forfaits_compare_days_text PROGRAM calcul_forfaits EXIT 0
  STDOUT "^ILLUSTRATIVE catalog[^\n]*\nDurations compared: h200 \\(NVIDIA H200 SXM, 141 GB per GPU\\), one lot of 1 GPU\n.*\n +30 +2484\\.00 +30 +82\\.800000 +0\\.000000 +0\\.00\n"
  ARGS --gpu h200 --compare-days)

# Bad searches: exit 2, one line naming the flag, nothing on stdout.
string(REPEAT "7" 1000 _cf_thousand_digits)
_cf_refused(fits_missing_file "--fits: '/nonexistent/e\\.json' does not exist; expected the JSON of"
  --fits /nonexistent/e.json)
_cf_refused(fits_directory "--fits: '[^']*/fits' is not a regular file" --fits "${_cf_fits}")
_cf_refused(fits_malformed "--fits: '[^']*/truncated\\.json': not valid JSON" --fits "${_cf_fits}/truncated.json")
_cf_refused(fits_quote "--fits: '[^']*/quote\\.json': a JSON object that is neither an estimate, a plan nor a measurement"
  --fits "${_cf_fits}/quote.json")
_cf_refused(fits_other_kind "--fits: '[^']*/kind-sweep\\.json': JSON of kind 'sweep'" --fits "${_cf_fits}/kind-sweep.json")
_cf_refused(fits_schema_3 "--fits: [^\n]*a measurement of schema_version '3'" --fits "${_cf_fits}/schema-version-3.json")
_cf_refused(fits_pagemap "--fits: '/proc/self/pagemap' is larger than 16 MiB" --fits /proc/self/pagemap)
_cf_refused(fits_gib_negative "--fits-gib: '-1' is not a plain decimal" --fits-gib -1)
_cf_refused(fits_gib_malformed "--fits-gib: '17,04' is not a plain decimal" --fits-gib 17,04)
_cf_refused(fits_gib_1000_digits "--fits-gib: '7777[7]*' has a whole part past 64 bits" --fits-gib ${_cf_thousand_digits})
_cf_refused(fits_gib_1000_fraction_digits "--fits-gib: '0\\.7777[7]*' has more than 40 digits after the point"
  --fits-gib 0.${_cf_thousand_digits})
_cf_refused(fits_gib_past_64_bits "--fits-gib: '17179869184' GiB is 2\\^64 bytes or more" --fits-gib 17179869184)
_cf_refused(gpus_zero "--gpus: '0' is too small; expected a positive integer count of GPUs" --fits-gib 1 --gpus 0)
_cf_refused(gpu_hours_zero "--gpu-hours: '0' is too small" --gpu-hours 0)
_cf_refused(fits_days_unknown "--days: no package lasts '5' days; expected 3, 7 or 30" --fits-gib 1 --days 5)
_cf_refused(fits_and_fits_gib "--fits and --fits-gib do not go together"
  --fits "${_cf_fits}/plan.json" --fits-gib 3)
_cf_refused(fits_with_gpu "--gpu does not go with --fits-gib" --fits-gib 3 --gpu b200)
_cf_refused(fits_with_lots "--lots does not go with --fits" --fits "${_cf_fits}/plan.json" --lots 2)
_cf_refused(gpus_without_search "--gpus goes with a search \\(--fits, --fits-gib or --gpu-hours\\)"
  --gpu b200 --days 7 --lots 1 --gpus 2)
_cf_refused(compare_days_without_gpu "--compare-days needs --gpu" --compare-days)
_cf_refused(compare_days_with_days "--compare-days shows every duration of one GPU; --days does not go with it"
  --compare-days --gpu b200 --days 7)
_cf_refused(list_with_fits_gib "--list prints the whole catalog; --fits-gib does not go with it" --list --fits-gib 1)
_cf_refused(gpu_hours_past_64_bits
  "--gpu-hours: t1, 3 days: 256204778801521551 lots x 1 GPU per lot x 3 days x 24 does not fit in 64 bits of GPU-hours"
  --catalog "${_cf_fits}/catalog-tiny.csv" --gpu-hours 18446744073709551601)

# Output that cannot be delivered is an error here too.
foreach(_case IN ITEMS "fits_text|--fits-gib|1" "fits_json|--fits-gib|1|--json" "compare_days|--gpu|h200|--compare-days")
  string(REPLACE "|" ";" _parts "${_case}")
  list(POP_FRONT _parts _name)
  iteragpu_cli_case(stdout_full_calcul_forfaits_${_name} PROGRAM calcul_forfaits EXIT 1 STDOUT_FILE /dev/full
    ONE_LINE_STDERR STDERR "could not be written to standard output" ARGS ${_parts})
endforeach()

# A plan of mesure_memoire, end to end: its memory_need is the need.
set(_cf_plan "${CMAKE_CURRENT_BINARY_DIR}/fits-plan.json")
iteragpu_cli_case(calcul_forfaits_fits_write_plan PROGRAM mesure_memoire EXIT 0 STDOUT_FILE "${_cf_plan}"
  ARGS plan --batch 8 --context 512 --width 4096 --dtype bfloat16 --json)
set_tests_properties(cli.calcul_forfaits_fits_write_plan PROPERTIES FIXTURES_SETUP fits_plan)
iteragpu_cli_case(calcul_forfaits_fits_plan PROGRAM calcul_forfaits EXIT 0
  STDOUT "\"memory_need\":\\{\"bytes\":[0-9]+,[^}]*\"source\":\"plan --json: its memory_need\\.bytes, the predicted peak reserved plus the memory outside the allocator[^}]*\\},\"memory_rule\":\"Memory rule[^\"]*\",\"gpus\":1,\"days\":3,.*\"packages\":\\[\\{\"gpu\":\"rtx-4090\",[^]]*\\{\"gpu\":\"b200\",[^]]*\\]"
  ARGS --fits "${_cf_plan}" --days 3 --json)
set_tests_properties(cli.calcul_forfaits_fits_plan PROPERTIES FIXTURES_REQUIRED fits_plan)

# --fits-gib is echoed as typed, beside the whole bytes it rounds up to.
iteragpu_cli_case(calcul_forfaits_fits_gib_echoed_as_typed PROGRAM calcul_forfaits EXIT 0
  STDOUT "\nPackages of at least 1 GPU that holds 139\\.8 GiB \\(150109106996 bytes\\), every duration: "
  ARGS --fits-gib 139.8)

# Without any argument, the modes are named; both programs' help names --version.
iteragpu_cli_case(calcul_forfaits_no_arguments_names_its_modes PROGRAM calcul_forfaits EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^calcul_forfaits: no mode given; expected a quote \\(--gpu ID --days N --lots N\\), a search \\(--fits FILE, --fits-gib X or --gpu-hours H\\), a comparison \\(--gpu ID --compare-days\\) or --list; --help shows every flag\n$")
iteragpu_cli_case(calcul_forfaits_help_names_version PROGRAM calcul_forfaits EXIT 0
  STDOUT "\ncalcul_forfaits --version prints the version of the library\\.\n" ARGS --help)
iteragpu_cli_case(program_help_names_version PROGRAM mesure_memoire EXIT 0
  STDOUT "\nmesure_memoire COMMAND --help shows the flags of one command; mesure_memoire --version the versions it was built with\\.\n"
  ARGS --help)

# A memory snapshot given to --fits as it is: the pickle is named, with the
# replay that gives its need.
iteragpu_cli_case(calcul_forfaits_fits_a_pickle_hints_replay_json PROGRAM calcul_forfaits EXIT 2 STDOUT_EMPTY
  ONE_LINE_STDERR STDERR "^calcul_forfaits: --fits: '[^']*/snapshot_protocol4\\.pickle' is a pickle, not JSON; for a memory snapshot, run `mesure_memoire replay FILE --json > replay\\.json` and give --fits replay\\.json; expected the JSON of "
  ARGS --fits "${PROJECT_SOURCE_DIR}/tests/data/snapshots/snapshot_protocol4.pickle")

# A replay in which every setting ran out of memory under the capacity
# asked gives no need: said so, with the search that gives one.
iteragpu_cli_case(calcul_forfaits_fits_a_replay_that_ran_out_names_the_search PROGRAM calcul_forfaits EXIT 2
  STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^calcul_forfaits: --fits: '[^']*/replay-every-setting-ran-out\\.json': replay --json in which every setting replayed ran out of memory under the capacity asked, so it gives no need; run `replay SNAPSHOT --smallest-capacity --json` for the least capacity each setting needs, and give --fits that file; expected the JSON of "
  ARGS --fits "${_cf_fits}/replay-every-setting-ran-out.json")
# --help names every document --fits reads, replay --json among them.
iteragpu_cli_case(calcul_forfaits_help_names_replay_json_for_fits PROGRAM calcul_forfaits EXIT 0
  STDOUT "`plan --json` or `replay --json` \\(its least"
  ARGS --help)
