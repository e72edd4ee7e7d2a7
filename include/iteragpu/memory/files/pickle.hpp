#ifndef ITERAGPU_MEMORY_FILES_PICKLE_HPP
#define ITERAGPU_MEMORY_FILES_PICKLE_HPP

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <system_error>
#include <vector>

#include <boost/json.hpp>

#include "iteragpu/result.hpp"

/// \file
/// A reader of pickles that hold plain data, such as the files
/// `torch.cuda.memory._dump_snapshot()` writes (`pickle.dump` of the dict of
/// `torch.cuda.memory._snapshot()`, torch/cuda/memory.py), into a Boost.JSON
/// value. It reads the opcodes Python's pickler (3.10 to 3.14, protocols 2
/// to 5) writes for None, bool, int, float, str, bytes, list, tuple and
/// dict, and nothing else: an opcode that imports a name, calls it, builds
/// an object or looks up a persistent id is refused with its byte offset
/// and never executed. The input is bounded in size, nesting depth and
/// entries, and read without recursion.
///
/// What becomes of each value: None -> null, bool -> bool, int -> a JSON
/// integer (int64, or uint64 for 2^63 to 2^64 - 1; wider ones are refused),
/// float -> double, str and bytes -> a string of the same bytes (neither is
/// checked to be UTF-8), list and tuple -> array, dict -> object. A dict's
/// keys must be str or int; an int key becomes its decimal digits, as
/// Python's `json.dumps` writes it. A key given twice keeps its first
/// place and its last value, as in the dict Python would build. A value
/// stored in the memo and fetched again is copied, and every copy counts
/// against the entry limit.
namespace iteragpu::memory {

/// The opcodes of Python's pickle protocols 0 to 5 (Lib/pickle.py), by their byte.
enum class pickle_opcode : std::uint8_t {
  mark = 0x28,              ///< `(` pushes a mark
  stop = 0x2e,              ///< `.` ends the pickle
  pop = 0x30,               ///< `0` drops the top of the stack
  pop_mark = 0x31,          ///< `1` drops everything down to the last mark
  dup = 0x32,               ///< `2` pushes the top again
  binbytes = 0x42,          ///< `B` bytes, 4-byte length
  short_binbytes = 0x43,    ///< `C` bytes, 1-byte length
  text_float = 0x46,        ///< `F` FLOAT, a float as text (protocol 0)
  binfloat = 0x47,          ///< `G` a big-endian double
  text_int = 0x49,          ///< `I` INT, an int as text (protocol 0)
  binint = 0x4a,            ///< `J` a signed 4-byte int
  binint1 = 0x4b,           ///< `K` an unsigned 1-byte int
  text_long = 0x4c,         ///< `L` LONG, an int as text (protocol 0)
  binint2 = 0x4d,           ///< `M` an unsigned 2-byte int
  none = 0x4e,              ///< `N` None
  persid = 0x50,            ///< `P` a persistent id as text
  binpersid = 0x51,         ///< `Q` a persistent id from the stack
  reduce = 0x52,            ///< `R` calls a callable with arguments
  text_string = 0x53,       ///< `S` STRING, a quoted Python 2 str (protocol 0)
  binstring = 0x54,         ///< `T` a Python 2 str, 4-byte length
  short_binstring = 0x55,   ///< `U` a Python 2 str, 1-byte length
  text_unicode = 0x56,      ///< `V` UNICODE, a str as raw-unicode-escaped text (protocol 0)
  binunicode = 0x58,        ///< `X` str, 4-byte length
  empty_list = 0x5d,        ///< `]` an empty list
  append = 0x61,            ///< `a` appends the top to the list below it
  build = 0x62,             ///< `b` sets an object's state
  global = 0x63,            ///< `c` imports a module's name
  dict = 0x64,              ///< `d` a dict of the pairs above the mark
  appends = 0x65,           ///< `e` appends the items above the mark
  text_get = 0x67,          ///< `g` GET, a memo index as text (protocol 0)
  binget = 0x68,            ///< `h` pushes a memo entry, 1-byte index
  inst = 0x69,              ///< `i` imports a class and builds an instance
  long_binget = 0x6a,       ///< `j` pushes a memo entry, 4-byte index
  list = 0x6c,              ///< `l` a list of the items above the mark
  obj = 0x6f,               ///< `o` builds an instance of a class on the stack
  text_put = 0x70,          ///< `p` PUT, a memo index as text (protocol 0)
  binput = 0x71,            ///< `q` stores the top in the memo, 1-byte index
  long_binput = 0x72,       ///< `r` stores the top in the memo, 4-byte index
  setitem = 0x73,           ///< `s` sets one key of the dict below
  tuple = 0x74,             ///< `t` a tuple of the items above the mark
  setitems = 0x75,          ///< `u` sets the pairs above the mark in the dict below
  empty_tuple = 0x29,       ///< `)` an empty tuple
  empty_dict = 0x7d,        ///< `}` an empty dict
  proto = 0x80,             ///< the protocol number
  newobj = 0x81,            ///< builds an object by `cls.__new__`
  ext1 = 0x82,              ///< a name from the extension registry, 1-byte code
  ext2 = 0x83,              ///< a name from the extension registry, 2-byte code
  ext4 = 0x84,              ///< a name from the extension registry, 4-byte code
  tuple1 = 0x85,            ///< a tuple of the top item
  tuple2 = 0x86,            ///< a tuple of the top two items
  tuple3 = 0x87,            ///< a tuple of the top three items
  newtrue = 0x88,           ///< True
  newfalse = 0x89,          ///< False
  long1 = 0x8a,             ///< an int, little-endian two's complement, 1-byte length
  long4 = 0x8b,             ///< an int, little-endian two's complement, 4-byte signed length
  short_binunicode = 0x8c,  ///< str, 1-byte length
  binunicode8 = 0x8d,       ///< str, 8-byte length
  binbytes8 = 0x8e,         ///< bytes, 8-byte length
  empty_set = 0x8f,         ///< an empty set
  additems = 0x90,          ///< adds the items above the mark to the set below
  frozenset = 0x91,         ///< a frozenset of the items above the mark
  newobj_ex = 0x92,         ///< builds an object by `cls.__new__` with keyword arguments
  stack_global = 0x93,      ///< imports a module's name, both from the stack
  memoize = 0x94,           ///< stores the top in the memo at the next index
  frame = 0x95,             ///< the length of the frame that follows, 8 bytes
  bytearray8 = 0x96,        ///< a bytearray, 8-byte length
  next_buffer = 0x97,       ///< an out-of-band buffer
  readonly_buffer = 0x98,   ///< makes the top buffer read-only
};

/// What the reader does with a byte where an opcode is expected.
enum class pickle_opcode_use : std::uint8_t {
  plain_data,  ///< read: it builds plain data, or frames or memoizes it
  runs_code,   ///< refused: it imports, calls or builds objects, or asks for a persistent id
  not_read,    ///< refused: plain data this reader does not take (protocol 0 text forms, Python 2 str,
               ///< sets, out-of-band buffers)
  no_opcode,   ///< refused: no opcode of any protocol has this byte
};

/// What the reader does with `byte` as an opcode.
[[nodiscard]] constexpr pickle_opcode_use pickle_opcode_use_of(std::uint8_t byte) noexcept {
  using op = pickle_opcode;
  switch (static_cast<op>(byte)) {
    case op::mark: case op::stop: case op::pop: case op::pop_mark: case op::dup: case op::binbytes:
    case op::short_binbytes: case op::binfloat: case op::binint: case op::binint1: case op::binint2: case op::none:
    case op::binunicode: case op::empty_list: case op::append: case op::dict: case op::appends: case op::binget:
    case op::long_binget: case op::list: case op::binput: case op::long_binput: case op::setitem: case op::tuple:
    case op::setitems: case op::empty_tuple: case op::empty_dict: case op::proto: case op::tuple1: case op::tuple2:
    case op::tuple3: case op::newtrue: case op::newfalse: case op::long1: case op::long4: case op::short_binunicode:
    case op::binunicode8: case op::binbytes8: case op::memoize: case op::frame: case op::bytearray8:
      return pickle_opcode_use::plain_data;
    case op::persid: case op::binpersid: case op::reduce: case op::build: case op::global: case op::inst:
    case op::obj: case op::newobj: case op::ext1: case op::ext2: case op::ext4: case op::newobj_ex:
    case op::stack_global:
      return pickle_opcode_use::runs_code;
    case op::text_float: case op::text_int: case op::text_long: case op::text_string: case op::binstring:
    case op::short_binstring: case op::text_unicode: case op::text_get: case op::text_put: case op::empty_set:
    case op::additems: case op::frozenset: case op::next_buffer: case op::readonly_buffer:
      return pickle_opcode_use::not_read;
  }
  return pickle_opcode_use::no_opcode;
}

/// Why a pickle was not read.
enum class pickle_errc : std::uint8_t {
  empty,                 ///< no bytes at all
  too_large,             ///< more bytes than pickle_limits::max_bytes, or a string longer than a JSON string may be
  truncated,             ///< the data ends inside an opcode's argument (offset: the end of the data)
  no_stop,               ///< the data ends after a whole opcode but without STOP (offset: the end of the data)
  trailing_bytes,        ///< bytes after STOP (offset: the first of them; opcode: its value)
  unsupported_protocol,  ///< PROTO names a protocol other than 2, 3, 4 or 5
  forbidden_opcode,      ///< an opcode that runs code (pickle_opcode_use::runs_code); never executed
  unsupported_opcode,    ///< an opcode of plain data this reader does not take (pickle_opcode_use::not_read)
  unknown_opcode,        ///< a byte that is no opcode
  bad_frame,             ///< a FRAME longer than the data left, a frame begun before the last one ended,
                         ///< or an opcode running past the end of its frame
  stack_underflow,       ///< an opcode needs more values than the stack holds above the last mark
  mark_missing,          ///< an opcode that takes the items above a mark, with no mark
  leftover_values,       ///< STOP with more than one value on the stack, or a mark still open
  not_a_container,       ///< APPEND(S) to something not a list, SETITEM(S) to something not a dict
  odd_dict_items,        ///< DICT or SETITEMS with a key and no value
  bad_memo_index,        ///< BINGET of an index never stored, or BINPUT past the next free index
  non_string_key,        ///< a dict key that is neither str nor int
  negative_length,       ///< LONG4 with a negative byte count
  integer_too_wide,      ///< an int below -2^63 or above 2^64 - 1
  too_deep,              ///< containers nested deeper than pickle_limits::max_depth
  too_many_entries,      ///< more values, marks and memo entries than pickle_limits::max_entries
};

/// Why a pickle was not read, and where.
struct pickle_error {
  pickle_errc code{pickle_errc::empty};  ///< what is wrong
  /// The byte offset of the opcode at fault; for truncated and no_stop the
  /// end of the data; for too_large of the whole input, max_bytes; for
  /// too_deep and too_many_entries met while the result is built (a value
  /// fetched from the memo copied once too often), the opcode that made the
  /// container being copied.
  std::uint64_t offset{0};
  std::uint8_t opcode{0};  ///< the byte at that offset (0 for empty, too_large of the input, no_stop)
  /// Equal when every member is equal.
  friend bool operator==(const pickle_error&, const pickle_error&) = default;
};

/// Bounds on what a pickle may make the reader do. The defaults are far
/// above any memory snapshot (a 100 MB snapshot holds about ten million
/// values and nests six deep) and keep a hostile file to a few GiB of
/// memory.
struct pickle_limits {
  std::uint64_t max_bytes{std::uint64_t{2} << 30U};  ///< the largest input, in bytes (default 2 GiB)
  std::uint32_t max_depth{512};                      ///< the deepest nesting of lists, tuples and dicts (default 512)
  /// The most values pushed, marks and memo entries made while reading,
  /// and, separately, the most values in the result, copies of memo entries
  /// included (default 100 million). Capped by what a Boost.JSON array
  /// or object may hold.
  std::uint64_t max_entries{100'000'000};
  /// Equal when every member is equal.
  friend bool operator==(const pickle_limits&, const pickle_limits&) = default;
};

namespace detail {

enum class pickle_node_kind : std::uint8_t { null, boolean, int64, uint64, real, text, bytes, list, tuple, dict };

// A value read: scalars inline; text and bytes as a place in the input; a
// container as an index into the container table.
struct pickle_node {
  pickle_node_kind kind{pickle_node_kind::null};
  std::uint32_t size{0};   // text, bytes: the length
  std::uint64_t value{0};  // the bits of the scalar, the offset of the text, or the container index
};

struct pickle_container {
  std::vector<std::uint32_t> items;  // node indices; a dict's alternate key, value
  std::uint64_t offset{0};           // the opcode that made it
  std::uint32_t height{1};           // 1 + the height of its deepest child container
};

[[nodiscard]] inline std::uint64_t little_endian(std::span<const unsigned char> bytes) noexcept {
  std::uint64_t v = 0;
  for (std::size_t i = bytes.size(); i > 0; --i) {
    v = (v << 8U) | bytes[i - 1];
  }
  return v;
}

[[nodiscard]] inline std::string_view as_chars(std::span<const unsigned char> bytes) noexcept {
  // Reading unsigned char as char is allowed aliasing.
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
}

// The machine of Python's Unpickler (Lib/pickle.py, load_* methods): a
// stack of values, the positions of its marks, and a memo, all of node
// indices. The values are built as nodes first, so that a memo entry is the
// object itself, as in Python, and copied only when the result is made.
class pickle_machine {
 public:
  pickle_machine(std::span<const unsigned char> bytes, const pickle_limits& limits) noexcept
      : bytes_(bytes),
        max_depth_(limits.max_depth),
        max_entries_(std::min({limits.max_entries, std::uint64_t{boost::json::array::max_size()},
                               std::uint64_t{boost::json::object::max_size()},
                               std::uint64_t{std::numeric_limits<std::uint32_t>::max() - 1U}})) {}

  [[nodiscard]] result<boost::json::value, pickle_error> read(const boost::json::storage_ptr& sp) {
    // Most opcodes of a large pickle make a value of a few bytes: room for
    // that many up front spares the copies of a growing table.
    nodes_.reserve(static_cast<std::size_t>(std::min(std::uint64_t{bytes_.size() / 4}, max_entries_)));
    std::uint32_t root = 0;
    if (!run(root)) {
      return unexpected{error_};
    }
    boost::json::value out(sp);
    if (!convert(root, out)) {
      return unexpected{error_};
    }
    return out;
  }

 private:
  using op = pickle_opcode;
  using kind = pickle_node_kind;

  std::span<const unsigned char> bytes_;
  std::uint32_t max_depth_;
  std::uint64_t max_entries_;
  std::uint64_t pos_{0};
  std::uint64_t frame_end_{0};
  std::uint64_t op_offset_{0};
  std::uint8_t op_{0};
  std::uint64_t entries_{0};
  std::vector<pickle_node> nodes_;
  std::vector<pickle_container> containers_;
  std::vector<std::uint32_t> stack_;
  std::vector<std::size_t> marks_;
  std::vector<std::uint32_t> memo_;
  pickle_error error_{};

  [[nodiscard]] bool fail(pickle_errc code) noexcept { return fail_at(code, op_offset_, op_); }
  [[nodiscard]] bool fail_at(pickle_errc code, std::uint64_t offset, std::uint8_t opcode) noexcept {
    error_ = pickle_error{code, offset, opcode};
    return false;
  }

  // The next n bytes of the current opcode's argument.
  [[nodiscard]] bool take(std::uint64_t n, std::span<const unsigned char>& out) noexcept {
    if (pos_ < frame_end_ && n > frame_end_ - pos_) {
      return fail(pickle_errc::bad_frame);
    }
    if (n > bytes_.size() - pos_) {
      return fail_at(pickle_errc::truncated, bytes_.size(), op_);
    }
    out = bytes_.subspan(pos_, n);
    pos_ += n;
    return true;
  }

  [[nodiscard]] bool take_number(std::size_t width, std::uint64_t& out) noexcept {
    std::span<const unsigned char> b;
    if (!take(width, b)) {
      return false;
    }
    out = little_endian(b);
    return true;
  }

  [[nodiscard]] bool count(std::uint64_t n = 1) noexcept {
    if (n > max_entries_ - entries_) {
      return fail(pickle_errc::too_many_entries);
    }
    entries_ += n;
    return true;
  }

  [[nodiscard]] bool push(std::uint32_t node) {
    if (!count()) {
      return false;
    }
    stack_.push_back(node);
    return true;
  }

  [[nodiscard]] bool push_new(pickle_node node) {
    if (!count()) {
      return false;
    }
    stack_.push_back(static_cast<std::uint32_t>(nodes_.size()));
    nodes_.push_back(node);
    return true;
  }

  [[nodiscard]] bool push_container(kind k) {
    if (!count()) {
      return false;
    }
    stack_.push_back(static_cast<std::uint32_t>(nodes_.size()));
    nodes_.push_back(pickle_node{k, 0, containers_.size()});
    containers_.push_back(pickle_container{{}, op_offset_, 1});
    return true;
  }

  [[nodiscard]] std::size_t floor() const noexcept { return marks_.empty() ? 0 : marks_.back(); }

  // Values above the last mark.
  [[nodiscard]] bool need(std::size_t n) noexcept {
    return stack_.size() - floor() >= n || fail(pickle_errc::stack_underflow);
  }

  [[nodiscard]] bool pop_mark(std::size_t& begin) noexcept {
    if (marks_.empty()) {
      return fail(pickle_errc::mark_missing);
    }
    begin = marks_.back();
    marks_.pop_back();
    return true;
  }

  [[nodiscard]] std::uint32_t height_of(std::uint32_t node) const noexcept {
    const pickle_node& n = nodes_[node];
    return n.kind == kind::list || n.kind == kind::tuple || n.kind == kind::dict ? containers_[n.value].height : 0;
  }

  [[nodiscard]] bool key_ok(std::uint32_t node) noexcept {
    const kind k = nodes_[node].kind;
    return k == kind::text || k == kind::int64 || k == kind::uint64 || fail(pickle_errc::non_string_key);
  }

  // Adds stack_[begin..] to the container `target` (a node index), checked, and drops them from the stack.
  [[nodiscard]] bool add_items(std::uint32_t target, std::size_t begin) {
    pickle_container& c = containers_[nodes_[target].value];
    const bool is_dict = nodes_[target].kind == kind::dict;
    if (is_dict && (stack_.size() - begin) % 2 != 0) {
      return fail(pickle_errc::odd_dict_items);
    }
    for (std::size_t i = begin; i < stack_.size(); ++i) {
      if (is_dict && (i - begin) % 2 == 0 && !key_ok(stack_[i])) {
        return false;
      }
      c.height = std::max(c.height, height_of(stack_[i]) + 1U);
    }
    if (c.height > max_depth_) {
      return fail(pickle_errc::too_deep);
    }
    c.items.insert(c.items.end(), stack_.begin() + static_cast<std::ptrdiff_t>(begin), stack_.end());
    stack_.resize(begin);
    return true;
  }

  // A new container of kind k holding the values above stack position begin.
  [[nodiscard]] bool collect(kind k, std::size_t begin) {
    const auto node = static_cast<std::uint32_t>(nodes_.size());
    if (!push_container(k)) {
      return false;
    }
    stack_.pop_back();
    if (!add_items(node, begin)) {
      return false;
    }
    stack_.push_back(node);
    return true;
  }

  // The container below the top values, which are added to it.
  [[nodiscard]] bool add_to_below(kind k, std::size_t begin) {
    if (begin <= floor()) {
      return fail(pickle_errc::stack_underflow);
    }
    const std::uint32_t target = stack_[begin - 1];
    if (nodes_[target].kind != k) {
      return fail(pickle_errc::not_a_container);
    }
    return add_items(target, begin);
  }

  [[nodiscard]] bool push_long(std::span<const unsigned char> b) {
    if (b.empty()) {
      return push_new({kind::int64, 0, 0});
    }
    const bool negative = (b.back() & 0x80U) != 0;
    const unsigned char fill = negative ? 0xFFU : 0x00U;
    std::size_t m = b.size();
    while (m > 0 && b[m - 1] == fill) {
      --m;
    }
    constexpr std::size_t width = sizeof(std::uint64_t);
    if (!negative) {
      if (m > width) {
        return fail(pickle_errc::integer_too_wide);
      }
      const std::uint64_t v = little_endian(b.first(m));
      return push_new({v > std::uint64_t{std::numeric_limits<std::int64_t>::max()} ? kind::uint64 : kind::int64, 0, v});
    }
    // Negative: the significant bytes left, sign-extended, must be negative within 64 bits.
    if (m > width || (m == width && (b[width - 1] & 0x80U) == 0)) {
      return fail(pickle_errc::integer_too_wide);
    }
    std::uint64_t v = little_endian(b.first(m));
    if (m < width) {
      v |= ~std::uint64_t{0} << (8U * m);
    }
    return push_new({kind::int64, 0, v});
  }

  // str, bytes or bytearray with a length of `width` bytes.
  [[nodiscard]] bool push_text(kind k, std::size_t width) {
    std::uint64_t length = 0;
    if (!take_number(width, length)) {
      return false;
    }
    if (length > boost::json::string::max_size()) {
      return fail(pickle_errc::too_large);
    }
    const std::uint64_t at = pos_;
    std::span<const unsigned char> b;
    if (!take(length, b)) {
      return false;
    }
    return push_new({k, static_cast<std::uint32_t>(length), at});
  }

  [[nodiscard]] bool memo_put(std::uint64_t index) {
    if (!need(1)) {
      return false;
    }
    if (index > memo_.size()) {
      return fail(pickle_errc::bad_memo_index);
    }
    if (index == memo_.size()) {
      if (!count()) {
        return false;
      }
      memo_.push_back(stack_.back());
    } else {
      memo_[index] = stack_.back();
    }
    return true;
  }

  [[nodiscard]] bool memo_get(std::uint64_t index) {
    if (index >= memo_.size()) {
      return fail(pickle_errc::bad_memo_index);
    }
    return push(memo_[index]);
  }

  [[nodiscard]] bool refuse() noexcept {
    switch (pickle_opcode_use_of(op_)) {
      case pickle_opcode_use::runs_code:
        return fail(pickle_errc::forbidden_opcode);
      case pickle_opcode_use::not_read:
        return fail(pickle_errc::unsupported_opcode);
      case pickle_opcode_use::plain_data:
      case pickle_opcode_use::no_opcode:
        break;
    }
    return fail(pickle_errc::unknown_opcode);
  }

  // One opcode; false on error or at STOP (then done is true).
  // NOLINTNEXTLINE(readability-function-cognitive-complexity): one case per opcode
  [[nodiscard]] bool step(bool& done) {
    op_offset_ = pos_;
    op_ = bytes_[pos_];
    ++pos_;
    std::uint64_t n = 0;
    std::size_t begin = 0;
    std::span<const unsigned char> b;
    switch (static_cast<op>(op_)) {
      case op::proto:
        if (!take_number(1, n)) {
          return false;
        }
        return (n >= 2 && n <= 5) || fail(pickle_errc::unsupported_protocol);
      case op::frame:
        if (!take_number(8, n)) {
          return false;
        }
        if (pos_ < frame_end_ || n > bytes_.size() - pos_) {
          return fail(pickle_errc::bad_frame);
        }
        frame_end_ = pos_ + n;
        return true;
      case op::stop:
        done = true;
        if (stack_.empty()) {
          return fail(pickle_errc::stack_underflow);
        }
        if (stack_.size() > 1 || !marks_.empty()) {
          return fail(pickle_errc::leftover_values);
        }
        if (pos_ != bytes_.size()) {
          return fail_at(pickle_errc::trailing_bytes, pos_, bytes_[pos_]);
        }
        return true;
      case op::mark:
        if (!count()) {
          return false;
        }
        marks_.push_back(stack_.size());
        return true;
      case op::pop:
        if (stack_.size() > floor()) {
          stack_.pop_back();
          return true;
        }
        return pop_mark(begin);
      case op::pop_mark:
        if (!pop_mark(begin)) {
          return false;
        }
        stack_.resize(begin);
        return true;
      case op::dup:
        return need(1) && push(stack_.back());
      case op::none:
        return push_new({kind::null, 0, 0});
      case op::newtrue:
        return push_new({kind::boolean, 0, 1});
      case op::newfalse:
        return push_new({kind::boolean, 0, 0});
      case op::binint:
        if (!take_number(4, n)) {
          return false;
        }
        return push_new({kind::int64, 0,
                         std::bit_cast<std::uint64_t>(std::int64_t{std::bit_cast<std::int32_t>(static_cast<std::uint32_t>(n))})});
      case op::binint1:
        return take_number(1, n) && push_new({kind::int64, 0, n});
      case op::binint2:
        return take_number(2, n) && push_new({kind::int64, 0, n});
      case op::long1:
        return take_number(1, n) && take(n, b) && push_long(b);
      case op::long4:
        if (!take_number(4, n)) {
          return false;
        }
        if ((n & 0x8000'0000U) != 0) {
          return fail(pickle_errc::negative_length);
        }
        return take(n, b) && push_long(b);
      case op::binfloat: {
        if (!take(8, b)) {
          return false;
        }
        std::uint64_t v = 0;
        for (const unsigned char c : b) {
          v = (v << 8U) | c;
        }
        return push_new({kind::real, 0, v});
      }
      case op::short_binunicode:
        return push_text(kind::text, 1);
      case op::binunicode:
        return push_text(kind::text, 4);
      case op::binunicode8:
        return push_text(kind::text, 8);
      case op::short_binbytes:
        return push_text(kind::bytes, 1);
      case op::binbytes:
        return push_text(kind::bytes, 4);
      case op::binbytes8:
      case op::bytearray8:
        return push_text(kind::bytes, 8);
      case op::empty_list:
        return push_container(kind::list);
      case op::empty_tuple:
        return push_container(kind::tuple);
      case op::empty_dict:
        return push_container(kind::dict);
      case op::list:
        return pop_mark(begin) && collect(kind::list, begin);
      case op::tuple:
        return pop_mark(begin) && collect(kind::tuple, begin);
      case op::dict:
        return pop_mark(begin) && collect(kind::dict, begin);
      case op::tuple1:
      case op::tuple2:
      case op::tuple3: {
        const std::size_t items = std::size_t{op_} - std::size_t{static_cast<std::uint8_t>(op::tuple1)} + 1;
        return need(items) && collect(kind::tuple, stack_.size() - items);
      }
      case op::append:
        return need(1) && add_to_below(kind::list, stack_.size() - 1);
      case op::appends:
        return pop_mark(begin) && add_to_below(kind::list, begin);
      case op::setitem:
        return need(2) && add_to_below(kind::dict, stack_.size() - 2);
      case op::setitems:
        return pop_mark(begin) && add_to_below(kind::dict, begin);
      case op::memoize:
        return memo_put(memo_.size());
      case op::binput:
        return take_number(1, n) && memo_put(n);
      case op::long_binput:
        return take_number(4, n) && memo_put(n);
      case op::binget:
        return take_number(1, n) && memo_get(n);
      case op::long_binget:
        return take_number(4, n) && memo_get(n);
      default:
        return refuse();
    }
  }

  [[nodiscard]] bool run(std::uint32_t& root) {
    if (bytes_.empty()) {
      return fail_at(pickle_errc::empty, 0, 0);
    }
    bool done = false;
    while (pos_ < bytes_.size()) {
      if (!step(done)) {
        return false;
      }
      if (done) {
        root = stack_.front();
        return true;
      }
    }
    return fail_at(pickle_errc::no_stop, bytes_.size(), 0);
  }

  // One value of the result.
  struct pending {
    std::uint32_t container;
    std::size_t next;
    boost::json::value* target;
    std::uint32_t depth;
  };

  [[nodiscard]] bool emit(std::uint32_t node, boost::json::value& slot, std::uint32_t depth, std::uint64_t& emitted,
                          std::vector<pending>& todo) {
    const pickle_node& n = nodes_[node];
    if (emitted == max_entries_) {
      const std::uint64_t at = todo.empty() ? 0 : containers_[todo.back().container].offset;
      return fail_at(pickle_errc::too_many_entries, at, bytes_[at]);
    }
    ++emitted;
    switch (n.kind) {
      case kind::null:
        slot = nullptr;
        return true;
      case kind::boolean:
        slot = n.value != 0;
        return true;
      case kind::int64:
        slot = std::bit_cast<std::int64_t>(n.value);
        return true;
      case kind::uint64:
        slot = n.value;
        return true;
      case kind::real:
        slot = std::bit_cast<double>(n.value);
        return true;
      case kind::text:
      case kind::bytes:
        slot.emplace_string().assign(as_chars(bytes_.subspan(n.value, n.size)));
        return true;
      case kind::list:
      case kind::tuple:
      case kind::dict:
        break;
    }
    const pickle_container& c = containers_[n.value];
    if (depth > max_depth_) {
      return fail_at(pickle_errc::too_deep, c.offset, bytes_[c.offset]);
    }
    if (n.kind == kind::dict) {
      slot.emplace_object().reserve(c.items.size() / 2);
    } else {
      slot.emplace_array().reserve(c.items.size());
    }
    todo.push_back(pending{static_cast<std::uint32_t>(n.value), 0, &slot, depth});
    return true;
  }

  [[nodiscard]] bool convert(std::uint32_t root, boost::json::value& out) {
    std::vector<pending> todo;
    std::uint64_t emitted = 0;
    if (!emit(root, out, 1, emitted, todo)) {
      return false;
    }
    std::array<char, 24> digits{};
    while (!todo.empty()) {
      pending& p = todo.back();
      const std::vector<std::uint32_t>& items = containers_[p.container].items;
      if (p.next >= items.size()) {
        todo.pop_back();
        continue;
      }
      const std::uint32_t depth = p.depth + 1;
      boost::json::value* slot = nullptr;
      std::uint32_t child = 0;
      if (boost::json::object* object = p.target->if_object()) {
        const pickle_node& key = nodes_[items[p.next]];
        child = items[p.next + 1];
        p.next += 2;
        std::string_view name;
        if (key.kind == kind::text) {
          name = as_chars(bytes_.subspan(key.value, key.size));
        } else {
          const auto written =
              key.kind == kind::int64
                  ? std::to_chars(digits.data(), digits.data() + digits.size(), std::bit_cast<std::int64_t>(key.value))
                  : std::to_chars(digits.data(), digits.data() + digits.size(), key.value);
          name = std::string_view(digits.data(), static_cast<std::size_t>(written.ptr - digits.data()));
        }
        slot = &object->insert_or_assign(name, nullptr).first->value();
      } else {
        child = items[p.next];
        ++p.next;
        slot = &p.target->get_array().emplace_back(nullptr);
      }
      if (!emit(child, *slot, depth, emitted, todo)) {
        return false;
      }
    }
    return true;
  }
};

}  // namespace detail

/// Reads a pickle of plain data (see the file's description) into a JSON
/// value allocated from `sp`; a boost::json::monotonic_resource there reads
/// large files fastest. Never executes anything the pickle names. The only
/// exception that can come out is allocation's std::bad_alloc.
[[nodiscard]] inline result<boost::json::value, pickle_error> read_pickle(std::span<const unsigned char> bytes,
                                                                          const pickle_limits& limits = {},
                                                                          const boost::json::storage_ptr& sp = {}) {
  if (bytes.size() > limits.max_bytes) {
    return unexpected{pickle_error{pickle_errc::too_large, limits.max_bytes, 0}};
  }
  detail::pickle_machine machine(bytes, limits);
  return machine.read(sp);
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_FILES_PICKLE_HPP
