// ops_replay OPS.json [--alloc-conf CONF] [--capacity-bytes N] [--device-memory-bytes N] [--as-recorded]
//
// The simulated side of the differential oracle for generated request
// sequences (tests/oracle/oracle.py generate): the same requests, in the
// same order, made to iteragpu's caching allocator (memory/prediction/),
// emptyCache where the sequence has one, stopping at the first refused
// request as the oracle does. Prints one JSON object with the figures
// oracle.py run prints: peak_allocated_bytes, peak_reserved_bytes,
// alloc_retries, oom and refused ({request, size} or null), where request
// is the index of the refused one among the requests (allocations and
// frees). A recorded trace cannot say where a program's emptyCache stood
// when it released nothing, so these sequences are replayed here, from
// their requests, rather than through `replay`. Exit 2 for bad input.
//
// --as-recorded: the oracle's runs under a condition read the requests back
// from the trace the oracle recorded under PyTorch's defaults, where an
// emptyCache shows only when it released a segment; such a run makes no
// emptyCache where, under the defaults, it released nothing. This flag
// drops the same ones: those that release nothing when the sequence runs
// under the defaults with no capacity (where the simulation and the oracle
// agree on every sequence).
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include <iteragpu/io.hpp>
#include <iteragpu/memory/prediction/allocator_settings.hpp>
#include <iteragpu/memory/prediction/caching_allocator.hpp>
#include <iteragpu/parse.hpp>

namespace {

namespace json = boost::json;
namespace prediction = iteragpu::memory::prediction;

int refuse(const std::string& why) {
  std::cerr << "ops_replay: " << why << '\n';
  return 2;
}

std::uint64_t number(const json::value& v) {
  return v.is_uint64() ? v.get_uint64() : static_cast<std::uint64_t>(v.as_int64());
}

}  // namespace

int main(int argc, char** argv) {
  const std::span<char*> given(argv, static_cast<std::size_t>(argc));
  const std::vector<std::string> words(given.begin() + 1, given.end());
  if (words.empty()) {
    return refuse("usage: ops_replay OPS.json [--alloc-conf CONF] [--capacity-bytes N]");
  }
  std::string conf;
  std::optional<iteragpu::byte_count> capacity;
  iteragpu::byte_count device_memory = prediction::h200_device_memory;
  bool as_recorded = false;
  for (std::size_t i = 1; i < words.size(); i += 2) {
    if (words[i] == "--as-recorded") {
      as_recorded = true;
      --i;
    } else if (i + 1 == words.size()) {
      return refuse(words[i] + " needs a value");
    } else if (words[i] == "--alloc-conf") {
      conf = words[i + 1];
    } else if (words[i] == "--capacity-bytes") {
      const auto n = iteragpu::parse_unsigned(words[i + 1]);
      if (!n) {
        return refuse("--capacity-bytes: expected a whole number of bytes");
      }
      capacity = iteragpu::byte_count{*n};
    } else if (words[i] == "--device-memory-bytes") {
      const auto n = iteragpu::parse_unsigned(words[i + 1]);
      if (!n) {
        return refuse("--device-memory-bytes: expected a whole number of bytes");
      }
      device_memory = iteragpu::byte_count{*n};
    } else {
      return refuse("unknown flag " + words[i]);
    }
  }
  const auto settings = prediction::parse_alloc_conf(conf);
  if (!settings) {
    return refuse("--alloc-conf: refused");
  }
  const auto text = iteragpu::read_whole_file(words[0]);
  if (!text) {
    return refuse(words[0] + ": cannot be read");
  }
  json::error_code error;
  const json::value document = json::parse(*text, error);
  if (error || !document.is_object() || !document.as_object().contains("ops")) {
    return refuse(words[0] + ": expected the JSON of oracle.py generate");
  }
  const auto& ops = document.at("ops").as_array();
  // Which emptyCache calls release a segment under the defaults.
  std::vector<bool> releases(ops.size(), true);
  if (as_recorded) {
    prediction::caching_allocator defaults;
    std::map<std::uint64_t, prediction::block_handle> held;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const auto& op = ops[i].as_array();
      const auto kind = op.at(0).as_string();
      if (kind == "e") {
        const auto before = defaults.statistics().reserved;
        defaults.empty_cache();
        releases[i] = defaults.statistics().reserved != before;
      } else if (kind == "f") {
        if (const auto found = held.find(number(op.at(1))); found != held.end()) {
          static_cast<void>(defaults.free(found->second));
          held.erase(found);
        }
      } else if (const auto block = defaults.allocate(iteragpu::byte_count{number(op.at(2))}, number(op.at(3)))) {
        held[number(op.at(1))] = *block;
      }
    }
  }
  prediction::caching_allocator allocator(*settings, capacity, device_memory);
  std::map<std::uint64_t, prediction::block_handle> live;
  std::uint64_t requests = 0;
  json::value refused = nullptr;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const auto& op = ops[i].as_array();
    const auto kind = op.at(0).as_string();
    if (kind == "e") {
      if (releases[i]) {
        allocator.empty_cache();
      }
    } else if (kind == "f") {
      const auto found = live.find(number(op.at(1)));
      if (found != live.end()) {
        if (!allocator.free(found->second)) {
          return refuse("a free the simulation refused at request " + std::to_string(requests));
        }
        live.erase(found);
      }
      ++requests;
    } else {
      const std::uint64_t size = number(op.at(2));
      const auto block = allocator.allocate(iteragpu::byte_count{size}, number(op.at(3)));
      if (!block) {
        refused = json::object{{"request", requests}, {"size", size}};
        break;
      }
      live[number(op.at(1))] = *block;
      ++requests;
    }
  }
  const auto stats = allocator.statistics();
  std::cout << json::serialize(json::object{{"peak_allocated_bytes", stats.peak_allocated.value},
                                            {"peak_reserved_bytes", stats.peak_reserved.value},
                                            {"alloc_retries", allocator.counters().alloc_retries},
                                            {"oom", !refused.is_null()},
                                            {"refused", refused}})
            << '\n';
  return 0;
}
