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
  const auto at =
      std::ranges::lower_bound(by_id_, id, {}, [&](std::size_t i) { return std::string_view{offers_[i].id}; });
  return at != by_id_.end() && offers_[*at].id == id ? &offers_[*at] : nullptr;
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
    return unexpected{fail(record.position, catalog_errc::empty_line)};
  }
  if (f.size() != catalog_columns.size()) {
    catalog_error e = fail(f.size() > catalog_columns.size() ? f[catalog_columns.size()].position : record.end,
                           catalog_errc::row_field_count);
    e.what = field_count{f.size()};
    return unexpected{std::move(e)};
  }
  if (auto e = check_snapshot_fields(f); !e) {
    return e;
  }
  row_values row;
  if (auto e = read_values(f, row); !e) {
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
      catalog_error e = fail(first_gpu_field_[i], catalog_errc::missing_durations);
      e.what = missing_rows{offers_[i].id, std::move(days)};
      return unexpected{std::move(e)};
    }
  }
  return {};
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

[[nodiscard]] ITERAGPU_INLINE catalog_builder::fault catalog_builder::check_display_text(
    const std::vector<csv_field>& f, std::size_t column) const {
  const auto& field = f[column];
  const auto& text = field.text;
  if (text.empty() || text.front() == ' ' || text.back() == ' ') {
    return unexpected{fail_field(f, column, catalog_errc::display_text)};
  }
  const auto checked = iteragpu::check_display_text(text);
  if (checked) {
    return {};
  }
  const display_text_error* bad = &checked.error();
  const auto byte = static_cast<unsigned char>(text[bad->offset]);
  if (bad->code == display_text_errc::control && (byte < 0x20U || byte == 0x7FU)) {
    return unexpected{fail_field(f, column, catalog_errc::display_text)};
  }
  catalog_error e = fail(column_of(field, bad->offset), catalog_errc::display_character);
  e.what = bad_character{field_at(f, column), bad->code};
  return unexpected{std::move(e)};
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

[[nodiscard]] ITERAGPU_INLINE catalog_builder::fault catalog_builder::check_snapshot_fields(
    const std::vector<csv_field>& f) const {
  const auto differs = [&](std::size_t column, catalog_errc what, const std::string& agreed) {
    catalog_error e = fail(f[column].position, what);
    e.what = other_text{field_at(f, column), std::string(), first_line_, agreed};
    return e;
  };
  if (auto e = check_display_text(f, 0); !e) {
    return e;
  }
  if (f[0].text != snapshot_.provider) {
    return unexpected{differs(0, catalog_errc::other_provider, snapshot_.provider)};
  }
  if (f[1].text != catalog_currency) {
    return unexpected{fail_field(f, 1, catalog_errc::currency)};
  }
  if (!is_iso_date(f[2].text)) {
    return unexpected{fail_field(f, 2, catalog_errc::date_format)};
  }
  if (f[2].text != snapshot_.date) {
    return unexpected{differs(2, catalog_errc::other_date, snapshot_.date)};
  }
  return {};
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> catalog_builder::positive(const csv_field& field) noexcept {
  const auto n = parse_unsigned(field.text);
  if (!n || *n == 0) {
    return std::nullopt;
  }
  return *n;
}

[[nodiscard]] ITERAGPU_INLINE catalog_builder::fault catalog_builder::read_values(const std::vector<csv_field>& f,
                                                                                  row_values& row) const {
  if (!is_gpu_id(f[3].text)) {
    return unexpected{fail_field(f, 3, catalog_errc::gpu_id)};
  }
  if (auto e = check_display_text(f, 4); !e) {
    return e;
  }
  const auto memory = positive(f[5]);
  if (!memory) {
    return unexpected{fail_field(f, 5, catalog_errc::memory_per_gpu)};
  }
  row.memory = memory_gb{*memory};
  const auto per_lot = positive(f[6]);
  if (!per_lot) {
    return unexpected{fail_field(f, 6, catalog_errc::gpus_per_lot)};
  }
  row.per_lot = gpu_count{*per_lot};
  const auto duration = duration_named(f[7].text);
  if (!duration) {
    return unexpected{fail_field(f, 7, catalog_errc::days)};
  }
  row.days = *duration;
  const auto price = money::parse_cents(f[8].text);
  if (!price) {
    return unexpected{
        fail_field(f, 8, price.error() == money_errc::too_large ? catalog_errc::price_too_large : catalog_errc::price)};
  }
  if (price->cents() == 0) {
    return unexpected{fail_field(f, 8, catalog_errc::price)};
  }
  row.price = *price;
  return {};
}

[[nodiscard]] ITERAGPU_INLINE catalog_builder::fault catalog_builder::place(const std::vector<csv_field>& f,
                                                                            std::size_t line, const row_values& row) {
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
    return {};
  }
  const std::size_t i = known->second;
  gpu_offer& offer = offers_[i];
  // A field of this GPU's row that an earlier row gave otherwise: the
  // error at the field, with `data` built from it.
  const auto differs = [&](std::size_t column, catalog_errc what, auto data) {
    catalog_error e = fail(f[column].position, what);
    data.field = field_at(f, column);
    data.gpu = id;
    e.what = std::move(data);
    return e;
  };
  if (offer.lines[d] != 0) {
    return unexpected{differs(7, catalog_errc::second_duration_row, second_row{{}, {}, offer.lines[d]})};
  }
  if (offer.gpus_per_lot != row.per_lot) {
    return unexpected{differs(6, catalog_errc::other_gpus_per_lot,
                              other_figure{{}, {}, first_line_of_[i], offer.gpus_per_lot.value})};
  }
  if (offer.memory_per_gpu != row.memory) {
    return unexpected{differs(5, catalog_errc::other_memory_per_gpu,
                              other_figure{{}, {}, first_line_of_[i], offer.memory_per_gpu.value})};
  }
  if (offer.name != f[4].text) {
    return unexpected{differs(4, catalog_errc::other_name, other_text{{}, {}, first_line_of_[i], offer.name})};
  }
  offer.lot_prices[d] = row.price;
  offer.lines[d] = line;
  return {};
}

[[nodiscard]] ITERAGPU_INLINE catalog_error file_error(const std::string& file, text_position at, catalog_errc what) {
  catalog_error e;
  e.file = file;
  e.position = at;
  e.code = what;
  return e;
}

[[nodiscard]] ITERAGPU_INLINE result<void, catalog_error> check_header(const std::string& file,
                                                                       const csv_record& header) {
  for (std::size_t i = 0; i < header.fields.size() && i < catalog_columns.size(); ++i) {
    if (header.fields[i].text != catalog_columns[i]) {
      catalog_error e = file_error(file, header.fields[i].position, catalog_errc::header_field);
      e.what = catalog_field{i, header.fields[i].text};
      return unexpected{std::move(e)};
    }
  }
  if (header.fields.size() != catalog_columns.size()) {
    catalog_error e = file_error(
        file,
        header.fields.size() > catalog_columns.size() ? header.fields[catalog_columns.size()].position : header.end,
        catalog_errc::header_field_count);
    e.what = field_count{header.fields.size()};
    return unexpected{std::move(e)};
  }
  return {};
}

[[nodiscard]] ITERAGPU_INLINE result<void, catalog_error> catalog_records::take(csv_record record) {
  if (is_empty_line(record)) {
    if (!pending_empty_) {
      pending_empty_ = std::move(record);
    }
    return {};
  }
  if (pending_empty_) {
    if (auto e = place(*pending_empty_); !e) {
      return e;
    }
  }
  return place(record);
}

[[nodiscard]] ITERAGPU_INLINE result<catalog, catalog_error> catalog_records::finish() && {
  if (!header_seen_) {
    return unexpected{file_error(file_, {1, 1}, catalog_errc::only_empty_lines)};
  }
  if (!builder_) {
    return unexpected{file_error(file_, {2, 1}, catalog_errc::no_price_rows)};
  }
  if (auto e = builder_->check_complete(); !e) {
    return unexpected{std::move(e).error()};
  }
  return std::move(*builder_).take();
}

[[nodiscard]] ITERAGPU_INLINE result<void, catalog_error> catalog_records::place(const csv_record& record) {
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

[[nodiscard]] ITERAGPU_INLINE result<catalog, catalog_error> parse_catalog(std::string_view text,
                                                                           std::string_view file_name) {
  const std::string file(file_name);
  if (text.empty()) {
    return unexpected{detail::file_error(file, {1, 1}, catalog_errc::empty_file)};
  }
  if (text.starts_with("\xEF\xBB\xBF")) {
    return unexpected{detail::file_error(file, {1, 1}, catalog_errc::byte_order_mark)};
  }
  detail::catalog_records records(file);
  detail::csv_reader reader(text);
  while (true) {
    auto next = reader.next();
    if (!next) {
      auto e = std::move(next).error();
      catalog_error error = detail::file_error(file, e.position, e.code);
      if (e.code == catalog_errc::after_closing_quote) {
        error.what = stray_character{std::move(e.found)};
      }
      return unexpected{std::move(error)};
    }
    if (!next->has_value()) {
      break;
    }
    if (auto e = records.take(std::move(**next)); !e) {
      return unexpected{std::move(e).error()};
    }
  }
  return std::move(records).finish();
}

}  // namespace iteragpu::pricing

#endif  // ITERAGPU_PRICING_IMPL_CATALOG_IPP
