// The cheap layout check of a TorchScript archive, on zip files built here
// byte by byte: a module's records, torch.save's weights, a zip of
// something else, a zip64 end record, and files cut short or not zips.
#include <iteragpu/memory/torchscript_archive.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/report/torchscript.hpp>

namespace mem = iteragpu::memory;

namespace {

void put(std::vector<std::uint8_t>& out, std::uint64_t value, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) {
    out.push_back(static_cast<std::uint8_t>((value >> (8U * i)) & 0xffU));
  }
}

// A zip of empty stored entries with these names; with `zip64`, the
// end record's fields are 0xffffffff and the zip64 record and locator say
// where the central directory is.
std::vector<std::uint8_t> zip_of(const std::vector<std::string>& names, bool zip64 = false) {
  std::vector<std::uint8_t> file;
  std::vector<std::uint64_t> offsets;
  for (const auto& name : names) {
    offsets.push_back(file.size());
    put(file, 0x04034b50, 4);
    put(file, 20, 2);  // version needed
    put(file, 0, 2);   // flags
    put(file, 0, 2);   // stored
    put(file, 0, 4);   // time, date
    put(file, 0, 4);   // crc
    put(file, 0, 4);   // compressed size
    put(file, 0, 4);   // size
    put(file, name.size(), 2);
    put(file, 0, 2);
    file.insert(file.end(), name.begin(), name.end());
  }
  const std::uint64_t directory = file.size();
  for (std::size_t i = 0; i < names.size(); ++i) {
    put(file, 0x02014b50, 4);
    put(file, 20, 2);
    put(file, 20, 2);
    put(file, 0, 2);
    put(file, 0, 2);
    put(file, 0, 4);
    put(file, 0, 4);
    put(file, 0, 4);
    put(file, 0, 4);
    put(file, names[i].size(), 2);
    put(file, 0, 2);  // extra
    put(file, 0, 2);  // comment
    put(file, 0, 2);  // disk
    put(file, 0, 2);  // internal attributes
    put(file, 0, 4);  // external attributes
    put(file, offsets[i], 4);
    file.insert(file.end(), names[i].begin(), names[i].end());
  }
  const std::uint64_t directory_size = file.size() - directory;
  if (zip64) {
    const std::uint64_t record = file.size();
    put(file, 0x06064b50, 4);
    put(file, 44, 8);
    put(file, 45, 2);
    put(file, 45, 2);
    put(file, 0, 4);
    put(file, 0, 4);
    put(file, names.size(), 8);
    put(file, names.size(), 8);
    put(file, directory_size, 8);
    put(file, directory, 8);
    put(file, 0x07064b50, 4);
    put(file, 0, 4);
    put(file, record, 8);
    put(file, 1, 4);
  }
  put(file, 0x06054b50, 4);
  put(file, 0, 4);
  put(file, zip64 ? 0xffff : names.size(), 2);
  put(file, zip64 ? 0xffff : names.size(), 2);
  put(file, zip64 ? 0xffffffff : directory_size, 4);
  put(file, zip64 ? 0xffffffff : directory, 4);
  put(file, 0, 2);
  return file;
}

// The three reads of check_torchscript_archive(), on bytes in memory.
iteragpu::result<void, mem::archive_error> check(const std::vector<std::uint8_t>& file) {
  const std::span<const std::uint8_t> all(file);
  return mem::check_torchscript_archive(
      [&](std::uint64_t offset, std::uint64_t length) {
        return all.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
      },
      file.size());
}

const std::vector<std::string> module_records{"archive/data.pkl", "archive/code/__torch__.py", "archive/constants.pkl",
                                              "archive/data/0", "archive/version"};

}  // namespace

BOOST_AUTO_TEST_SUITE(torchscript_archive)

BOOST_AUTO_TEST_CASE(a_module_archive_is_accepted_with_or_without_zip64) {
  BOOST_TEST(check(zip_of(module_records)).has_value());
  BOOST_TEST(check(zip_of(module_records, true)).has_value());
  BOOST_TEST(check(zip_of({"m/constants.pkl", "m/data.pkl"})).has_value());
}

BOOST_AUTO_TEST_CASE(the_directory_is_found_where_the_end_record_says) {
  const auto file = zip_of(module_records);
  const auto where = mem::find_central_directory(file, file.size()).value();
  std::uint64_t locals = 0;
  for (const auto& name : module_records) {
    locals += 30 + name.size();
  }
  BOOST_TEST(where.offset == locals);
  BOOST_TEST(where.size == file.size() - locals - 22);
  const auto file64 = zip_of(module_records, true);
  const auto where64 = mem::find_central_directory(file64, file64.size()).value();
  BOOST_TEST(where64.offset == where.offset);
  BOOST_TEST(where64.size == where.size);
}

BOOST_AUTO_TEST_CASE(torch_save_weights_and_other_zips_are_refused) {
  const auto weights = check(zip_of({"archive/data.pkl", "archive/data/0", "archive/version"}));
  BOOST_TEST((weights.error().code == mem::archive_errc::weights_only));
  const auto other = check(zip_of({"readme.txt", "notdata.pkl", "archive/mydata.pkl"}));
  BOOST_TEST((other.error().code == mem::archive_errc::not_torchscript));
  BOOST_TEST(iteragpu::report::describe(weights.error()) ==
             "holds weights saved by torch.save, not a module saved by torch.jit.save");
}

BOOST_AUTO_TEST_CASE(files_that_are_not_zips_or_are_cut_are_refused) {
  const std::string text = "def forward(self, x):\n    return x\n";
  const std::vector<std::uint8_t> python(text.begin(), text.end());
  BOOST_TEST((check(python).error() == mem::archive_error{mem::archive_errc::not_a_zip, 0}));
  BOOST_TEST((check({}).error().code == mem::archive_errc::not_a_zip));
  auto cut = zip_of(module_records);
  cut.resize(cut.size() - 10);
  BOOST_TEST((check(cut).error().code == mem::archive_errc::no_end_record));
  // An end record that points past the file's end.
  auto wrong = zip_of(module_records);
  wrong[wrong.size() - 6] = 0xf0;
  BOOST_TEST((check(wrong).error().code == mem::archive_errc::bad_central_directory));
  // A directory entry whose name runs past the directory.
  auto long_name = zip_of(module_records);
  const auto where = mem::find_central_directory(long_name, long_name.size()).value();
  long_name[static_cast<std::size_t>(where.offset) + 28] = 0xff;
  long_name[static_cast<std::size_t>(where.offset) + 29] = 0xff;
  BOOST_TEST((check(long_name).error() == mem::archive_error{mem::archive_errc::bad_central_directory, where.offset}));
}

BOOST_AUTO_TEST_SUITE_END()
