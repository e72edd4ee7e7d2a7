#ifndef ITERAGPU_MEMORY_FILES_IMPL_PICKLE_IPP
#define ITERAGPU_MEMORY_FILES_IMPL_PICKLE_IPP

#include <algorithm>
#include <bit>
#include <charconv>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/files/pickle.hpp"

// The bodies of the functions that <iteragpu/memory/files/pickle.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory::detail {

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

[[nodiscard]] std::uint64_t little_endian(std::span<const unsigned char> bytes) noexcept;

[[nodiscard]] std::string_view as_chars(std::span<const unsigned char> bytes) noexcept;

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
                               std::uint64_t{std::numeric_limits<std::uint32_t>::max() - 1U}})),
        max_result_bytes_(limits.max_result_bytes) {}

  [[nodiscard]] result<boost::json::value, pickle_error> read(const boost::json::storage_ptr& sp);

 private:
  using op = pickle_opcode;
  using kind = pickle_node_kind;

  std::span<const unsigned char> bytes_;
  std::uint32_t max_depth_;
  std::uint64_t max_entries_;
  std::uint64_t max_result_bytes_;
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
  [[nodiscard]] bool fail_at(pickle_errc code, std::uint64_t offset, std::uint8_t opcode) noexcept;

  // The next n bytes of the current opcode's argument.
  [[nodiscard]] bool take(std::uint64_t n, std::span<const unsigned char>& out) noexcept;

  [[nodiscard]] bool take_number(std::size_t width, std::uint64_t& out) noexcept;

  [[nodiscard]] bool count(std::uint64_t n = 1) noexcept;

  [[nodiscard]] bool push(std::uint32_t node);

  [[nodiscard]] bool push_new(pickle_node node);

  [[nodiscard]] bool push_container(kind k);

  [[nodiscard]] std::size_t floor() const noexcept { return marks_.empty() ? 0 : marks_.back(); }

  // Values above the last mark.
  [[nodiscard]] bool need(std::size_t n) noexcept {
    return stack_.size() - floor() >= n || fail(pickle_errc::stack_underflow);
  }

  [[nodiscard]] bool pop_mark(std::size_t& begin) noexcept;

  [[nodiscard]] std::uint32_t height_of(std::uint32_t node) const noexcept;

  [[nodiscard]] bool key_ok(std::uint32_t node) noexcept;

  // Adds stack_[begin..] to the container `target` (a node index), checked, and drops them from the stack.
  [[nodiscard]] bool add_items(std::uint32_t target, std::size_t begin);

  // A new container of kind k holding the values above stack position begin.
  [[nodiscard]] bool collect(kind k, std::size_t begin);

  // The container below the top values, which are added to it.
  [[nodiscard]] bool add_to_below(kind k, std::size_t begin);

  [[nodiscard]] bool push_long(std::span<const unsigned char> b);

  // str, bytes or bytearray with a length of `width` bytes.
  [[nodiscard]] bool push_text(kind k, std::size_t width);

  [[nodiscard]] bool memo_put(std::uint64_t index);

  [[nodiscard]] bool memo_get(std::uint64_t index);

  [[nodiscard]] bool refuse() noexcept;

  // The opcodes by group, each the opcode just read (op_): the stream's
  // own (PROTO, FRAME, STOP; done is set at STOP), the stack's marks and
  // copies, scalar values, containers, and the memo.
  [[nodiscard]] bool control_op(bool& done);
  [[nodiscard]] bool stack_op();
  [[nodiscard]] bool scalar_op();
  [[nodiscard]] bool container_op();
  [[nodiscard]] bool memo_op();

  // One opcode; false on error or at STOP (then done is true).
  [[nodiscard]] bool step(bool& done);

  [[nodiscard]] bool run(std::uint32_t& root);

  // One value of the result.
  struct pending {
    std::uint32_t container;
    std::size_t next;
    boost::json::value* target;
    std::uint32_t depth;
  };

  [[nodiscard]] bool emit(std::uint32_t node, boost::json::value& slot, std::uint32_t depth, std::uint64_t& emitted,
                          std::vector<pending>& todo);

  [[nodiscard]] bool convert(std::uint32_t root, boost::json::value& out);

  // What a value becomes in the result, copies of memo entries included.
  struct expansion {
    std::uint64_t values{0};
    std::uint64_t bytes{0};
  };

  // The values and bytes of node as an item of an array (key 0) or an
  // object (its key's node), capped just above the limits so that sums
  // of shared containers cannot wrap.
  [[nodiscard]] expansion item_expansion(std::uint32_t node, const std::uint32_t* key,
                                         const std::vector<expansion>& sizes) const noexcept;

  // Counts the result before making it: a few hundred bytes can share one
  // list 2^40 times, which copying would take hours and terabytes to refuse.
  [[nodiscard]] bool check_expansion(std::uint32_t root);
};

[[nodiscard]] ITERAGPU_INLINE std::uint64_t little_endian(std::span<const unsigned char> bytes) noexcept {
  std::uint64_t v = 0;
  for (std::size_t i = bytes.size(); i > 0; --i) {
    v = (v << 8U) | bytes[i - 1];
  }
  return v;
}

[[nodiscard]] ITERAGPU_INLINE std::string_view as_chars(std::span<const unsigned char> bytes) noexcept {
  // Reading unsigned char as char is allowed aliasing.
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

[[nodiscard]] ITERAGPU_INLINE result<boost::json::value, pickle_error> pickle_machine::read(
    const boost::json::storage_ptr& sp) {
  // Most opcodes of a large pickle make a value of a few bytes: room for
  // that many up front spares the copies of a growing table.
  nodes_.reserve(static_cast<std::size_t>(std::min(std::uint64_t{bytes_.size() / 4}, max_entries_)));
  std::uint32_t root = 0;
  if (!run(root)) {
    return unexpected{error_};
  }
  if (!check_expansion(root)) {
    return unexpected{error_};
  }
  boost::json::value out(sp);
  if (!convert(root, out)) {
    return unexpected{error_};
  }
  return out;
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::fail_at(pickle_errc code, std::uint64_t offset,
                                                           std::uint8_t opcode) noexcept {
  error_ = pickle_error{code, offset, opcode};
  return false;
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::take(std::uint64_t n, std::span<const unsigned char>& out) noexcept {
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

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::take_number(std::size_t width, std::uint64_t& out) noexcept {
  std::span<const unsigned char> b;
  if (!take(width, b)) {
    return false;
  }
  out = little_endian(b);
  return true;
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::count(std::uint64_t n) noexcept {
  if (n > max_entries_ - entries_) {
    return fail(pickle_errc::too_many_entries);
  }
  entries_ += n;
  return true;
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::push(std::uint32_t node) {
  if (!count()) {
    return false;
  }
  stack_.push_back(node);
  return true;
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::push_new(pickle_node node) {
  if (!count()) {
    return false;
  }
  stack_.push_back(static_cast<std::uint32_t>(nodes_.size()));
  nodes_.push_back(node);
  return true;
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::push_container(kind k) {
  if (!count()) {
    return false;
  }
  stack_.push_back(static_cast<std::uint32_t>(nodes_.size()));
  nodes_.push_back(pickle_node{k, 0, containers_.size()});
  containers_.push_back(pickle_container{{}, op_offset_, 1});
  return true;
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::pop_mark(std::size_t& begin) noexcept {
  if (marks_.empty()) {
    return fail(pickle_errc::mark_missing);
  }
  begin = marks_.back();
  marks_.pop_back();
  return true;
}

[[nodiscard]] ITERAGPU_INLINE std::uint32_t pickle_machine::height_of(std::uint32_t node) const noexcept {
  const pickle_node& n = nodes_[node];
  return n.kind == kind::list || n.kind == kind::tuple || n.kind == kind::dict ? containers_[n.value].height : 0;
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::key_ok(std::uint32_t node) noexcept {
  const kind k = nodes_[node].kind;
  return k == kind::text || k == kind::int64 || k == kind::uint64 || fail(pickle_errc::non_string_key);
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::add_items(std::uint32_t target, std::size_t begin) {
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

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::collect(kind k, std::size_t begin) {
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

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::add_to_below(kind k, std::size_t begin) {
  if (begin <= floor()) {
    return fail(pickle_errc::stack_underflow);
  }
  const std::uint32_t target = stack_[begin - 1];
  if (nodes_[target].kind != k) {
    return fail(pickle_errc::not_a_container);
  }
  return add_items(target, begin);
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::push_long(std::span<const unsigned char> b) {
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

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::push_text(kind k, std::size_t width) {
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

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::memo_put(std::uint64_t index) {
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

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::memo_get(std::uint64_t index) {
  if (index >= memo_.size()) {
    return fail(pickle_errc::bad_memo_index);
  }
  return push(memo_[index]);
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::refuse() noexcept {
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

// NOLINTNEXTLINE(readability-function-cognitive-complexity): one case per opcode
[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::control_op(bool& done) {
  std::uint64_t n = 0;
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
    default:
      return refuse();
  }
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::stack_op() {
  std::size_t begin = 0;
  switch (static_cast<op>(op_)) {
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
    default:
      return refuse();
  }
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::scalar_op() {
  std::uint64_t n = 0;
  std::span<const unsigned char> b;
  switch (static_cast<op>(op_)) {
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
      return push_new(
          {kind::int64, 0,
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
    default:
      return refuse();
  }
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::container_op() {
  std::size_t begin = 0;
  switch (static_cast<op>(op_)) {
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
    default:
      return refuse();
  }
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::memo_op() {
  std::uint64_t n = 0;
  switch (static_cast<op>(op_)) {
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

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::step(bool& done) {
  op_offset_ = pos_;
  op_ = bytes_[pos_];
  ++pos_;
  switch (static_cast<op>(op_)) {
    case op::proto:
    case op::frame:
    case op::stop:
      return control_op(done);
    case op::mark:
    case op::pop:
    case op::pop_mark:
    case op::dup:
      return stack_op();
    case op::none:
    case op::newtrue:
    case op::newfalse:
    case op::binint:
    case op::binint1:
    case op::binint2:
    case op::long1:
    case op::long4:
    case op::binfloat:
    case op::short_binunicode:
    case op::binunicode:
    case op::binunicode8:
    case op::short_binbytes:
    case op::binbytes:
    case op::binbytes8:
    case op::bytearray8:
      return scalar_op();
    case op::empty_list:
    case op::empty_tuple:
    case op::empty_dict:
    case op::list:
    case op::tuple:
    case op::dict:
    case op::tuple1:
    case op::tuple2:
    case op::tuple3:
    case op::append:
    case op::appends:
    case op::setitem:
    case op::setitems:
      return container_op();
    case op::memoize:
    case op::binput:
    case op::long_binput:
    case op::binget:
    case op::long_binget:
      return memo_op();
    default:
      return refuse();
  }
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::run(std::uint32_t& root) {
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

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::emit(std::uint32_t node, boost::json::value& slot,
                                                        std::uint32_t depth, std::uint64_t& emitted,
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

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::convert(std::uint32_t root, boost::json::value& out) {
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

[[nodiscard]] ITERAGPU_INLINE pickle_machine::expansion pickle_machine::item_expansion(
    std::uint32_t node, const std::uint32_t* key, const std::vector<expansion>& sizes) const noexcept {
  const pickle_node& n = nodes_[node];
  expansion e{1, key == nullptr ? sizeof(boost::json::value) : sizeof(boost::json::key_value_pair)};
  if (key != nullptr) {
    // An int key becomes at most 20 digits.
    e.bytes += nodes_[*key].kind == kind::text ? nodes_[*key].size : 20U;
  }
  if (n.kind == kind::text || n.kind == kind::bytes) {
    e.bytes += n.size;
  } else if (n.kind == kind::list || n.kind == kind::tuple || n.kind == kind::dict) {
    // A container still open (one holding itself) adds what it has counted
    // so far; convert() refuses it as too deep.
    e.values += sizes[n.value].values;
    e.bytes += sizes[n.value].bytes;
  }
  return e;
}

[[nodiscard]] ITERAGPU_INLINE bool pickle_machine::check_expansion(std::uint32_t root) {
  const auto is_container = [this](std::uint32_t node) {
    const kind k = nodes_[node].kind;
    return k == kind::list || k == kind::tuple || k == kind::dict;
  };
  if (!is_container(root)) {
    return true;
  }
  // Just above each limit: a sum of two capped figures stays far from 2^64.
  const std::uint64_t value_cap = max_entries_ + 1;
  const std::uint64_t byte_cap = std::min(max_result_bytes_, std::uint64_t{1} << 62U) + 1;
  enum class state : std::uint8_t { unseen, open, done };
  std::vector<state> states(containers_.size(), state::unseen);
  std::vector<expansion> sizes(containers_.size());
  struct frame {
    std::uint32_t node;
    std::size_t next;
  };
  std::vector<frame> todo{frame{root, 0}};
  states[nodes_[root].value] = state::open;
  while (!todo.empty()) {
    frame& f = todo.back();
    const auto at = static_cast<std::size_t>(nodes_[f.node].value);
    const pickle_container& c = containers_[at];
    const bool is_dict = nodes_[f.node].kind == kind::dict;
    if (f.next < c.items.size()) {
      const std::uint32_t* key = is_dict ? &c.items[f.next] : nullptr;
      const std::uint32_t child = c.items[is_dict ? f.next + 1 : f.next];
      if (is_container(child) && states[nodes_[child].value] == state::unseen) {
        states[nodes_[child].value] = state::open;
        todo.push_back(frame{child, 0});  // f is not used again before this child is done
        continue;
      }
      const expansion e = item_expansion(child, key, sizes);
      sizes[at].values = std::min(sizes[at].values + e.values, value_cap);
      sizes[at].bytes = std::min(sizes[at].bytes + e.bytes, byte_cap);
      f.next += is_dict ? 2 : 1;
      continue;
    }
    states[at] = state::done;
    const expansion whole = item_expansion(f.node, nullptr, sizes);
    if (whole.values > max_entries_) {
      return fail_at(pickle_errc::too_many_entries, c.offset, bytes_[c.offset]);
    }
    if (whole.bytes > max_result_bytes_) {
      return fail_at(pickle_errc::result_too_large, c.offset, bytes_[c.offset]);
    }
    todo.pop_back();
  }
  return true;
}

}  // namespace iteragpu::memory::detail

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE result<boost::json::value, pickle_error> read_pickle(std::span<const unsigned char> bytes,
                                                                                   const pickle_limits& limits,
                                                                                   const boost::json::storage_ptr& sp) {
  if (bytes.size() > limits.max_bytes) {
    return unexpected{pickle_error{pickle_errc::too_large, limits.max_bytes, 0}};
  }
  detail::pickle_machine machine(bytes, limits);
  return machine.read(sp);
}

[[nodiscard]] ITERAGPU_INLINE result<boost::json::value, pickle_error> read_pickle(std::span<const unsigned char> bytes,
                                                                                   const pickle_limits& limits) {
  return read_pickle(bytes, limits, {});
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_FILES_IMPL_PICKLE_IPP
