// SHA-256 against the published test vectors (FIPS 180-4 examples, NIST's
// one-million-'a' message), fed whole and in pieces of every awkward size.
#include <iteragpu/memory/sha256.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(sha256)

BOOST_AUTO_TEST_CASE(known_vectors) {
  BOOST_TEST(mem::to_hex(mem::sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  BOOST_TEST(mem::to_hex(mem::sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  BOOST_TEST(mem::to_hex(mem::sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  BOOST_TEST(mem::to_hex(mem::sha256("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
                                     "klmnopqrlmnopqrsmnopqrstnopqrstu")) ==
             "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

BOOST_AUTO_TEST_CASE(a_million_a_fed_in_pieces) {
  const std::vector<std::uint8_t> a(1'000'000, static_cast<std::uint8_t>('a'));
  mem::sha256_hasher hasher;
  std::size_t at = 0;
  std::size_t piece = 1;
  while (at < a.size()) {
    const std::size_t n = std::min(piece, a.size() - at);
    hasher.update(std::span<const std::uint8_t>(a).subspan(at, n));
    at += n;
    piece = piece * 3 + 1;
  }
  BOOST_TEST(mem::to_hex(hasher.finish()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

BOOST_AUTO_TEST_CASE(padding_boundaries_agree_with_whole_messages) {
  // 55, 56 and 64 bytes: the length fits the last block, does not, and a
  // whole block of message. Fed one byte at a time, the digest is the same.
  for (const std::size_t length : {55U, 56U, 63U, 64U, 65U}) {
    const std::string text(length, 'x');
    mem::sha256_hasher bytewise;
    for (const char c : text) {
      bytewise.update(std::string_view(&c, 1));
    }
    BOOST_TEST(mem::to_hex(bytewise.finish()) == mem::to_hex(mem::sha256(text)));
  }
  // Python's hashlib.sha256(b"x" * n) for the three boundaries.
  BOOST_TEST(mem::to_hex(mem::sha256(std::string(55, 'x'))) ==
             "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072");
  BOOST_TEST(mem::to_hex(mem::sha256(std::string(56, 'x'))) ==
             "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e");
  BOOST_TEST(mem::to_hex(mem::sha256(std::string(64, 'x'))) ==
             "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c");
}

static_assert(mem::sha256("abc")[0] == 0xba && mem::sha256("abc")[31] == 0xad,
              "the digest is computed at compile time");

BOOST_AUTO_TEST_SUITE_END()
