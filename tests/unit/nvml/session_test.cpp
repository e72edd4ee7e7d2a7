// The NVML session through fake NVML libraries (tests/nvml/fake_nvml.cpp),
// opened by path through the same dlopen as the driver's library: a
// complete one, one without an entry point in each variant, one whose
// initialization fails, and devices whose NVML order differs from CUDA's.
#include <iteragpu/nvml/session.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/report/gpu_state.hpp>

#include "fake_nvml.hpp"

namespace {

using iteragpu::memory::clock_event_reasons;
using iteragpu::report::describe;
using iteragpu::nvml::enablement;
using iteragpu::nvml::session;
using iteragpu::nvml::shared_library;

// The session's reason, in the reports' words.
std::optional<std::string> words(const iteragpu::result<void, iteragpu::memory::reading_error>& ready) {
  return ready ? std::nullopt : std::optional<std::string>(describe(ready.error()));
}

// The fake opened by the test, to configure it and read its call counts;
// a session opened on the same path shares the loaded copy.
class fake {
 public:
  explicit fake(std::string path) : path_(std::move(path)), library_(open_or_throw(path_)) {}

  void configure(const fake_nvml_config& c) const { entry<fake_nvml_configure_fn>("fake_nvml_configure")(&c); }

  [[nodiscard]] fake_nvml_calls calls() const {
    fake_nvml_calls c{};
    entry<fake_nvml_read_calls_fn>("fake_nvml_read_calls")(&c);
    return c;
  }

  [[nodiscard]] session open_session() const { return session::open(path_); }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  static shared_library open_or_throw(const std::string& path) {
    auto library = shared_library::open(path);
    if (!library.has_value()) {
      throw std::runtime_error("the fake NVML did not load: " + describe(library.error()));
    }
    return std::move(*library);
  }

  template <class F>
  [[nodiscard]] F* entry(const char* name) const {
    F* f = library_.function<F>(name);
    if (f == nullptr) {
      throw std::runtime_error(std::string("the fake NVML has no ") + name);
    }
    return f;
  }

  std::string path_;
  shared_library library_;
};

fake_nvml_device gpu(const char* bus_id, unsigned int sm_clock_mhz) {
  return fake_nvml_device{
      .bus_id = bus_id,
      .persistence_mode = 1,
      .mig_mode = 0,
      .ecc_mode = 1,
      .power_limit_mw = 700'000,
      .max_sm_clock_mhz = 1980,
      .max_memory_clock_mhz = 3201,
      .sm_clock_mhz = sm_clock_mhz,
      .memory_clock_mhz = 3201,
      .power_draw_mw = 432'100,
      .temperature_c = 47,
      .clock_event_reasons = 0x4,  // sw_power_cap
      .power_usage_result = 0,
      .mig_mode_result = 0,
  };
}

constexpr const char* bus_1b = "00000000:1B:00.0";
constexpr const char* bus_3d = "00000000:3D:00.0";

fake_nvml_config one_gpu() {
  return fake_nvml_config{
      .init_result = 0,
      .error_strings = 1,
      .driver_version = "580.95.05",
      .nvml_version = "13.580.95.05",
      .device_count = 1,
      .devices = {gpu(bus_1b, 1755)},
  };
}

std::vector<std::string> names_of(const iteragpu::memory::gpu_state& s) { return s.clock_events.value().names(); }

}  // namespace

BOOST_AUTO_TEST_SUITE(nvml)

BOOST_AUTO_TEST_CASE(a_complete_library_gives_versions_settings_and_state) {
  const fake f(ITERAGPU_FAKE_NVML);
  f.configure(one_gpu());
  {
    const session s = f.open_session();
    BOOST_TEST(!words(s.ready()).has_value());
    BOOST_TEST(s.driver_version().value() == "580.95.05");
    BOOST_TEST(s.nvml_version().value() == "13.580.95.05");

    const auto facts = s.facts(bus_1b);
    BOOST_TEST((facts.persistence_mode.value() == enablement::enabled));
    BOOST_TEST((facts.mig_mode.value() == enablement::disabled));
    BOOST_TEST((facts.ecc_mode.value() == enablement::enabled));
    BOOST_TEST(facts.power_limit.value().value == 700'000U);
    BOOST_TEST(facts.max_sm_clock.value().value == 1980U);
    BOOST_TEST(facts.max_memory_clock.value().value == 3201U);

    const auto state = s.sample(bus_1b);
    BOOST_TEST(state.sm_clock.value().value == 1755U);
    BOOST_TEST(state.memory_clock.value().value == 3201U);
    BOOST_TEST(state.power_draw.value().value == 432'100U);
    BOOST_TEST(state.temperature.value().value == 47U);
    BOOST_TEST(state.clock_events.value().mask == 0x4U);
    BOOST_TEST(names_of(state) == std::vector<std::string>{"sw_power_cap"}, boost::test_tools::per_element());
  }
  const auto calls = f.calls();
  BOOST_TEST(calls.init == 1U);
  BOOST_TEST(calls.shutdown == 1U);
  BOOST_TEST(calls.clocks_event_reasons == 1U);  // the newer name is preferred
  BOOST_TEST(calls.clocks_throttle_reasons == 0U);
}

// NVML lists 3D then 1B; CUDA (which numbers by speed, or by bus id under
// CUDA_DEVICE_ORDER=PCI_BUS_ID, and renumbers under CUDA_VISIBLE_DEVICES)
// calls 1B its device 0. Asked for 1B, the session must read NVML's second
// device, told apart here by its SM clock.
BOOST_AUTO_TEST_CASE(the_device_is_found_by_its_bus_id_not_by_its_index) {
  const fake f(ITERAGPU_FAKE_NVML);
  auto config = one_gpu();
  config.device_count = 2;
  config.devices = {gpu(bus_3d, 1111), gpu(bus_1b, 1222)};
  f.configure(config);
  const session s = f.open_session();
  BOOST_TEST(s.sample(bus_1b).sm_clock.value().value == 1222U);
  BOOST_TEST(s.sample(bus_3d).sm_clock.value().value == 1111U);
  // The CUDA runtime's form: a four-digit domain, lower-case hexadecimal.
  BOOST_TEST(s.sample("0000:1b:00.0").sm_clock.value().value == 1222U);
  BOOST_TEST(f.calls().handle_by_index == 0U);
}

BOOST_AUTO_TEST_CASE(a_bus_id_that_no_device_has_empties_every_field_and_lists_what_nvml_sees) {
  const fake f(ITERAGPU_FAKE_NVML);
  auto config = one_gpu();
  config.device_count = 2;
  config.devices = {gpu(bus_3d, 1111), gpu(bus_1b, 1222)};
  f.configure(config);
  const session s = f.open_session();
  const std::string reason =
      "no NVML device has PCI bus id 0000:99:00.0 (NVML sees " + std::string(bus_3d) + ", " + std::string(bus_1b) + ")";
  const auto state = s.sample("0000:99:00.0");
  // The error carries its data; the words are the report's.
  BOOST_TEST((state.sm_clock.error().code == iteragpu::memory::reading_errc::no_device));
  BOOST_TEST(state.sm_clock.error().subject == "0000:99:00.0");
  BOOST_TEST((state.sm_clock.error().devices_seen == std::vector<std::string>{bus_3d, bus_1b}));
  BOOST_TEST(describe(state.sm_clock.error()) == reason);
  BOOST_TEST(describe(state.memory_clock.error()) == reason);
  BOOST_TEST(describe(state.power_draw.error()) == reason);
  BOOST_TEST(describe(state.temperature.error()) == reason);
  BOOST_TEST(describe(state.clock_events.error()) == reason);
  const auto facts = s.facts("0000:99:00.0");
  BOOST_TEST(describe(facts.persistence_mode.error()) == reason);
  BOOST_TEST(describe(facts.max_memory_clock.error()) == reason);
  // The versions do not depend on a device.
  BOOST_TEST(s.driver_version().value() == "580.95.05");
}

BOOST_AUTO_TEST_CASE(with_no_device_at_all_the_reason_says_so) {
  const fake f(ITERAGPU_FAKE_NVML);
  auto config = one_gpu();
  config.device_count = 0;
  f.configure(config);
  BOOST_TEST(describe(f.open_session().sample(bus_1b).sm_clock.error()) ==
             "no NVML device has PCI bus id 00000000:1B:00.0 (NVML sees no device)");
}

BOOST_AUTO_TEST_CASE(a_bus_id_that_is_not_one_is_refused_before_nvml_is_asked) {
  const fake f(ITERAGPU_FAKE_NVML);
  f.configure(one_gpu());
  const session s = f.open_session();
  const std::string expected = ": expected domain:bus:device.function, such as 00000000:1B:00.0, at most 31 characters";
  BOOST_TEST(describe(s.sample("").sm_clock.error()) == "''" + std::string(" is not a PCI bus id") + expected);
  const std::string too_long(32, '0');
  BOOST_TEST(describe(s.sample(too_long).sm_clock.error()) == "'" + too_long + "' is not a PCI bus id" + expected);
  const std::string_view with_nul("0000:1B\0:00.0", 13);
  BOOST_TEST(describe(s.facts(with_nul).ecc_mode.error()) == "'0000:1B\\0:00.0' is not a PCI bus id" + expected);
  BOOST_TEST(f.calls().handle_by_bus_id == 0U);
  // Short but malformed: NVML itself refuses it.
  BOOST_TEST(describe(s.sample("not-a-bus-id").power_draw.error()) ==
             "nvmlDeviceGetHandleByPciBusId_v2 failed: Invalid Argument (NVML error 2) for PCI bus id not-a-bus-id");
}

BOOST_AUTO_TEST_CASE(an_absent_library_leaves_every_field_empty_with_the_reason) {
  const session s = session::open("/nonexistent/libnvidia-ml.so.1");
  const auto reason = words(s.ready());
  BOOST_TEST_REQUIRE(reason.has_value());
  BOOST_TEST(reason->starts_with("/nonexistent/libnvidia-ml.so.1 could not be loaded: "));
  BOOST_TEST(reason->find("No such file or directory") != std::string::npos);
  BOOST_TEST(describe(s.driver_version().error()) == *reason);
  BOOST_TEST(describe(s.nvml_version().error()) == *reason);
  const auto facts = s.facts(bus_1b);
  for (const auto* field : {&facts.persistence_mode, &facts.mig_mode, &facts.ecc_mode}) {
    BOOST_TEST(describe(field->error()) == *reason);
  }
  BOOST_TEST(describe(facts.power_limit.error()) == *reason);
  BOOST_TEST(describe(facts.max_sm_clock.error()) == *reason);
  BOOST_TEST(describe(facts.max_memory_clock.error()) == *reason);
  const auto state = s.sample(bus_1b);
  BOOST_TEST(describe(state.sm_clock.error()) == *reason);
  BOOST_TEST(describe(state.memory_clock.error()) == *reason);
  BOOST_TEST(describe(state.power_draw.error()) == *reason);
  BOOST_TEST(describe(state.temperature.error()) == *reason);
  BOOST_TEST(describe(state.clock_events.error()) == *reason);
}

// Where this machine has no NVIDIA driver (the CPU machines that run these
// tests), the default session says so; where it has one, it opens or says
// why not.
BOOST_AUTO_TEST_CASE(the_default_library_missing_means_no_nvidia_driver) {
  const bool driver_here = shared_library::open(iteragpu::nvml::default_library).has_value();
  const session s = session::open();
  if (!driver_here) {
    BOOST_TEST_REQUIRE(words(s.ready()).has_value());
    BOOST_TEST(words(s.ready())->starts_with("libnvidia-ml.so.1 not found (no NVIDIA driver on this machine): "));
  } else {
    BOOST_TEST((!words(s.ready()).has_value() || words(s.ready())->starts_with("NVML did not start")));
  }
}

BOOST_AUTO_TEST_CASE(an_empty_library_path_is_refused) {
  BOOST_TEST(words(session::open("").ready()).value() == "no NVML library path was given");
}

BOOST_AUTO_TEST_CASE(a_library_without_nvml_init_is_not_nvml) {
  const fake f(ITERAGPU_FAKE_NVML_WITHOUT_INIT);
  f.configure(one_gpu());
  const session s = f.open_session();
  const std::string reason = f.path() + " has no nvmlInit_v2: it is not NVML, or an NVML too old for this library";
  BOOST_TEST(words(s.ready()).value() == reason);
  BOOST_TEST(describe(s.sample(bus_1b).temperature.error()) == reason);
}

BOOST_AUTO_TEST_CASE(a_failed_initialization_is_reported_with_nvml_s_words_and_never_shut_down) {
  const fake f(ITERAGPU_FAKE_NVML);
  auto config = one_gpu();
  config.init_result = 9;  // NVML_ERROR_DRIVER_NOT_LOADED
  f.configure(config);
  {
    const session s = f.open_session();
    const std::string reason = "NVML did not start: nvmlInit_v2 returned Driver Not Loaded (NVML error 9)";
    BOOST_TEST(words(s.ready()).value() == reason);
    BOOST_TEST(describe(s.driver_version().error()) == reason);
    BOOST_TEST(describe(s.facts(bus_1b).power_limit.error()) == reason);
  }
  BOOST_TEST(f.calls().init == 1U);
  BOOST_TEST(f.calls().shutdown == 0U);
}

BOOST_AUTO_TEST_CASE(a_missing_reading_function_empties_that_field_only) {
  const fake f(ITERAGPU_FAKE_NVML_WITHOUT_POWER_USAGE);
  f.configure(one_gpu());
  const session s = f.open_session();
  const auto state = s.sample(bus_1b);
  BOOST_TEST(describe(state.power_draw.error()) == "this NVML library has no nvmlDeviceGetPowerUsage");
  BOOST_TEST(state.sm_clock.value().value == 1755U);
  BOOST_TEST(state.temperature.value().value == 47U);
  BOOST_TEST(state.clock_events.value().mask == 0x4U);
  BOOST_TEST(s.facts(bus_1b).power_limit.value().value == 700'000U);
}

// Drivers before NVML 12.2 export only the older name of the clock event
// reasons; the session falls back to it.
BOOST_AUTO_TEST_CASE(without_the_newer_clock_events_name_the_older_throttle_reasons_are_read) {
  const fake f(ITERAGPU_FAKE_NVML_WITHOUT_CLOCKS_EVENT_REASONS);
  auto config = one_gpu();
  config.devices[0].clock_event_reasons = 0x1 | 0x40;
  f.configure(config);
  const session s = f.open_session();
  const auto state = s.sample(bus_1b);
  BOOST_TEST(names_of(state) == (std::vector<std::string>{"gpu_idle", "hw_thermal_slowdown"}),
             boost::test_tools::per_element());
  BOOST_TEST(f.calls().clocks_throttle_reasons == 1U);
  BOOST_TEST(f.calls().clocks_event_reasons == 0U);
}

BOOST_AUTO_TEST_CASE(a_failing_query_is_named_with_nvml_s_error_text_or_its_number) {
  const fake f(ITERAGPU_FAKE_NVML);
  auto config = one_gpu();
  config.devices[0].power_usage_result = 3;  // NVML_ERROR_NOT_SUPPORTED
  config.devices[0].mig_mode_result = 3;
  f.configure(config);
  {
    const session s = f.open_session();
    BOOST_TEST(describe(s.sample(bus_1b).power_draw.error()) ==
               "nvmlDeviceGetPowerUsage failed: Not Supported (NVML error 3)");
    BOOST_TEST(describe(s.facts(bus_1b).mig_mode.error()) ==
               "nvmlDeviceGetMigMode failed: Not Supported (NVML error 3)");
    BOOST_TEST(s.facts(bus_1b).ecc_mode.has_value());
  }
  config.error_strings = 0;  // nvmlErrorString returns NULL
  f.configure(config);
  const session s = f.open_session();
  BOOST_TEST(describe(s.sample(bus_1b).power_draw.error()) == "nvmlDeviceGetPowerUsage failed: NVML error 3");
}

BOOST_AUTO_TEST_CASE(a_mode_outside_nvml_s_documented_values_is_reported_not_guessed) {
  const fake f(ITERAGPU_FAKE_NVML);
  auto config = one_gpu();
  config.devices[0].persistence_mode = 7;
  config.devices[0].mig_mode = 2;
  config.devices[0].ecc_mode = -1;
  f.configure(config);
  const session s = f.open_session();
  const auto facts = s.facts(bus_1b);
  BOOST_TEST(describe(facts.persistence_mode.error()) == "nvmlDeviceGetPersistenceMode returned the unknown state 7");
  BOOST_TEST(describe(facts.mig_mode.error()) == "nvmlDeviceGetMigMode returned the unknown state 2");
  BOOST_TEST(describe(facts.ecc_mode.error()) == "nvmlDeviceGetEccMode returned the unknown state -1");
}

// NVML writes at most the buffer's 80 bytes; a version that fills them
// leaves no NUL, and the session must stop at the buffer's end.
BOOST_AUTO_TEST_CASE(a_version_filling_the_buffer_without_a_nul_is_read_to_the_buffer_end) {
  const fake f(ITERAGPU_FAKE_NVML);
  auto config = one_gpu();
  const std::string seventy_nine(79, '7');
  const std::string hundred(100, 'x');
  config.driver_version = seventy_nine.c_str();
  config.nvml_version = hundred.c_str();
  f.configure(config);
  const session s = f.open_session();
  BOOST_TEST(s.driver_version().value() == seventy_nine);
  BOOST_TEST(s.nvml_version().value() == std::string(80, 'x'));
}

BOOST_AUTO_TEST_CASE(nvml_is_shut_down_once_per_session_and_a_moved_from_session_is_unavailable) {
  const fake f(ITERAGPU_FAKE_NVML);
  f.configure(one_gpu());
  {
    session a = f.open_session();
    session b = std::move(a);
    // NOLINTNEXTLINE(bugprone-use-after-move): what a moved-from session says is the point
    BOOST_TEST(words(a.ready()).value() == "this NVML session was moved from");
    BOOST_TEST(b.sample(bus_1b).sm_clock.value().value == 1755U);
    session c = f.open_session();
    BOOST_TEST(!words(c.ready()).has_value());
    BOOST_TEST(f.calls().init == 2U);
    c = std::move(b);  // c's own NVML session ends here
    BOOST_TEST(f.calls().shutdown == 1U);
    BOOST_TEST(c.sample(bus_1b).sm_clock.value().value == 1755U);
  }
  BOOST_TEST(f.calls().init == 2U);
  BOOST_TEST(f.calls().shutdown == 2U);
}

// NVML counts its initializations: one session ending leaves the other working.
BOOST_AUTO_TEST_CASE(overlapping_sessions_each_initialize_and_shut_down) {
  const fake f(ITERAGPU_FAKE_NVML);
  f.configure(one_gpu());
  {
    const session outer = f.open_session();
    {
      const session inner = f.open_session();
    }
    BOOST_TEST(f.calls().shutdown == 1U);
    BOOST_TEST(outer.sample(bus_1b).temperature.value().value == 47U);
  }
  BOOST_TEST(f.calls().init == 2U);
  BOOST_TEST(f.calls().shutdown == 2U);
}

BOOST_AUTO_TEST_CASE(no_identifier_of_the_machine_is_read) {
  const fake f(ITERAGPU_FAKE_NVML);
  f.configure(one_gpu());
  {
    const session s = f.open_session();
    static_cast<void>(s.driver_version());
    static_cast<void>(s.nvml_version());
    static_cast<void>(s.facts(bus_1b));
    static_cast<void>(s.sample(bus_1b));
    static_cast<void>(s.sample("0000:99:00.0"));
  }
  BOOST_TEST(f.calls().identifiers == 0U);
}

BOOST_AUTO_TEST_CASE(the_session_meets_the_gpu_state_sampler_concept) {
  static_assert(iteragpu::memory::gpu_state_sampler<session>);
  static_assert(!std::is_copy_constructible_v<session>);
  static_assert(std::is_nothrow_move_constructible_v<session>);
  static_assert(std::is_nothrow_move_assignable_v<session>);
  BOOST_TEST(iteragpu::memory::gpu_state_sampler<session>);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(gpu_state)

// 0x1 | 0x4 | 0x40 | 0x100 are documented; bits 9 and 63 are not.
BOOST_AUTO_TEST_CASE(clock_event_bits_are_named_lowest_first_and_unknown_bits_as_such) {
  const clock_event_reasons reasons{0x1U | 0x4U | 0x40U | 0x100U | 0x200U | (std::uint64_t{1} << 63U)};
  BOOST_TEST(reasons.names() == (std::vector<std::string>{"gpu_idle", "sw_power_cap", "hw_thermal_slowdown",
                                                          "display_clock_setting", "unknown_bit_9", "unknown_bit_63"}),
             boost::test_tools::per_element());
  BOOST_TEST(clock_event_reasons{0}.names().empty());
  BOOST_TEST(clock_event_reasons{0x1FFU}.names().size() == 9U);
  BOOST_TEST(clock_event_reasons{0x1FFU}.names().back() == "display_clock_setting");
}

BOOST_AUTO_TEST_CASE(only_reasons_besides_gpu_idle_flag_a_repeat) {
  BOOST_TEST(!clock_event_reasons{0}.any_besides_idle());
  BOOST_TEST(!clock_event_reasons{0x1}.any_besides_idle());
  BOOST_TEST(clock_event_reasons{0x4}.any_besides_idle());
  BOOST_TEST(clock_event_reasons{0x1 | 0x8}.any_besides_idle());
  BOOST_TEST(clock_event_reasons{0x200}.any_besides_idle());
}

BOOST_AUTO_TEST_CASE(an_unavailable_state_carries_its_reason_in_every_field) {
  const iteragpu::memory::reading_error why{.code = iteragpu::memory::reading_errc::function_missing,
                                            .function = "nvmlInit_v2"};
  const auto s = iteragpu::memory::gpu_state_unavailable(why);
  BOOST_TEST((s.sm_clock.error() == why));
  BOOST_TEST((s.clock_events.error() == why));
  BOOST_TEST(describe(s.sm_clock.error()) == "this NVML library has no nvmlInit_v2");
  BOOST_TEST(describe(s.temperature.error()) == "this NVML library has no nvmlInit_v2");
}

BOOST_AUTO_TEST_SUITE_END()
