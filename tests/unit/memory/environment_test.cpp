// The environment of a run: the visible GPUs listed, and the device asked
// for found among them or refused with the list.
#include <iteragpu/memory/environment.hpp>

#include <optional>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/policies/backend.hpp>

namespace mem = iteragpu::memory;

namespace {

// Two GPUs listed, but no way to measure them.
struct two_gpu_inventory {
  [[nodiscard]] static std::optional<std::string> unavailable_reason() { return std::nullopt; }
  [[nodiscard]] static std::optional<mem::runtime_build> build() { return std::nullopt; }
  [[nodiscard]] static std::vector<mem::gpu_description> visible_gpus() {
    return {{mem::device_index{0}, "NVIDIA H200", "9.0", 150'000'000'000},
            {mem::device_index{1}, "NVIDIA H100", "9.0", 80'000'000'000}};
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(environment)

BOOST_AUTO_TEST_CASE(gpus_are_listed_by_device_name_and_runtime_name) {
  BOOST_TEST(mem::list_of({}) == "none");
  BOOST_TEST(mem::list_of(two_gpu_inventory::visible_gpus()) == "cuda:0 (NVIDIA H200), cuda:1 (NVIDIA H100)");
}

BOOST_AUTO_TEST_CASE(a_device_past_the_visible_ones_is_refused_with_the_list) {
  two_gpu_inventory inventory;
  const auto report = mem::probe_environment(inventory, mem::device_index{2}, std::string("2.11.0"));
  BOOST_TEST(report.libtorch_available);
  BOOST_TEST(report.gpus.size() == 2U);
  BOOST_TEST(!report.device.available);
  BOOST_TEST(report.device.reason.value() ==
             "cuda:2 is not visible; visible GPUs: cuda:0 (NVIDIA H200), cuda:1 (NVIDIA H100)");
  // cuda:1 is visible, but this inventory cannot measure it.
  const auto second = mem::probe_environment(inventory, mem::device_index{1}, std::nullopt);
  BOOST_TEST(second.device.name.value() == "NVIDIA H100");
  BOOST_TEST(second.device.reason.value() == "this backend cannot measure");
  BOOST_TEST(!second.libtorch_available);
}

BOOST_AUTO_TEST_CASE(an_unavailable_backend_lists_nothing_and_gives_its_reason) {
  mem::unavailable_backend backend{mem::built_without_libtorch};
  const auto report = mem::probe_environment(backend, mem::device_index{0}, std::nullopt);
  BOOST_TEST(report.gpus.empty());
  BOOST_TEST(report.device.reason.value() == std::string(mem::built_without_libtorch));
  BOOST_TEST(!mem::compiler_description().empty());
}

BOOST_AUTO_TEST_SUITE_END()
