#ifndef ITERAGPU_REPORT_IMPL_FIT_IPP
#define ITERAGPU_REPORT_IMPL_FIT_IPP

#include <algorithm>
#include <ostream>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/report/fit.hpp"

// The bodies of the functions that <iteragpu/report/fit.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report::detail {

[[nodiscard]] ITERAGPU_INLINE boost::json::string json_text(std::string_view s) {
  return boost::json::string(s.data(), s.size());
}

ITERAGPU_INLINE void write_table(std::ostream& out, const std::vector<table_column>& columns,
                                 const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(columns.size());
  for (std::size_t i = 0; i < columns.size(); ++i) {
    width[i] = columns[i].head.size();
    for (const auto& row : rows) {
      width[i] = std::max(width[i], row[i].size());
    }
  }
  const auto write_line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const std::string pad(width[i] - cells[i].size(), ' ');
      const bool last = i + 1 == columns.size();
      out << (i == 0 ? "" : "  ") << (columns[i].number ? pad + cells[i] : cells[i] + (last ? "" : pad));
    }
    out << '\n';
  };
  std::vector<std::string> heads;
  heads.reserve(columns.size());
  for (const auto& c : columns) {
    heads.push_back(c.head);
  }
  write_line(heads);
  for (const auto& row : rows) {
    write_line(row);
  }
}

ITERAGPU_INLINE void write_catalog_lines(std::ostream& out, const pricing::catalog_snapshot& snapshot,
                                         std::string_view source) {
  out << "  catalog   provider " << snapshot.provider << ", snapshot " << snapshot.date << " (" << source << ")\n";
}

}  // namespace iteragpu::report::detail

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const pricing::search_error& error) {
  if (!error.offer) {
    return std::string(describe(error.code));
  }
  const pricing::gpu_offer& offer = *error.offer;
  const std::string per_lot = detail::plural(offer.gpus_per_lot.value, "GPU per lot", "GPUs per lot");
  const std::string days = error.days ? to_decimal_string(error.days->value) : std::string();
  const std::string package = offer.id + (error.days ? ", " + days + " days" : std::string());
  const std::string lots = error.lots ? to_decimal_string(error.lots->value) + " lots x " : std::string();
  switch (error.code) {
    case pricing::search_errc::memory_band_overflow:
      return offer.id + " has " + to_decimal_string(offer.memory_per_gpu.value) +
             " GB per GPU, which read as GiB passes 64 bits of bytes, so the memory rule cannot place it";
    case pricing::search_errc::total_gpus_overflow:
      return package + ": " + lots + per_lot + " does not fit in 64 bits";
    case pricing::search_errc::gpu_hours_overflow:
      return package + ": " + lots + per_lot + " x " + days + " days x 24 does not fit in 64 bits of GPU-hours";
    case pricing::search_errc::total_price_overflow:
      return package + ": " + lots +
             (error.days ? to_decimal_string(offer.lot_price(*error.days).value_or(pricing::money{}).cents())
                         : std::string()) +
             " cents is past 64 bits of cents (" + std::string(largest_u64_text) + ")";
    case pricing::search_errc::comparison_overflow:
      return "the lot prices of " + offer.id +
             " are too large to compare within 64 bits (lot price x days, GPUs per lot x days x 3)";
    case pricing::search_errc::zero_gpus:
    case pricing::search_errc::zero_gpu_hours:
    case pricing::search_errc::zero_accepted_results:
    case pricing::search_errc::unknown_duration:
    case pricing::search_errc::unknown_gpu:
      break;
  }
  return std::string(describe(error.code));
}

[[nodiscard]] ITERAGPU_INLINE std::vector<std::string_view> package_list_notes(const pricing::package_list& list) {
  std::vector<std::string_view> notes;
  if (list.snapshot.illustrative()) {
    notes.push_back(illustrative_note);
  }
  notes.push_back(availability_note);
  notes.push_back(billing_note);
  notes.push_back(gpu_hour_rounding_note);
  notes.push_back(list.search.accepted ? rounding_note : no_unit_cost_note);
  return notes;
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const pricing::package_match& m) {
  using detail::json_text;
  boost::json::object o;
  o["gpu"] = json_text(m.offer.id);
  o["name"] = json_text(m.offer.name);
  o["memory_gb_per_gpu"] = m.offer.memory_per_gpu.value;
  o["gpus_per_lot"] = m.offer.gpus_per_lot.value;
  o["days"] = m.days.value;
  o["lots"] = m.lots.value;
  o["total_gpus"] = m.total_gpus.value;
  o["lot_price_cents"] = m.lot_price.cents();
  o["total_price_cents"] = m.total_price.cents();
  o["total_price"] = json_text(m.total_price.to_string());
  if (m.fit && m.memory) {
    o["fit"] = {{"verdict", json_text(pricing::verdict_name(m.fit->verdict))},
                {"basis", m.memory->basis == pricing::band_basis::records ? "records" : "nominal"},
                {"runtime_low_bytes", m.memory->band.low.value},
                {"runtime_high_bytes", m.memory->band.high.value},
                {"headroom_bytes", m.fit->headroom.value},
                {"shortfall_bytes", m.fit->shortfall.value}};
  } else {
    o["fit"] = nullptr;
  }
  o["gpu_hours"] = m.provided.value;
  o["price_per_gpu_hour_cents"] = json_text(m.price_per_gpu_hour.to_string());
  o["unused_gpu_hours"] = m.unused ? boost::json::value(m.unused->value) : boost::json::value(nullptr);
  o["unit_cost_cents"] =
      m.unit_cost ? boost::json::value(json_text(m.unit_cost->to_string())) : boost::json::value(nullptr);
  return o;
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const pricing::package_list& list) {
  using detail::json_text;
  const auto& snapshot = list.snapshot;
  const auto& s = list.search;
  boost::json::object o;
  o["kind"] = "packages";
  o["provider"] = json_text(snapshot.provider);
  o["currency"] = json_text(snapshot.currency);
  o["snapshot_date"] = json_text(snapshot.date);
  o["illustrative"] = list.snapshot.illustrative();
  o["memory_need"] = to_json(s.need);
  o["memory_rule"] =
      s.need ? boost::json::value(json_text(pricing::memory_rule_statement)) : boost::json::value(nullptr);
  o["gpus"] = s.gpus.value;
  o["days"] = s.days ? boost::json::value(s.days->value) : boost::json::value(nullptr);
  o["gpu_hours"] = s.hours ? boost::json::value(s.hours->value) : boost::json::value(nullptr);
  o["accepted_results"] = s.accepted ? boost::json::value(s.accepted->value) : boost::json::value(nullptr);
  o["order"] = json_text(pricing::package_order_rule);
  boost::json::array packages;
  for (const auto& m : list.matches) {
    packages.emplace_back(to_json(m));
  }
  o["packages"] = std::move(packages);
  boost::json::array notes;
  for (const auto note : package_list_notes(list)) {
    notes.emplace_back(json_text(note));
  }
  o["notes"] = std::move(notes);
  return o;
}

}  // namespace iteragpu::report

namespace iteragpu::report::detail {

[[nodiscard]] ITERAGPU_INLINE std::string search_title(const pricing::package_list& list) {
  const auto& s = list.search;
  std::string title = "Packages of at least " + plural(s.gpus.value, "GPU", "GPUs");
  if (s.need) {
    // GiB given are shown as typed; bytes read from a file are shown exactly, their size beside for reading.
    title += (s.gpus.value == 1 ? " that holds " : " that each hold ") +
             (s.need->stated_gib ? s.need->stated_gib->to_string() + " GiB (" + bytes_text(s.need->bytes.value) + ")"
                                 : bytes_and_size_text(s.need->bytes.value));
  }
  if (s.hours) {
    title += ", at least " + to_decimal_string(s.hours->value) + " GPU-hours";
  }
  title += s.days ? ", " + to_decimal_string(s.days->value) + " days" : std::string(", every duration");
  return title + ": " + plural(list.matches.size(), "package", "packages");
}

[[nodiscard]] ITERAGPU_INLINE std::vector<table_column> package_columns(const pricing::package_search& s,
                                                                        const std::string& currency) {
  std::vector<table_column> columns{{"gpu", false}, {"name", false}, {"GB/GPU", true}};
  if (s.need) {
    columns.push_back({"fit", false});
    columns.push_back({"headroom (GiB)", true});
  }
  for (const char* head : {"days", "lots", "GPUs"}) {
    columns.push_back({head, true});
  }
  columns.push_back({"price (" + currency + ")", true});
  columns.push_back({"GPU-hours", true});
  columns.push_back({currency + "/GPU-hour", true});
  if (s.hours) {
    columns.push_back({"unused GPU-hours", true});
  }
  if (s.accepted) {
    columns.push_back({currency + "/accepted result", true});
  }
  return columns;
}

[[nodiscard]] ITERAGPU_INLINE std::vector<std::string> package_cells(const pricing::package_match& m) {
  std::vector<std::string> cells{m.offer.id, m.offer.name, to_decimal_string(m.offer.memory_per_gpu.value)};
  if (m.fit) {
    const bool fits = m.fit->verdict == pricing::fit_verdict::fits;
    cells.emplace_back(pricing::verdict_name(m.fit->verdict));
    cells.push_back(fits ? gib_two_places(m.fit->headroom, false) : "-" + gib_two_places(m.fit->shortfall, true));
  }
  cells.push_back(to_decimal_string(m.days.value));
  cells.push_back(to_decimal_string(m.lots.value));
  cells.push_back(to_decimal_string(m.total_gpus.value));
  cells.push_back(m.total_price.to_string());
  cells.push_back(to_decimal_string(m.provided.value));
  cells.push_back(m.price_per_gpu_hour.dollars_string());
  if (m.unused) {
    cells.push_back(to_decimal_string(m.unused->value));
  }
  if (m.unit_cost) {
    cells.push_back(m.unit_cost->dollars_string());
  }
  return cells;
}

}  // namespace iteragpu::report::detail

namespace iteragpu::report {

ITERAGPU_INLINE void write_text(std::ostream& out, const pricing::package_list& list, std::string_view source) {
  const auto& s = list.search;
  if (list.snapshot.illustrative()) {
    out << illustrative_note << '\n';
  }
  out << detail::search_title(list) << '\n';
  if (s.need) {
    out << "  need      " << escaped(s.need->source) << '\n';
    if (!s.need->setting.empty()) {
      out << "  setting   " << s.need->setting << '\n';
    }
  }
  detail::write_catalog_lines(out, list.snapshot, source);
  if (list.matches.empty()) {
    out << "No package of the catalog meets this search.\n";
  } else {
    std::vector<std::vector<std::string>> rows;
    rows.reserve(list.matches.size());
    for (const auto& m : list.matches) {
      rows.push_back(detail::package_cells(m));
    }
    detail::write_table(out, detail::package_columns(s, list.snapshot.currency), rows);
  }
  if (s.need) {
    out << pricing::memory_rule_statement << '\n';
  }
  out << "Notes:\n  - order: " << pricing::package_order_rule << '\n';
  if (s.need) {
    out << "  - " << headroom_rounding_note << '\n';
  }
  for (const auto note : package_list_notes(list)) {
    if (note != illustrative_note) {  // already on top
      out << "  - " << note << '\n';
    }
  }
}

[[nodiscard]] ITERAGPU_INLINE std::vector<std::string_view> durations_notes(const pricing::durations_comparison& c) {
  std::vector<std::string_view> notes;
  if (c.snapshot.illustrative()) {
    notes.push_back(illustrative_note);
  }
  notes.push_back(availability_note);
  notes.push_back(billing_note);
  notes.push_back(gpu_day_rounding_note);
  notes.push_back(saving_rounding_note);
  notes.push_back(c.accepted ? lot_unit_cost_note : no_unit_cost_note);
  return notes;
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const pricing::durations_comparison& c) {
  using detail::json_text;
  const auto& snapshot = c.snapshot;
  boost::json::object o;
  o["kind"] = "durations";
  o["provider"] = json_text(snapshot.provider);
  o["currency"] = json_text(snapshot.currency);
  o["snapshot_date"] = json_text(snapshot.date);
  o["illustrative"] = c.snapshot.illustrative();
  o["gpu"] = json_text(c.offer.id);
  o["name"] = json_text(c.offer.name);
  o["memory_gb_per_gpu"] = c.offer.memory_per_gpu.value;
  o["gpus_per_lot"] = c.offer.gpus_per_lot.value;
  o["accepted_results"] = c.accepted ? boost::json::value(c.accepted->value) : boost::json::value(nullptr);
  boost::json::array rows;
  for (const auto& row : c.rows) {
    boost::json::object r;
    r["days"] = row.days.value;
    r["lot_price_cents"] = row.lot_price.cents();
    r["lot_price"] = json_text(row.lot_price.to_string());
    r["gpu_days"] = row.gpu_days;
    r["price_per_gpu_day_cents"] = json_text(row.price_per_gpu_day.to_string());
    r["dearer"] = row.saving.dearer;
    r["saving_per_gpu_day_cents"] = json_text(pricing::signed_text(row.saving.dearer, row.saving.per_gpu_day));
    r["saving_percent"] = json_text(pricing::percent_text(row.saving));
    r["unit_cost_cents"] =
        row.unit_cost ? boost::json::value(json_text(row.unit_cost->to_string())) : boost::json::value(nullptr);
    rows.emplace_back(std::move(r));
  }
  o["durations"] = std::move(rows);
  boost::json::array notes;
  for (const auto note : durations_notes(c)) {
    notes.emplace_back(json_text(note));
  }
  o["notes"] = std::move(notes);
  return o;
}

ITERAGPU_INLINE void write_text(std::ostream& out, const pricing::durations_comparison& c, std::string_view source) {
  const auto& offer = c.offer;
  const std::string shortest = to_decimal_string(pricing::package_durations[0].value);
  if (c.snapshot.illustrative()) {
    out << illustrative_note << '\n';
  }
  out << "Durations compared: " << offer.id << " (" << offer.name << ", " << offer.memory_per_gpu.value
      << " GB per GPU), one lot of " << detail::plural(offer.gpus_per_lot.value, "GPU", "GPUs") << '\n';
  detail::write_catalog_lines(out, c.snapshot, source);
  std::vector<detail::table_column> columns{
      {"days", true},
      {"lot price (" + c.snapshot.currency + ")", true},
      {"GPU-days", true},
      {c.snapshot.currency + "/GPU-day", true},
      {"saving vs " + shortest + " days (" + c.snapshot.currency + "/GPU-day)", true},
      {"saving vs " + shortest + " days (%)", true}};
  if (c.accepted) {
    columns.push_back({c.snapshot.currency + "/accepted result", true});
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : c.rows) {
    std::vector<std::string> cells{to_decimal_string(row.days.value),
                                   row.lot_price.to_string(),
                                   to_decimal_string(row.gpu_days),
                                   row.price_per_gpu_day.dollars_string(),
                                   pricing::signed_dollars_text(row.saving.dearer, row.saving.per_gpu_day),
                                   pricing::percent_text(row.saving)};
    if (row.unit_cost) {
      cells.push_back(row.unit_cost->dollars_string());
    }
    rows.push_back(std::move(cells));
  }
  detail::write_table(out, columns, rows);
  out << "Notes:\n";
  for (const auto note : durations_notes(c)) {
    if (note != illustrative_note) {
      out << "  - " << note << '\n';
    }
  }
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_FIT_IPP
