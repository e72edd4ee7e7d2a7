// What a workload must offer: its setup steps may fail with an error that
// can be described; its forward pass gives something to keep.
#include <iteragpu/memory/policies/workload.hpp>

#include <string>
#include <string_view>

#include <boost/test/unit_test.hpp>

#include <iteragpu/result.hpp>

namespace mem = iteragpu::memory;

namespace {

struct load_problem {
  std::string file;
};
std::string describe(const load_problem& p) { return "cannot load " + p.file; }

// A workload whose model may be missing; its forward pass counts the calls.
struct counting_workload {
  bool model_present{true};
  int passes{0};
  iteragpu::result<void, load_problem> load_model() {
    if (!model_present) {
      return iteragpu::unexpected{load_problem{"model.pt"}};
    }
    return {};
  }
  void make_inputs() {}
  int forward() { return ++passes; }
};

// A setup step returning a value: not a workload's (a setup gives nothing back).
struct valued_setup {
  iteragpu::result<int, load_problem> load_model() { return 1; }
  void make_inputs() {}
  int forward() { return 0; }
};

struct undescribed {};

template <mem::workload W>
std::string run_twice(W& w) {
  const auto loaded = w.load_model();
  if (!loaded) {
    return describe(loaded.error());
  }
  w.make_inputs();
  static_cast<void>(w.forward());
  return std::to_string(w.forward());
}

}  // namespace

static_assert(mem::workload<counting_workload>);
static_assert(!mem::workload<valued_setup>);
static_assert(mem::failable<iteragpu::result<void, load_problem>>);
static_assert(!mem::failable<iteragpu::result<void, undescribed>>);
static_assert(!mem::failable<int>);

BOOST_AUTO_TEST_SUITE(workload_policy)

BOOST_AUTO_TEST_CASE(a_workload_runs_through_its_concept_and_reports_its_setup_failure) {
  counting_workload present;
  BOOST_TEST(run_twice(present) == "2");
  counting_workload missing{.model_present = false};
  BOOST_TEST(run_twice(missing) == "cannot load model.pt");
  BOOST_TEST(missing.passes == 0);
}

BOOST_AUTO_TEST_SUITE_END()
