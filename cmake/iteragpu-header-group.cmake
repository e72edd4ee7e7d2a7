# iteragpu_header_group(HEADER OUT): the target a header (a path relative to
# include/) belongs to: core, json or torch. The one place that says
# so; tests/headers uses it too.
function(iteragpu_header_group header out)
  if(header MATCHES "^iteragpu/torch/")
    set(${out} torch PARENT_SCOPE)
  elseif(header MATCHES "^iteragpu/report/" OR header MATCHES "^iteragpu/memory/files/"
         OR header MATCHES "^iteragpu/sweep/files/"
         OR header MATCHES "^iteragpu/(impl/)?json_keys\\.(hpp|ipp)$"
         OR header STREQUAL "iteragpu/iteragpu.hpp" OR header STREQUAL "iteragpu/report.hpp"
         OR header STREQUAL "iteragpu/src.hpp" OR header STREQUAL "iteragpu/src_json.hpp")
    set(${out} json PARENT_SCOPE)
  else()
    set(${out} core PARENT_SCOPE)
  endif()
endfunction()
