#ifndef ITERAGPU_IMPL_JSON_KEYS_IPP
#define ITERAGPU_IMPL_JSON_KEYS_IPP

#include <set>

#include <boost/json/basic_parser_impl.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/json_keys.hpp"

// The bodies of the functions that <iteragpu/json_keys.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::detail::json_keys {

// A basic_parser handler that builds nothing: it keeps the keys of every
// open object and the place of every open container, and notes the first
// key met twice in one object.
class duplicate_key_finder {
 public:
  static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);   // no limit beyond the parser's
  static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);  // no limit beyond the parser's
  static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);  // no limit beyond the parser's
  static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);     // no limit beyond the parser's

  static bool on_document_begin(boost::json::error_code& /*ec*/) { return true; }
  static bool on_document_end(boost::json::error_code& /*ec*/) { return true; }
  bool on_array_begin(boost::json::error_code& /*ec*/);
  bool on_array_end(std::size_t /*n*/, boost::json::error_code& /*ec*/) { return close(); }
  bool on_object_begin(boost::json::error_code& /*ec*/);
  bool on_object_end(std::size_t /*n*/, boost::json::error_code& /*ec*/) { return close(); }
  static bool on_string_part(boost::json::string_view /*s*/, std::size_t /*n*/, boost::json::error_code& /*ec*/) {
    return true;
  }
  bool on_string(boost::json::string_view /*s*/, std::size_t /*n*/, boost::json::error_code& /*ec*/) {
    return value_done();
  }
  bool on_key_part(boost::json::string_view s, std::size_t /*n*/, boost::json::error_code& /*ec*/);
  bool on_key(boost::json::string_view s, std::size_t /*n*/, boost::json::error_code& /*ec*/);
  static bool on_number_part(boost::json::string_view /*s*/, boost::json::error_code& /*ec*/) { return true; }
  bool on_int64(std::int64_t /*i*/, boost::json::string_view /*s*/, boost::json::error_code& /*ec*/) {
    return value_done();
  }
  bool on_uint64(std::uint64_t /*u*/, boost::json::string_view /*s*/, boost::json::error_code& /*ec*/) {
    return value_done();
  }
  bool on_double(double /*d*/, boost::json::string_view /*s*/, boost::json::error_code& /*ec*/) { return value_done(); }
  bool on_bool(bool /*b*/, boost::json::error_code& /*ec*/) { return value_done(); }
  bool on_null(boost::json::error_code& /*ec*/) { return value_done(); }
  static bool on_comment_part(boost::json::string_view /*s*/, boost::json::error_code& /*ec*/) { return true; }
  static bool on_comment(boost::json::string_view /*s*/, boost::json::error_code& /*ec*/) { return true; }

  // The JSON Pointer of the first duplicate key, when there is one.
  [[nodiscard]] const std::optional<std::string>& duplicate() const noexcept { return duplicate_; }

 private:
  struct container {
    bool object{false};          // an object, else an array
    std::size_t index{0};        // an array's elements so far
    std::string key;             // an object's current key
    std::set<std::string> keys;  // an object's keys so far
  };

  // RFC 6901: '~' is written "~0" and '/' "~1".
  [[nodiscard]] static std::string pointer_token(std::string_view key);

  // The pointer of the innermost open container: the member or element
  // each outer container holds it at.
  [[nodiscard]] std::string place_of_open_container() const;

  bool value_done();

  bool close();

  std::vector<container> open_;
  std::string key_;
  std::optional<std::string> duplicate_;
};

ITERAGPU_INLINE bool duplicate_key_finder::on_array_begin(boost::json::error_code& /*ec*/) {
  open_.push_back(container{false, 0, {}, {}});
  return true;
}

ITERAGPU_INLINE bool duplicate_key_finder::on_object_begin(boost::json::error_code& /*ec*/) {
  open_.push_back(container{true, 0, {}, {}});
  return true;
}

ITERAGPU_INLINE bool duplicate_key_finder::on_key_part(boost::json::string_view s, std::size_t /*n*/,
                                                       boost::json::error_code& /*ec*/) {
  key_.append(s.data(), s.size());
  return true;
}

ITERAGPU_INLINE bool duplicate_key_finder::on_key(boost::json::string_view s, std::size_t /*n*/,
                                                  boost::json::error_code& /*ec*/) {
  key_.append(s.data(), s.size());
  container& object = open_.back();
  if (!object.keys.insert(key_).second && !duplicate_) {
    duplicate_ = place_of_open_container() + "/" + pointer_token(key_);
  }
  object.key = std::move(key_);
  key_.clear();
  return true;
}

[[nodiscard]] ITERAGPU_INLINE std::string duplicate_key_finder::pointer_token(std::string_view key) {
  std::string token;
  for (const char c : key) {
    if (c == '~') {
      token += "~0";
    } else if (c == '/') {
      token += "~1";
    } else {
      token += c;
    }
  }
  return token;
}

[[nodiscard]] ITERAGPU_INLINE std::string duplicate_key_finder::place_of_open_container() const {
  std::string place;
  for (std::size_t i = 0; i + 1 < open_.size(); ++i) {
    place += "/" + (open_[i].object ? pointer_token(open_[i].key) : to_decimal_string(open_[i].index));
  }
  return place;
}

ITERAGPU_INLINE bool duplicate_key_finder::value_done() {
  if (!open_.empty() && !open_.back().object) {
    ++open_.back().index;
  }
  return true;
}

ITERAGPU_INLINE bool duplicate_key_finder::close() {
  open_.pop_back();
  return value_done();
}

}  // namespace iteragpu::detail::json_keys

namespace iteragpu {

[[nodiscard]] ITERAGPU_INLINE result<std::optional<std::string>, json_text_error> first_duplicate_key(
    std::string_view text, std::size_t max_depth) {
  boost::json::parse_options options;
  options.max_depth = max_depth;
  boost::json::basic_parser<detail::json_keys::duplicate_key_finder> parser{options};
  boost::json::error_code error;
  static_cast<void>(parser.write_some(false, text.data(), text.size(), error));
  if (error) {
    return unexpected{json_text_error{static_cast<std::error_code>(error)}};
  }
  return parser.handler().duplicate();
}

}  // namespace iteragpu

#endif  // ITERAGPU_IMPL_JSON_KEYS_IPP
