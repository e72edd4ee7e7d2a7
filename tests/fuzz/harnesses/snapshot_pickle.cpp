// read_pickle and read_snapshot_bytes on any bytes, with small limits so
// that a pickle that copies a memo entry over and over stays cheap. No
// crash, no sanitizer report, and the promises of the error and the result:
// an error points at the byte it names and classifies it as the opcode
// table does; a result comes only from data that ends at its STOP;
// snapshot bytes starting with 0x80 read exactly as the pickle does; every
// error has one line of words.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <boost/json.hpp>

#include <iteragpu/memory/files/pickle.hpp>
#include <iteragpu/memory/files/snapshot_file.hpp>
#include <iteragpu/report/snapshot_errors.hpp>

#include "fuzz_input.hpp"

namespace {

using iteragpu::memory::pickle_errc;
using iteragpu::memory::pickle_error;
using iteragpu::memory::pickle_opcode_use;

[[nodiscard]] bool one_line(const std::string& text) { return !text.empty() && text.find('\n') == std::string::npos; }

void check_error(std::span<const unsigned char> data, const pickle_error& e) {
  fuzz::require(one_line(iteragpu::report::describe(e)), "a pickle error has one line of words");
  switch (e.code) {
    case pickle_errc::empty:
      fuzz::require(data.empty() && e.offset == 0, "empty only for no bytes");
      return;
    case pickle_errc::truncated:
    case pickle_errc::no_stop:
      fuzz::require(e.offset == data.size(), "a cut-short pickle is refused at its end");
      return;
    case pickle_errc::too_large:
      if (e.opcode == 0) {
        return;
      }
      break;
    default:
      break;
  }
  fuzz::require(e.offset < data.size() && data[e.offset] == e.opcode, "an error names the byte at its offset");
  const pickle_opcode_use use = iteragpu::memory::pickle_opcode_use_of(e.opcode);
  // A trailing byte is any byte after STOP, never read as an opcode.
  if (e.code != pickle_errc::trailing_bytes) {
    fuzz::require((e.code == pickle_errc::forbidden_opcode) == (use == pickle_opcode_use::runs_code),
                  "exactly the opcodes that run code are forbidden");
  }
  if (e.code == pickle_errc::unsupported_opcode) {
    fuzz::require(use == pickle_opcode_use::not_read, "unsupported means a plain opcode not read");
  }
  if (e.code == pickle_errc::unknown_opcode) {
    fuzz::require(use == pickle_opcode_use::no_opcode, "unknown means no opcode");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const unsigned char> bytes(data, size);
  iteragpu::memory::pickle_limits limits;
  limits.max_depth = 64;
  limits.max_entries = 100'000;
  const auto read = iteragpu::memory::read_pickle(bytes, limits);
  if (read) {
    fuzz::require(!bytes.empty() && bytes.back() == '.', "a pickle read ends at its STOP");
  } else {
    check_error(bytes, read.error());
  }
  const auto again = iteragpu::memory::read_pickle(bytes, limits);
  fuzz::require(again.has_value() == read.has_value(), "reading is deterministic");
  if (read) {
    // Compared as text: a NaN read is unequal to itself.
    fuzz::require(boost::json::serialize(*again) == boost::json::serialize(*read), "reading twice gives equal values");
  } else {
    fuzz::require(again.error() == read.error(), "reading twice gives the same error");
  }

  const auto snapshot = iteragpu::memory::read_snapshot_bytes(bytes, limits);
  if (!snapshot) {
    fuzz::require(one_line(iteragpu::report::describe(snapshot.error())), "a snapshot error has one line of words");
  }
  if (!bytes.empty() && bytes.front() == iteragpu::memory::pickle_first_byte) {
    if (read && read->is_object()) {
      fuzz::require(snapshot.has_value() && boost::json::serialize(*snapshot) == boost::json::serialize(*read),
                    "a snapshot pickle reads as the pickle does");
    } else if (read) {
      fuzz::require(!snapshot && snapshot.error().code == iteragpu::memory::snapshot_file_errc::not_a_dict,
                    "a pickle of something else than a dict is not a snapshot");
    } else {
      fuzz::require(!snapshot && snapshot.error().code == iteragpu::memory::snapshot_file_errc::pickle &&
                        snapshot.error().what == iteragpu::memory::snapshot_file_data{read.error()},
                    "a refused pickle is refused as a snapshot for the same reason");
    }
  }
  return 0;
}
