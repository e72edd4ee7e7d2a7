#ifndef ITERAGPU_PRICING_IMPL_CATALOG_IPP
#define ITERAGPU_PRICING_IMPL_CATALOG_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/pricing/catalog.hpp"

// The bodies of the functions that <iteragpu/pricing/catalog.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::pricing {

[[nodiscard]] ITERAGPU_INLINE std::optional<money> gpu_offer::lot_price(package_days days) const noexcept {
  const auto i = duration_index(days);
  if (!i) {
    return std::nullopt;
  }
  return lot_prices[*i];
}

[[nodiscard]] ITERAGPU_INLINE const gpu_offer* catalog::find(std::string_view id) const noexcept {
  const auto at = std::ranges::lower_bound(by_id_, id, {}, [&](std::size_t i) { return std::string_view{offers_[i].id}; });
  return at != by_id_.end() && offers_[*at].id == id ? &offers_[*at] : nullptr;
}

[[nodiscard]] ITERAGPU_INLINE std::string catalog_error::message() const {
  return file + ":" + to_decimal_string(position.line) + ":" + to_decimal_string(position.column) + ": " + found +
         "; expected " + expected;
}

[[nodiscard]] ITERAGPU_INLINE std::string join_days(std::span<const package_days> days, std::string_view conjunction) {
  std::string text;
  for (std::size_t i = 0; i < days.size(); ++i) {
    if (i != 0) {
      text += i + 1 == days.size() ? " " + std::string(conjunction) + " " : std::string(", ");
    }
    text += to_decimal_string(days[i].value);
  }
  return text.empty() ? std::string("none") : text;
}

}  // namespace iteragpu::pricing

namespace iteragpu::pricing::detail {

[[nodiscard]] ITERAGPU_INLINE catalog_builder::fault catalog_builder::add(const csv_record& record) {
  const auto& f = record.fields;
  if (is_empty_line(record)) {
    return fail(record.position, "an empty line", "a row of 9 fields (" + std::string(catalog_header) + ")");
  }
  if (f.size() != catalog_columns.size()) {
    return fail(f.size() > catalog_columns.size() ? f[catalog_columns.size()].position : record.end,
                "a row of " + to_decimal_string(f.size()) + " fields",
                "9 fields (" + std::string(catalog_header) + ")");
  }
  if (auto e = check_snapshot_fields(f)) {
    return e;
  }
  row_values row;
  if (auto e = read_values(f, row)) {
    return e;
  }
  return place(f, record.position.line, row);
}

[[nodiscard]] ITERAGPU_INLINE catalog_builder::fault catalog_builder::check_complete() const {
  for (std::size_t i = 0; i < offers_.size(); ++i) {
    std::vector<package_days> days;
    for (std::size_t d = 0; d < package_durations.size(); ++d) {
      if (offers_[i].lines[d] != 0) {
        days.push_back(package_durations[d]);
      }
    }
    if (days.size() != package_durations.size()) {
      return fail(first_gpu_field_[i], offers_[i].id + " with rows for " + join_days(days, "and") + " days only",
                  "one row each for 3, 7 and 30 days per GPU");
    }
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE catalog catalog_builder::take() && {
  catalog c;
  c.file_ = std::move(file_);
  c.snapshot_ = std::move(snapshot_);
  c.offers_ = std::move(offers_);
  c.by_id_.reserve(index_.size());
  for (const auto& entry : index_) {  // the map is sorted by id
    c.by_id_.push_back(entry.second);
  }
  return c;
}

[[nodiscard]] ITERAGPU_INLINE catalog_builder::fault catalog_builder::check_display_text(const csv_field& field, std::size_t column, std::string_view what) const {
  const std::string plain = std::string(what) + ": printable, non-empty, no space at either end";
  const auto& text = field.text;
  if (text.empty() || text.front() == ' ' || text.back() == ' ') {
    return fail(field.position, std::string(catalog_columns[column]) + " " + quoted_excerpt(text), plain);
  }
  const auto bad = first_display_fault(text);
  if (!bad) {
    return std::nullopt;
  }
  const auto byte = static_cast<unsigned char>(text[bad->offset]);
  if (bad->what == display_text_fault::kind::control && (byte < 0x20U || byte == 0x7FU)) {
    return fail(field.position, std::string(catalog_columns[column]) + " " + quoted_excerpt(text), plain);
  }
  return fail(column_of(field, bad->offset),
              std::string(describe(bad->what)) + " in " + std::string(catalog_columns[column]) + " " +
              quoted_excerpt(text),
              std::string(what) + " of valid UTF-8 without control or bidirectional control characters");
}

[[nodiscard]] ITERAGPU_INLINE text_position catalog_builder::column_of(const csv_field& field, std::size_t offset) {
  text_position at = field.position;
  if (field.quoted) {
    const auto quotes = static_cast<std::size_t>(std::ranges::count(field.text.substr(0, offset), '"'));
    at.column += 1 + quotes;
  }
  at.column += offset;
  return at;
}

[[nodiscard]] ITERAGPU_INLINE catalog_builder::fault catalog_builder::check_snapshot_fields(const std::vector<csv_field>& f) const {
  const auto first_row_line = to_decimal_string(first_line_);
  if (auto e = check_display_text(f[0], 0, "a provider name")) {
    return e;
  }
  if (f[0].text != snapshot_.provider) {
    return fail(f[0].position, found(f, 0),
                quoted_excerpt(snapshot_.provider) + " as on line " + first_row_line + " (one provider per catalog)");
  }
  if (f[1].text != catalog_currency) {
    return fail(f[1].position, found(f, 1), "USD (prices are US cents; there is no currency conversion)");
  }
  if (!is_iso_date(f[2].text)) {
    return fail(f[2].position, found(f, 2), "an ISO 8601 calendar date YYYY-MM-DD");
  }
  if (f[2].text != snapshot_.date) {
    return fail(f[2].position, found(f, 2),
                quoted_excerpt(snapshot_.date) + " as on line " + first_row_line + " (one snapshot per catalog)");
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> catalog_builder::positive(const csv_field& field) noexcept {
  const auto n = parse_unsigned(field.text);
  if (!n || *n == 0) {
    return std::nullopt;
  }
  return *n;
}

[[nodiscard]] ITERAGPU_INLINE catalog_builder::fault catalog_builder::read_values(const std::vector<csv_field>& f, row_values& row) const {
  if (!is_gpu_id(f[3].text)) {
    return fail(f[3].position, found(f, 3), "a GPU id of lower-case letters, digits and '-', not starting with '-'");
  }
  if (auto e = check_display_text(f[4], 4, "a name")) {
    return e;
  }
  const auto memory = positive(f[5]);
  if (!memory) {
    return fail(f[5].position, found(f, 5), std::string(positive_integer_text) + " of GB per GPU");
  }
  row.memory = memory_gb{*memory};
  const auto per_lot = positive(f[6]);
  if (!per_lot) {
    return fail(f[6].position, found(f, 6), std::string(positive_integer_text) + " of GPUs in one lot");
  }
  row.per_lot = gpu_count{*per_lot};
  const auto duration = duration_named(f[7].text);
  if (!duration) {
    return fail(f[7].position, found(f, 7), "3, 7 or 30 (days of a package)");
  }
  row.days = *duration;
  const auto price = money::parse_cents(f[8].text);
  if (!price) {
    return fail(f[8].position, found(f, 8),
                price.error() == money_error::too_large
                ? "a price that fits 64 bits (at most " + std::string(largest_u64_text) + " cents)"
                : std::string(positive_integer_text) + " of US cents");
  }
  if (price->cents() == 0) {
    return fail(f[8].position, found(f, 8), std::string(positive_integer_text) + " of US cents");
  }
  row.price = *price;
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE catalog_builder::fault catalog_builder::place(const std::vector<csv_field>& f, std::size_t line, const row_values& row) {
  const std::string& id = f[3].text;
  const std::size_t d = *duration_index(row.days);
  const auto known = index_.find(id);
  if (known == index_.end()) {
    gpu_offer offer;
    offer.id = id;
    offer.name = f[4].text;
    offer.memory_per_gpu = row.memory;
    offer.gpus_per_lot = row.per_lot;
    offer.lot_prices[d] = row.price;
    offer.lines[d] = line;
    index_.emplace(id, offers_.size());
    offers_.push_back(std::move(offer));
    first_gpu_field_.push_back(f[3].position);
    first_line_of_.push_back(line);
    return std::nullopt;
  }
  const std::size_t i = known->second;
  gpu_offer& offer = offers_[i];
  if (offer.lines[d] != 0) {
    return fail(f[7].position, "a second " + id + " row for " + f[7].text + " days",
                "one row per GPU and duration (the first is on line " + to_decimal_string(offer.lines[d]) + ")");
  }
  const auto as_on = [&](std::uint64_t value) {
    return to_decimal_string(value) + " as on line " + to_decimal_string(first_line_of_[i]) +
           " (the same on a GPU's three rows)";
  };
  if (offer.gpus_per_lot != row.per_lot) {
    return fail(f[6].position, found(f, 6) + " for " + id, as_on(offer.gpus_per_lot.value));
  }
  if (offer.memory_per_gpu != row.memory) {
    return fail(f[5].position, found(f, 5) + " for " + id, as_on(offer.memory_per_gpu.value));
  }
  if (offer.name != f[4].text) {
    return fail(f[4].position, found(f, 4) + " for " + id,
                quoted_excerpt(offer.name) + " as on line " + to_decimal_string(first_line_of_[i]) +
                " (the same on a GPU's three rows)");
  }
  offer.lot_prices[d] = row.price;
  offer.lines[d] = line;
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<catalog_error> check_header(const std::string& file, const csv_record& header) {
  const std::string hint = "the header " + std::string(catalog_header);
  for (std::size_t i = 0; i < header.fields.size() && i < catalog_columns.size(); ++i) {
    if (header.fields[i].text != catalog_columns[i]) {
      return catalog_error{file, header.fields[i].position,
                           "header field " + to_decimal_string(i + 1) + " " + quoted_excerpt(header.fields[i].text),
                           quoted_excerpt(catalog_columns[i]) + " (" + hint + ")"};
    }
  }
  if (header.fields.size() != catalog_columns.size()) {
    return catalog_error{
        file,
        header.fields.size() > catalog_columns.size() ? header.fields[catalog_columns.size()].position : header.end,
        "a header of " + to_decimal_string(header.fields.size()) + " fields", "9 fields: " + hint};
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<catalog_error> catalog_records::take(csv_record record) {
  if (is_empty_line(record)) {
    if (!pending_empty_) {
      pending_empty_ = std::move(record);
    }
    return std::nullopt;
  }
  if (pending_empty_) {
    if (auto e = place(*pending_empty_)) {
      return e;
    }
  }
  return place(record);
}

[[nodiscard]] ITERAGPU_INLINE result<catalog, catalog_error> catalog_records::finish(const std::string& header_hint) && {
  if (!header_seen_) {
    return unexpected{catalog_error{file_, {1, 1}, "only empty lines", header_hint}};
  }
  if (!builder_) {
    return unexpected{catalog_error{file_, {2, 1}, "no price rows after the header",
                                    "at least one GPU with rows for 3, 7 and 30 days"}};
  }
  if (auto e = builder_->check_complete()) {
    return unexpected{std::move(*e)};
  }
  return std::move(*builder_).take();
}

[[nodiscard]] ITERAGPU_INLINE std::optional<catalog_error> catalog_records::place(const csv_record& record) {
  if (!header_seen_) {
    header_seen_ = true;
    return check_header(file_, record);
  }
  if (!builder_) {
    builder_.emplace(file_, record);
  }
  return builder_->add(record);
}

}  // namespace iteragpu::pricing::detail

namespace iteragpu::pricing {

[[nodiscard]] ITERAGPU_INLINE result<catalog, catalog_error> parse_catalog(std::string_view text, std::string_view file_name) {
  const std::string file(file_name);
  const std::string header_hint = "the header " + std::string(catalog_header);
  const auto failure = [&](text_position at, std::string found, std::string expected) {
    return unexpected{catalog_error{file, at, std::move(found), std::move(expected)}};
  };
  if (text.empty()) {
    return failure({1, 1}, "an empty file", header_hint);
  }
  if (text.starts_with("\xEF\xBB\xBF")) {
    return failure({1, 1}, "a UTF-8 byte order mark",
                   header_hint + " at the very start of the file (UTF-8 without byte order mark)");
  }
  detail::catalog_records records(file);
  detail::csv_reader reader(text);
  while (true) {
    auto next = reader.next();
    if (!next) {
      auto e = std::move(next).error();
      return failure(e.position, std::move(e.found), std::move(e.expected));
    }
    if (!next->has_value()) {
      break;
    }
    if (auto e = records.take(std::move(**next))) {
      return unexpected{std::move(*e)};
    }
  }
  return std::move(records).finish(header_hint);
}

}  // namespace iteragpu::pricing

#endif  // ITERAGPU_PRICING_IMPL_CATALOG_IPP
