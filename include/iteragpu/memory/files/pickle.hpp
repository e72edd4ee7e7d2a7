#ifndef ITERAGPU_MEMORY_FILES_PICKLE_HPP
#define ITERAGPU_MEMORY_FILES_PICKLE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <system_error>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

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

/// One opcode: its byte, the name Python's pickle module gives it
/// (Lib/pickle.py), and what the reader does with it.
struct pickle_opcode_row {
  pickle_opcode opcode;   ///< the opcode
  std::string_view name;  ///< as Lib/pickle.py names it
  pickle_opcode_use use;  ///< read or refused, and why
};

/// Every opcode of protocols 0 to 5, by byte: the one table of their names
/// and uses (a byte absent from it is no opcode).
inline constexpr std::array<pickle_opcode_row, 68> pickle_opcode_table{{
    {pickle_opcode::mark, "MARK", pickle_opcode_use::plain_data},
    {pickle_opcode::empty_tuple, "EMPTY_TUPLE", pickle_opcode_use::plain_data},
    {pickle_opcode::stop, "STOP", pickle_opcode_use::plain_data},
    {pickle_opcode::pop, "POP", pickle_opcode_use::plain_data},
    {pickle_opcode::pop_mark, "POP_MARK", pickle_opcode_use::plain_data},
    {pickle_opcode::dup, "DUP", pickle_opcode_use::plain_data},
    {pickle_opcode::binbytes, "BINBYTES", pickle_opcode_use::plain_data},
    {pickle_opcode::short_binbytes, "SHORT_BINBYTES", pickle_opcode_use::plain_data},
    {pickle_opcode::text_float, "FLOAT", pickle_opcode_use::not_read},
    {pickle_opcode::binfloat, "BINFLOAT", pickle_opcode_use::plain_data},
    {pickle_opcode::text_int, "INT", pickle_opcode_use::not_read},
    {pickle_opcode::binint, "BININT", pickle_opcode_use::plain_data},
    {pickle_opcode::binint1, "BININT1", pickle_opcode_use::plain_data},
    {pickle_opcode::text_long, "LONG", pickle_opcode_use::not_read},
    {pickle_opcode::binint2, "BININT2", pickle_opcode_use::plain_data},
    {pickle_opcode::none, "NONE", pickle_opcode_use::plain_data},
    {pickle_opcode::persid, "PERSID", pickle_opcode_use::runs_code},
    {pickle_opcode::binpersid, "BINPERSID", pickle_opcode_use::runs_code},
    {pickle_opcode::reduce, "REDUCE", pickle_opcode_use::runs_code},
    {pickle_opcode::text_string, "STRING", pickle_opcode_use::not_read},
    {pickle_opcode::binstring, "BINSTRING", pickle_opcode_use::not_read},
    {pickle_opcode::short_binstring, "SHORT_BINSTRING", pickle_opcode_use::not_read},
    {pickle_opcode::text_unicode, "UNICODE", pickle_opcode_use::not_read},
    {pickle_opcode::binunicode, "BINUNICODE", pickle_opcode_use::plain_data},
    {pickle_opcode::empty_list, "EMPTY_LIST", pickle_opcode_use::plain_data},
    {pickle_opcode::append, "APPEND", pickle_opcode_use::plain_data},
    {pickle_opcode::build, "BUILD", pickle_opcode_use::runs_code},
    {pickle_opcode::global, "GLOBAL", pickle_opcode_use::runs_code},
    {pickle_opcode::dict, "DICT", pickle_opcode_use::plain_data},
    {pickle_opcode::appends, "APPENDS", pickle_opcode_use::plain_data},
    {pickle_opcode::text_get, "GET", pickle_opcode_use::not_read},
    {pickle_opcode::binget, "BINGET", pickle_opcode_use::plain_data},
    {pickle_opcode::inst, "INST", pickle_opcode_use::runs_code},
    {pickle_opcode::long_binget, "LONG_BINGET", pickle_opcode_use::plain_data},
    {pickle_opcode::list, "LIST", pickle_opcode_use::plain_data},
    {pickle_opcode::obj, "OBJ", pickle_opcode_use::runs_code},
    {pickle_opcode::text_put, "PUT", pickle_opcode_use::not_read},
    {pickle_opcode::binput, "BINPUT", pickle_opcode_use::plain_data},
    {pickle_opcode::long_binput, "LONG_BINPUT", pickle_opcode_use::plain_data},
    {pickle_opcode::setitem, "SETITEM", pickle_opcode_use::plain_data},
    {pickle_opcode::tuple, "TUPLE", pickle_opcode_use::plain_data},
    {pickle_opcode::setitems, "SETITEMS", pickle_opcode_use::plain_data},
    {pickle_opcode::empty_dict, "EMPTY_DICT", pickle_opcode_use::plain_data},
    {pickle_opcode::proto, "PROTO", pickle_opcode_use::plain_data},
    {pickle_opcode::newobj, "NEWOBJ", pickle_opcode_use::runs_code},
    {pickle_opcode::ext1, "EXT1", pickle_opcode_use::runs_code},
    {pickle_opcode::ext2, "EXT2", pickle_opcode_use::runs_code},
    {pickle_opcode::ext4, "EXT4", pickle_opcode_use::runs_code},
    {pickle_opcode::tuple1, "TUPLE1", pickle_opcode_use::plain_data},
    {pickle_opcode::tuple2, "TUPLE2", pickle_opcode_use::plain_data},
    {pickle_opcode::tuple3, "TUPLE3", pickle_opcode_use::plain_data},
    {pickle_opcode::newtrue, "NEWTRUE", pickle_opcode_use::plain_data},
    {pickle_opcode::newfalse, "NEWFALSE", pickle_opcode_use::plain_data},
    {pickle_opcode::long1, "LONG1", pickle_opcode_use::plain_data},
    {pickle_opcode::long4, "LONG4", pickle_opcode_use::plain_data},
    {pickle_opcode::short_binunicode, "SHORT_BINUNICODE", pickle_opcode_use::plain_data},
    {pickle_opcode::binunicode8, "BINUNICODE8", pickle_opcode_use::plain_data},
    {pickle_opcode::binbytes8, "BINBYTES8", pickle_opcode_use::plain_data},
    {pickle_opcode::empty_set, "EMPTY_SET", pickle_opcode_use::not_read},
    {pickle_opcode::additems, "ADDITEMS", pickle_opcode_use::not_read},
    {pickle_opcode::frozenset, "FROZENSET", pickle_opcode_use::not_read},
    {pickle_opcode::newobj_ex, "NEWOBJ_EX", pickle_opcode_use::runs_code},
    {pickle_opcode::stack_global, "STACK_GLOBAL", pickle_opcode_use::runs_code},
    {pickle_opcode::memoize, "MEMOIZE", pickle_opcode_use::plain_data},
    {pickle_opcode::frame, "FRAME", pickle_opcode_use::plain_data},
    {pickle_opcode::bytearray8, "BYTEARRAY8", pickle_opcode_use::plain_data},
    {pickle_opcode::next_buffer, "NEXT_BUFFER", pickle_opcode_use::not_read},
    {pickle_opcode::readonly_buffer, "READONLY_BUFFER", pickle_opcode_use::not_read},
}};

/// The row of `byte`, or none when no opcode has it.
[[nodiscard]] constexpr const pickle_opcode_row* pickle_opcode_row_of(std::uint8_t byte) noexcept {
  for (const pickle_opcode_row& row : pickle_opcode_table) {
    if (static_cast<std::uint8_t>(row.opcode) == byte) {
      return &row;
    }
  }
  return nullptr;
}

/// What the reader does with `byte` as an opcode.
[[nodiscard]] constexpr pickle_opcode_use pickle_opcode_use_of(std::uint8_t byte) noexcept {
  const pickle_opcode_row* row = pickle_opcode_row_of(byte);
  return row != nullptr ? row->use : pickle_opcode_use::no_opcode;
}

/// The name Python's pickle module gives the opcode `byte`, or an empty view
/// for a byte that is no opcode.
[[nodiscard]] constexpr std::string_view pickle_opcode_name(std::uint8_t byte) noexcept {
  const pickle_opcode_row* row = pickle_opcode_row_of(byte);
  return row != nullptr ? row->name : std::string_view{};
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
  result_too_large,      ///< a result that would take more than pickle_limits::max_result_bytes
};

/// Why a pickle was not read, and where.
struct pickle_error {
  pickle_errc code{pickle_errc::empty};  ///< what is wrong
  /// The byte offset of the opcode at fault; for truncated and no_stop the
  /// end of the data; for too_large of the whole input, max_bytes; for
  /// too_deep met while the result is built (a list holding itself), the
  /// opcode that made the container being copied; for too_many_entries and
  /// result_too_large of the result (a value fetched from the memo copied
  /// once too often), the opcode that made the innermost container whose
  /// copies pass the limit.
  std::uint64_t offset{0};
  std::uint8_t opcode{0};  ///< the byte at that offset (0 for empty, too_large of the input, no_stop)
  friend bool operator==(const pickle_error&, const pickle_error&) = default;
};

/// Bounds on what a pickle may make the reader do. The defaults are far
/// above any memory snapshot (a 100 MB snapshot holds about ten million
/// values and nests six deep) and keep a hostile file to a few GiB of
/// memory.
struct pickle_limits {
  std::uint64_t max_bytes{2 * gibibyte};  ///< the largest input, in bytes (default 2 GiB)
  std::uint32_t max_depth{512};           ///< the deepest nesting of lists, tuples and dicts (default 512)
  /// The most values pushed, marks and memo entries made while reading,
  /// and, separately, the most values in the result, copies of memo entries
  /// included (default 100 million). Capped by what a Boost.JSON array
  /// or object may hold.
  std::uint64_t max_entries{100'000'000};
  /// The most bytes the result may take, about: each value's
  /// boost::json::value (or object entry) and the characters of its string
  /// and key, counted before any is made, copies of memo entries included,
  /// so that a few hundred bytes sharing one list 2^40 times are refused at
  /// once (default 4 GiB).
  std::uint64_t max_result_bytes{4 * gibibyte};
  friend bool operator==(const pickle_limits&, const pickle_limits&) = default;
};

/// Reads a pickle of plain data (see the file's description) into a JSON
/// value allocated from `sp`; a boost::json::monotonic_resource there reads
/// large files fastest. Never executes anything the pickle names. The only
/// exception that can come out is allocation's std::bad_alloc.
[[nodiscard]] result<boost::json::value, pickle_error> read_pickle(std::span<const unsigned char> bytes,
                                                                   const pickle_limits& limits,
                                                                   const boost::json::storage_ptr& sp);
/// read_pickle() with the default memory resource.
[[nodiscard]] result<boost::json::value, pickle_error> read_pickle(std::span<const unsigned char> bytes,
                                                                   const pickle_limits& limits = {});

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/memory/files/impl/pickle.ipp"
#endif

#endif  // ITERAGPU_MEMORY_FILES_PICKLE_HPP
