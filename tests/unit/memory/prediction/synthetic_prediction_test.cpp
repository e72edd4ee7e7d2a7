// The predicted phase rows of the synthetic network, against values worked
// out by hand from the allocator's rules (the working is beside each case),
// and against the H200: the four configurations measured with PyTorch
// 2.11.0+cu130 through mesure_memoire are pinned row for row, and every
// other shape below was also run on an H200 with PyTorch 2.11.0+cu130 (a
// Python replica of the protocol, same operators) and read the same bytes.
//
// Notation: w = width, H = 4w, R = batch x context rows, e = bytes per
// element; each weight W = H.w.e, b1 = H.e, b2 = w.e, input and output
// X = R.w.e, the first linear's and GELU's outputs A = R.H.e; r(n) = n
// rounded up to 512. Small pool: blocks of at most 1 MiB in 2 MiB
// segments. Large pool: a 20 MiB segment for a block under 10 MiB, else a
// segment of the block rounded up to 2 MiB; the rest of a chosen block is
// split off when it is at least 512 bytes (small) or more than 1 MiB
// (large). One pass: A1, then on the first pass the workspaces (cuBLAS
// 32 MiB, a segment of its own; cuBLASLt 1 MiB in the small pool, only
// when w > 1: ws = 34,603,008, or 33,554,432 when w = 1), A2, A1 freed, O,
// A2 freed. "warm" is the warmup row and every warm_forward row, which
// repeat the same pass on the same cached blocks.
#include <iteragpu/memory/prediction/synthetic_prediction.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace {

using iteragpu::byte_count;
using iteragpu::memory::element_type;
using iteragpu::memory::phase_kind;
using iteragpu::memory::phase_row;
using iteragpu::memory::protocol_plan;
using iteragpu::memory::synthetic_shape;
using iteragpu::memory::allocator_reading;
using iteragpu::memory::device_index;
using iteragpu::memory::prediction::blas_workspaces;
using iteragpu::memory::prediction::caching_allocator;
using iteragpu::memory::prediction::h200_pytorch_2_11;
using iteragpu::memory::prediction::simulated_backend;
using iteragpu::memory::prediction::simulated_counter;
using iteragpu::memory::prediction::simulated_tensor;
using iteragpu::memory::prediction::predict_synthetic;
using iteragpu::memory::prediction::split_workspace_total;

constexpr auto f32 = element_type::float32;
constexpr auto f16 = element_type::float16;
constexpr auto bf16 = element_type::bfloat16;

// base_alloc base_resv end_alloc end_resv peak_alloc peak_resv, as the
// measurement tables print them.
struct bytes6 {
  std::uint64_t base_alloc;
  std::uint64_t base_resv;
  std::uint64_t end_alloc;
  std::uint64_t end_resv;
  std::uint64_t peak_alloc;
  std::uint64_t peak_resv;
};

struct expected_run {
  bytes6 model_load;
  bytes6 inputs;
  bytes6 cold_forward;
  bytes6 warm;
};

void check_row(const phase_row& row, phase_kind phase, std::optional<std::uint64_t> repeat, const bytes6& b) {
  BOOST_TEST_CONTEXT(iteragpu::memory::name_of(phase) << (repeat ? " " + std::to_string(*repeat) : std::string{})) {
    BOOST_TEST((row.phase == phase));
    BOOST_TEST((row.repeat == repeat));
    BOOST_TEST(row.baseline_allocated_bytes == b.base_alloc);
    BOOST_TEST(row.baseline_reserved_bytes == b.base_resv);
    BOOST_TEST(row.end_allocated_bytes == b.end_alloc);
    BOOST_TEST(row.end_reserved_bytes == b.end_resv);
    BOOST_TEST(row.peak_allocated_bytes == b.peak_alloc);
    BOOST_TEST(row.peak_reserved_bytes == b.peak_resv);
    BOOST_TEST(row.seconds == 0.0);
    BOOST_TEST(row.gpu_seconds == 0.0);
  }
}

void check_prediction(const synthetic_shape& shape, element_type dtype, const protocol_plan& plan,
                      const expected_run& expected, const blas_workspaces& workspaces = h200_pytorch_2_11) {
  const auto predicted = predict_synthetic(shape, dtype, workspaces, plan);
  BOOST_REQUIRE(predicted.has_value());
  const std::vector<phase_row>& rows = *predicted;
  BOOST_REQUIRE(rows.size() == 4 + plan.repeats);
  check_row(rows[0], phase_kind::model_load, std::nullopt, expected.model_load);
  check_row(rows[1], phase_kind::inputs, std::nullopt, expected.inputs);
  check_row(rows[2], phase_kind::cold_forward, std::nullopt, expected.cold_forward);
  check_row(rows[3], phase_kind::warmup, std::nullopt, expected.warm);
  for (std::uint64_t r = 0; r < plan.repeats; ++r) {
    check_row(rows[4 + r], phase_kind::warm_forward, r, expected.warm);
  }
}

constexpr protocol_plan two_and_two{2, 2};

simulated_tensor tensor(caching_allocator& a, std::uint64_t bytes) {
  const auto block = a.allocate(byte_count{bytes});
  BOOST_REQUIRE(block.has_value());
  return {a, *block};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(synthetic_prediction)

// ---- The four configurations measured on the H200 through mesure_memoire.

// 1x16x64 float32. W = 256.64.4 = 65,536 (small), b1 = 1,024, b2 = 256 ->
// 512: one 2 MiB small segment, 132,608 allocated. X = 16.64.4 = 4,096 in
// it: 136,704. A = 16.256.4 = 16,384, small; ws; A2 small; peak = 136,704
// + 2 x 16,384 + 34,603,008 = 34,772,480. O = 4,096 is cut from A1's
// freed block: end = 136,704 + 34,603,008 + 4,096 = 34,743,808; reserved
// 2 MiB + 32 MiB = 35,651,584. Warm baseline 136,704 + 34,603,008.
BOOST_AUTO_TEST_CASE(measured_1x16x64_float32_is_predicted_in_every_row) {
  check_prediction({1, 16, 64}, f32, {1, 2},
                   {{0, 0, 132608, 2097152, 132608, 2097152},
                    {132608, 2097152, 136704, 2097152, 136704, 2097152},
                    {136704, 2097152, 34743808, 35651584, 34772480, 35651584},
                    {34739712, 35651584, 34743808, 35651584, 34772480, 35651584}});
}

// 2x128x1024 float32. W = 4096.1024.4 = 16 MiB: two segments of their own;
// b1 = 16,384 and b2 = 4,096 in a small segment: 33,574,912 allocated,
// 34 MiB reserved. X = 256.1024.4 = 1 MiB exactly: small, in the same
// segment (2,076,672 free). A = 256.4096.4 = 4 MiB: a 20 MiB segment,
// split; ws: the 1 MiB cuBLASLt block no longer fits the first small
// segment (1,028,096 left): a second one; A2 from the 16 MiB rest; peak =
// 34,623,488 + 8 MiB + 34,603,008 = 77,615,104. O = 1 MiB fills the second
// small segment's rest exactly. End 34,623,488 + 34,603,008 + 1 MiB =
// 70,275,072; reserved 34 + 20 + 32 + 2 MiB = 92,274,688.
BOOST_AUTO_TEST_CASE(measured_2x128x1024_float32_is_predicted_in_every_row) {
  check_prediction({2, 128, 1024}, f32, {3, 5},
                   {{0, 0, 33574912, 35651584, 33574912, 35651584},
                    {33574912, 35651584, 34623488, 35651584, 34623488, 35651584},
                    {34623488, 35651584, 70275072, 92274688, 77615104, 92274688},
                    {69226496, 92274688, 70275072, 92274688, 77615104, 92274688}});
}

// 4x2048x4096 float16. W = 16384.4096.2 = 128 MiB each, own segments;
// b1 = 32,768, b2 = 8,192 small: 268,476,416 allocated, 258 MiB reserved.
// X = 8192.4096.2 = 64 MiB, own segment. A = 8192.16384.2 = 256 MiB, own;
// ws; A2 256 MiB, own; peak = 335,585,280 + 512 MiB + 34,603,008 =
// 907,059,200. O = 64 MiB is cut from A1's freed 256 MiB block. End
// 335,585,280 + 34,603,008 + 64 MiB = 437,297,152; reserved 337,641,472
// + 256 + 32 + 256 MiB = 908,066,816.
BOOST_AUTO_TEST_CASE(measured_4x2048x4096_float16_is_predicted_in_every_row) {
  check_prediction({4, 2048, 4096}, f16, {3, 5},
                   {{0, 0, 268476416, 270532608, 268476416, 270532608},
                    {268476416, 270532608, 335585280, 337641472, 335585280, 337641472},
                    {335585280, 337641472, 437297152, 908066816, 907059200, 908066816},
                    {370188288, 908066816, 437297152, 908066816, 907059200, 908066816}});
}

// 8x4096x8192 bfloat16. W = 32768.8192.2 = 512 MiB each, own segments;
// b1 = 65,536, b2 = 16,384 in a small segment: 1,073,823,744 allocated,
// 1,075,838,976 reserved. X = 512 MiB. A = 2 GiB; ws (the 1 MiB block
// fits the small segment); A2 = 2 GiB; peak = 1,610,694,656 + 34,603,008
// + 4 GiB = 5,940,264,960. O = 512 MiB cut from A1's freed block: end
// 1,645,297,664 + 512 MiB = 2,182,168,576; reserved 1,612,709,888 + 4 GiB
// + 32 MiB = 5,941,231,616.
BOOST_AUTO_TEST_CASE(measured_8x4096x8192_bfloat16_is_predicted_in_every_row) {
  check_prediction({8, 4096, 8192}, bf16, {3, 5},
                   {{0, 0, 1073823744, 1075838976, 1073823744, 1075838976},
                    {1073823744, 1075838976, 1610694656, 1612709888, 1610694656, 1612709888},
                    {1610694656, 1612709888, 2182168576, 5941231616, 5940264960, 5941231616},
                    {1645297664, 5941231616, 2182168576, 5941231616, 5940264960, 5941231616}});
}

// ---- One row, width 1, and sizes that are not multiples of 512.

// 1x1x64 float32: one row still takes the cuBLASLt path (mat2 is 64 x 256).
// As 1x16x64 for the model (132,608); X = 256 -> 512: 133,120. A = 1,024
// (twice) + ws: peak 133,120 + 2,048 + 34,603,008 = 34,738,176; O = 512
// cut from A1's block: end 133,120 + 34,603,008 + 512 = 34,736,640.
BOOST_AUTO_TEST_CASE(a_single_row_allocates_both_workspaces) {
  check_prediction({1, 1, 64}, f32, two_and_two,
                   {{0, 0, 132608, 2097152, 132608, 2097152},
                    {132608, 2097152, 133120, 2097152, 133120, 2097152},
                    {133120, 2097152, 34736640, 35651584, 34738176, 35651584},
                    {34736128, 35651584, 34736640, 35651584, 34738176, 35651584}});
}

// 1x1x1 float32: every tensor (16, 16, 16, 4 bytes; X = 4; A = 16) is one
// 512-byte block: model 2,048, input 2,560. mat2 is 1 x 4: no cuBLASLt,
// only the 32 MiB cuBLAS workspace. Peak 2,560 + 1,024 + 33,554,432 =
// 33,558,016; O takes A1's 512 bytes: end 2,560 + 33,554,432 + 512.
BOOST_AUTO_TEST_CASE(a_width_of_one_allocates_the_cublas_workspace_only) {
  check_prediction({1, 1, 1}, f32, two_and_two,
                   {{0, 0, 2048, 2097152, 2048, 2097152},
                    {2048, 2097152, 2560, 2097152, 2560, 2097152},
                    {2560, 2097152, 33557504, 35651584, 33558016, 35651584},
                    {33556992, 35651584, 33557504, 35651584, 33558016, 35651584}});
}

// 2x3x1 bfloat16: W = 8, b1 = 8, b2 = 2, X = 12, A = 48 bytes: all 512,
// width 1: the same bytes as 1x1x1 float32.
BOOST_AUTO_TEST_CASE(tiny_bfloat16_tensors_each_take_one_512_byte_block) {
  check_prediction({2, 3, 1}, bf16, two_and_two,
                   {{0, 0, 2048, 2097152, 2048, 2097152},
                    {2048, 2097152, 2560, 2097152, 2560, 2097152},
                    {2560, 2097152, 33557504, 35651584, 33558016, 35651584},
                    {33556992, 35651584, 33557504, 35651584, 33558016, 35651584}});
}

// 3x5x7 float32: W = 28.7.4 = 784 -> 1,024; b1 = 112 -> 512; b2 = 28 ->
// 512: 3,072. X = 15.7.4 = 420 -> 512: 3,584. A = 15.28.4 = 1,680 ->
// 2,048: peak 3,584 + 4,096 + 34,603,008 = 34,610,688; O 512 from A1's
// block: end 3,584 + 34,603,008 + 512 = 34,607,104.
BOOST_AUTO_TEST_CASE(odd_float32_sizes_are_rounded_to_512_bytes) {
  check_prediction({3, 5, 7}, f32, two_and_two,
                   {{0, 0, 3072, 2097152, 3072, 2097152},
                    {3072, 2097152, 3584, 2097152, 3584, 2097152},
                    {3584, 2097152, 34607104, 35651584, 34610688, 35651584},
                    {34606592, 35651584, 34607104, 35651584, 34610688, 35651584}});
}

// 3x7x100 float16: W = 400.100.2 = 80,000 -> 80,384; b1 = 800 -> 1,024;
// b2 = 200 -> 512: 162,304. X = 21.100.2 = 4,200 -> 4,608: 166,912.
// A = 21.400.2 = 16,800 -> 16,896: peak 166,912 + 33,792 + 34,603,008 =
// 34,803,712; end 166,912 + 34,603,008 + 4,608 = 34,774,528.
BOOST_AUTO_TEST_CASE(odd_float16_sizes_are_rounded_to_512_bytes) {
  check_prediction({3, 7, 100}, f16, two_and_two,
                   {{0, 0, 162304, 2097152, 162304, 2097152},
                    {162304, 2097152, 166912, 2097152, 166912, 2097152},
                    {166912, 2097152, 34774528, 35651584, 34803712, 35651584},
                    {34769920, 35651584, 34774528, 35651584, 34803712, 35651584}});
}

// 1x2x2 float16: width 2 is enough for the cuBLASLt path. W = 32, b1 = 16,
// b2 = 4, X = 8, A = 32 bytes: 512 each. Peak 2,560 + 1,024 + 34,603,008.
BOOST_AUTO_TEST_CASE(a_width_of_two_takes_the_cublaslt_path) {
  check_prediction({1, 2, 2}, f16, two_and_two,
                   {{0, 0, 2048, 2097152, 2048, 2097152},
                    {2048, 2097152, 2560, 2097152, 2560, 2097152},
                    {2560, 2097152, 34606080, 35651584, 34606592, 35651584},
                    {34605568, 35651584, 34606080, 35651584, 34606592, 35651584}});
}

// ---- Activations around 1 MiB (the small pool's largest block).

// 1x512x128 float32: W = 512.128.4 = 262,144, b1 = 2,048, b2 = 512:
// 526,848; X = 262,144: 788,992 in one small segment. A = 512.512.4 =
// 1 MiB exactly: small, fits (1,308,160 free, 259,584 left); ws: the
// cuBLASLt MiB needs a second small segment; A2 fills its 1 MiB rest. Peak
// 788,992 + 2 MiB + 34,603,008 = 37,489,152. A1 freed merges with the
// 259,584 rest; O = 262,144 is cut from it. End 788,992 + 34,603,008 +
// 262,144 = 35,654,144; reserved 2 + 32 + 2 MiB = 37,748,736.
BOOST_AUTO_TEST_CASE(an_activation_of_exactly_one_mebibyte_stays_in_the_small_pool) {
  check_prediction({1, 512, 128}, f32, two_and_two,
                   {{0, 0, 526848, 2097152, 526848, 2097152},
                    {526848, 2097152, 788992, 2097152, 788992, 2097152},
                    {788992, 2097152, 35654144, 37748736, 37489152, 37748736},
                    {35392000, 37748736, 35654144, 37748736, 37489152, 37748736}});
}

// 1x511x128 float32: X = 511.128.4 = 261,632: 788,480. A = 511.512.4 =
// 1,046,528 (just under 1 MiB): small, in the first segment (262,144
// left); cuBLASLt opens a second small segment; A2 from its 1 MiB rest,
// 2,048 split off. Peak 788,480 + 2,093,056 + 34,603,008 = 37,484,544;
// end 788,480 + 34,603,008 + 261,632 = 35,653,120.
BOOST_AUTO_TEST_CASE(an_activation_just_under_one_mebibyte_stays_in_the_small_pool) {
  check_prediction({1, 511, 128}, f32, two_and_two,
                   {{0, 0, 526848, 2097152, 526848, 2097152},
                    {526848, 2097152, 788480, 2097152, 788480, 2097152},
                    {788480, 2097152, 35653120, 37748736, 37484544, 37748736},
                    {35391488, 37748736, 35653120, 37748736, 37484544, 37748736}});
}

// 1x513x128 float32: X = 262,656: 789,504. A = 513.512.4 = 1,050,624:
// large, a 20 MiB segment; cuBLASLt fits the small segment (1,307,648
// free); A2 from the 20 MiB rest. Peak 789,504 + 2,101,248 + 34,603,008
// = 37,493,760. O = 262,656 no longer fits the small segment's 259,072
// rest: a second small segment. End 789,504 + 34,603,008 + 262,656 =
// 35,655,168; reserved 2 + 20 + 32 + 2 MiB = 58,720,256.
BOOST_AUTO_TEST_CASE(an_activation_just_over_one_mebibyte_goes_to_the_large_pool) {
  check_prediction({1, 513, 128}, f32, two_and_two,
                   {{0, 0, 526848, 2097152, 526848, 2097152},
                    {526848, 2097152, 789504, 2097152, 789504, 2097152},
                    {789504, 2097152, 35655168, 58720256, 37493760, 58720256},
                    {35392512, 58720256, 35655168, 58720256, 37493760, 58720256}});
}

// ---- Weights around 1 MiB.

// 1x7x362 bfloat16: W = 1448.362.2 = 1,048,352 -> 1,048,576: small. W1
// opens small segment 1 (1 MiB left), b1 = 2,896 -> 3,072 from it; W2
// does not fit the rest: small segment 2; b2 = 724 -> 1,024 takes the
// smaller rest (segment 1). 2,101,248 allocated, 4 MiB reserved. X =
// 5,068 -> 5,120: 2,106,368. A = 20,272 -> 20,480 in segment 1; the
// cuBLASLt MiB fills segment 2's rest exactly; peak 2,106,368 + 40,960 +
// 34,603,008 = 36,750,336; end 2,106,368 + 34,603,008 + 5,120.
BOOST_AUTO_TEST_CASE(weights_of_one_mebibyte_after_rounding_stay_in_the_small_pool) {
  check_prediction({1, 7, 362}, bf16, two_and_two,
                   {{0, 0, 2101248, 4194304, 2101248, 4194304},
                    {2101248, 4194304, 2106368, 4194304, 2106368, 4194304},
                    {2106368, 4194304, 36714496, 37748736, 36750336, 37748736},
                    {36709376, 37748736, 36714496, 37748736, 36750336, 37748736}});
}

// 1x7x363 bfloat16: W = 1452.363.2 = 1,054,152 -> 1,054,208: large; both
// weights share one 20 MiB segment; b1 = 3,072 and b2 = 1,024 small:
// 2,112,512 allocated, 22 MiB reserved. X = 5,120; A = 20,328 -> 20,480;
// the cuBLASLt MiB fits the small segment. Peak 2,117,632 + 40,960 +
// 34,603,008 = 36,761,600; end 2,117,632 + 34,603,008 + 5,120 =
// 36,725,760; reserved 22 + 32 MiB = 56,623,104.
BOOST_AUTO_TEST_CASE(weights_just_over_one_mebibyte_share_a_large_segment) {
  check_prediction({1, 7, 363}, bf16, two_and_two,
                   {{0, 0, 2112512, 23068672, 2112512, 23068672},
                    {2112512, 23068672, 2117632, 23068672, 2117632, 23068672},
                    {2117632, 23068672, 36725760, 56623104, 36761600, 56623104},
                    {36720640, 56623104, 36725760, 56623104, 36761600, 56623104}});
}

// ---- Activations around 10 MiB (the smallest segment of its own).

// Common to the three: w = 640, W = 2560.640.4 = 6,553,600 (large, under
// 10 MiB): W1 opens a 20 MiB segment, W2 is cut from its 14,417,920 rest
// (7,864,320 left); b1 = 10,240, b2 = 2,560 small: 13,120,000 allocated,
// 22 MiB reserved. X is cut from the 7,864,320 rest.

// 1x1023x640 float32: X = 2,618,880: 15,738,880. A = 10,475,520, under
// 10 MiB: a new 20 MiB segment, 10,496,000 split off; ws; A2 takes that
// rest whole (20,480 over is not split off: 10,496,000 counted). Peak
// 15,738,880 + 10,475,520 + 34,603,008 + 10,496,000 = 71,313,408. O =
// 2,618,880 from the first segment's 5,245,440 rest. End 15,738,880 +
// 34,603,008 + 2,618,880 = 52,960,768; reserved 22 + 20 + 32 MiB =
// 77,594,624.
BOOST_AUTO_TEST_CASE(an_activation_just_under_ten_mebibytes_shares_a_twenty_mebibyte_segment) {
  check_prediction({1, 1023, 640}, f32, two_and_two,
                   {{0, 0, 13120000, 23068672, 13120000, 23068672},
                    {13120000, 23068672, 15738880, 23068672, 15738880, 23068672},
                    {15738880, 23068672, 52960768, 77594624, 71313408, 77594624},
                    {50341888, 77594624, 52960768, 77594624, 71313408, 77594624}});
}

// 1x1024x640 float32: X = 2,621,440: 15,741,440. A = 10 MiB exactly: a
// 10 MiB segment of its own, twice. Peak 15,741,440 + 20 MiB + 34,603,008
// = 71,315,968. O from the first segment's 5,242,880 rest. End 15,741,440
// + 34,603,008 + 2,621,440 = 52,965,888; reserved 22 + 10 + 10 + 32 MiB.
BOOST_AUTO_TEST_CASE(an_activation_of_exactly_ten_mebibytes_gets_a_segment_of_its_own) {
  check_prediction({1, 1024, 640}, f32, two_and_two,
                   {{0, 0, 13120000, 23068672, 13120000, 23068672},
                    {13120000, 23068672, 15741440, 23068672, 15741440, 23068672},
                    {15741440, 23068672, 52965888, 77594624, 71315968, 77594624},
                    {50344448, 77594624, 52965888, 77594624, 71315968, 77594624}});
}

// 1x1025x640 float32: X = 2,624,000: 15,744,000. A = 10,496,000: a 12 MiB
// segment (2,086,912 split off), twice. Peak 15,744,000 + 20,992,000 +
// 34,603,008 = 71,339,008. O from the first segment's 5,240,320 rest. End
// 15,744,000 + 34,603,008 + 2,624,000 = 52,971,008; reserved 22 + 12 + 12
// + 32 MiB = 81,788,928.
BOOST_AUTO_TEST_CASE(an_activation_just_over_ten_mebibytes_is_rounded_up_to_two_mebibytes) {
  check_prediction({1, 1025, 640}, f32, two_and_two,
                   {{0, 0, 13120000, 23068672, 13120000, 23068672},
                    {13120000, 23068672, 15744000, 23068672, 15744000, 23068672},
                    {15744000, 23068672, 52971008, 81788928, 71339008, 81788928},
                    {50347008, 81788928, 52971008, 81788928, 71339008, 81788928}});
}

// ---- Mixed sizes.

// 2x1000x300 bfloat16: W = 1200.300.2 = 720,000 -> 720,384 (small, both in
// one segment with b1 = 2,560 and b2 = 1,024): 1,444,352. X = 1,200,000 ->
// 1,200,128: large, a 20 MiB segment: 2,644,480, 22 MiB reserved. A =
// 4,800,000 twice from the 19,771,392 rest; ws (the cuBLASLt MiB opens a
// second small segment, 652,800 being left in the first). Peak 2,644,480
// + 9,600,000 + 34,603,008 = 46,847,488; O from A1's block (3,599,872
// split off). End 2,644,480 + 34,603,008 + 1,200,128 = 38,447,616;
// reserved 22 + 32 + 2 MiB = 58,720,256.
BOOST_AUTO_TEST_CASE(bfloat16_with_small_weights_and_a_large_input) {
  check_prediction({2, 1000, 300}, bf16, two_and_two,
                   {{0, 0, 1444352, 2097152, 1444352, 2097152},
                    {1444352, 2097152, 2644480, 23068672, 2644480, 23068672},
                    {2644480, 23068672, 38447616, 58720256, 46847488, 58720256},
                    {37247488, 58720256, 38447616, 58720256, 46847488, 58720256}});
}

// 5x333x257 float16: W = 1028.257.2 = 528,392 -> 528,896 (small); b1 =
// 2,056 -> 2,560; b2 = 514 -> 1,024: 1,061,376. X = 1665.257.2 = 855,810
// -> 856,064, small, same segment (179,712 left): 1,917,440. A =
// 3,423,240 -> 3,423,744: a 20 MiB segment; the cuBLASLt MiB opens a
// second small segment. Peak 1,917,440 + 6,847,488 + 34,603,008 =
// 43,367,936; O = 856,064 from the second small segment's 1 MiB rest. End
// 1,917,440 + 34,603,008 + 856,064 = 37,376,512; reserved 2 + 20 + 32 + 2
// MiB.
BOOST_AUTO_TEST_CASE(float16_sizes_that_are_not_multiples_of_512) {
  check_prediction({5, 333, 257}, f16, two_and_two,
                   {{0, 0, 1061376, 2097152, 1061376, 2097152},
                    {1061376, 2097152, 1917440, 2097152, 1917440, 2097152},
                    {1917440, 2097152, 37376512, 58720256, 43367936, 58720256},
                    {36520448, 58720256, 37376512, 58720256, 43367936, 58720256}});
}

// 4x1024x2048 float32: W = 8192.2048.4 = 64 MiB each; b1 = 32,768, b2 =
// 8,192: 134,258,688, 130 MiB reserved. X = 32 MiB: 167,813,120. A = 128
// MiB, twice, own segments. Peak 167,813,120 + 256 MiB + 34,603,008 =
// 470,851,584. O = 32 MiB from A1's block. End 167,813,120 + 34,603,008 +
// 32 MiB = 235,970,560; reserved 162 + 128 + 32 + 128 MiB = 471,859,200.
BOOST_AUTO_TEST_CASE(float32_with_segments_of_their_own) {
  check_prediction({4, 1024, 2048}, f32, two_and_two,
                   {{0, 0, 134258688, 136314880, 134258688, 136314880},
                    {134258688, 136314880, 167813120, 169869312, 167813120, 169869312},
                    {167813120, 169869312, 235970560, 471859200, 470851584, 471859200},
                    {202416128, 471859200, 235970560, 471859200, 470851584, 471859200}});
}

// 16x77x1536 float16: W = 6144.1536.2 = 18 MiB each, own; b1 = 12,288, b2
// = 3,072: 37,764,096, 38 MiB reserved. X = 1232.1536.2 = 3,784,704: a 20
// MiB segment: 41,548,800. A = 15,138,816 fits that segment's 17,186,816
// rest (2,048,000 split off); ws; A2 needs a 16 MiB segment (1,638,400
// split off). Peak 41,548,800 + 30,277,632 + 34,603,008 = 106,429,440. O
// from the 17,186,816 block A1 leaves when freed. End 41,548,800 +
// 34,603,008 + 3,784,704 = 79,936,512; reserved 58 + 32 + 16 MiB.
BOOST_AUTO_TEST_CASE(an_activation_reuses_the_rest_of_the_input_segment) {
  check_prediction({16, 77, 1536}, f16, two_and_two,
                   {{0, 0, 37764096, 39845888, 37764096, 39845888},
                    {37764096, 39845888, 41548800, 60817408, 41548800, 60817408},
                    {41548800, 60817408, 79936512, 111149056, 106429440, 111149056},
                    {76151808, 111149056, 79936512, 111149056, 106429440, 111149056}});
}

// 2x100x1000 float32: W = 4000.1000.4 = 16,000,000: a 16 MiB segment whose
// 777,216 rest is not split off, so each weight counts 16,777,216: with
// b1 = 16,384 and b2 = 4,096, 33,574,912 allocated. X = 800,000 ->
// 800,256, small: 34,375,168. A = 3,200,000 twice from a 20 MiB segment;
// the cuBLASLt MiB fits the small segment (1,276,416 free). Peak
// 34,375,168 + 6,400,000 + 34,603,008 = 75,378,176. O = 800,256 no longer
// fits the small segment (227,840 left): a second one. End 34,375,168 +
// 34,603,008 + 800,256 = 69,778,432; reserved 34 + 20 + 32 + 2 MiB.
BOOST_AUTO_TEST_CASE(a_weight_whose_rest_is_under_a_mebibyte_is_counted_whole) {
  check_prediction({2, 100, 1000}, f32, two_and_two,
                   {{0, 0, 33574912, 35651584, 33574912, 35651584},
                    {33574912, 35651584, 34375168, 35651584, 34375168, 35651584},
                    {34375168, 35651584, 69778432, 92274688, 75378176, 92274688},
                    {68978176, 92274688, 69778432, 92274688, 75378176, 92274688}});
}

// 2x2048x1280 bfloat16: W = 5120.1280.2 = 13,107,200: 14 MiB segments of
// their own (1,572,864 split off, too small for the other weight); b1 =
// 10,240, b2 = 2,560: 26,227,200, 30 MiB reserved. X = 4096.1280.2 = 10
// MiB exactly, own segment: 36,712,960. A = 40 MiB twice. Peak 36,712,960
// + 80 MiB + 34,603,008 = 155,202,048; O = 10 MiB from A1's block. End
// 36,712,960 + 34,603,008 + 10 MiB = 81,801,728; reserved 40 + 40 + 32 +
// 40 MiB = 159,383,552.
BOOST_AUTO_TEST_CASE(an_input_of_exactly_ten_mebibytes_gets_a_segment_of_its_own) {
  check_prediction({2, 2048, 1280}, bf16, two_and_two,
                   {{0, 0, 26227200, 31457280, 26227200, 31457280},
                    {26227200, 31457280, 36712960, 41943040, 36712960, 41943040},
                    {36712960, 41943040, 81801728, 159383552, 155202048, 159383552},
                    {71315968, 159383552, 81801728, 159383552, 155202048, 159383552}});
}

// 3x1x4096 float32: W = 16384.4096.4 = 256 MiB each; b1 = 65,536, b2 =
// 16,384: 536,952,832. X = 3.4096.4 = 49,152, A = 196,608: all small, in
// the first small segment with the cuBLASLt MiB. Peak 537,001,984 +
// 393,216 + 34,603,008 = 571,998,208; end 537,001,984 + 34,603,008 +
// 49,152 = 571,654,144; reserved 514 + 32 MiB = 572,522,496.
BOOST_AUTO_TEST_CASE(large_weights_with_small_activations) {
  check_prediction({3, 1, 4096}, f32, two_and_two,
                   {{0, 0, 536952832, 538968064, 536952832, 538968064},
                    {536952832, 538968064, 537001984, 538968064, 537001984, 538968064},
                    {537001984, 538968064, 571654144, 572522496, 571998208, 572522496},
                    {571604992, 572522496, 571654144, 572522496, 571998208, 572522496}});
}

// 1x1x4096 bfloat16: W = 128 MiB each; b1 = 32,768, b2 = 8,192:
// 268,476,416. X = 8,192, A = 32,768, small. Peak 268,484,608 + 65,536 +
// 34,603,008 = 303,153,152; end 268,484,608 + 34,603,008 + 8,192.
BOOST_AUTO_TEST_CASE(one_row_of_a_wide_bfloat16_network) {
  check_prediction({1, 1, 4096}, bf16, two_and_two,
                   {{0, 0, 268476416, 270532608, 268476416, 270532608},
                    {268476416, 270532608, 268484608, 270532608, 268484608, 270532608},
                    {268484608, 270532608, 303095808, 304087040, 303153152, 304087040},
                    {303087616, 304087040, 303095808, 304087040, 303153152, 304087040}});
}

// ---- Other workspace sizes (measured with CUBLAS_WORKSPACE_CONFIG set).

// A total of 1 MiB splits into 512 KiB + 512 KiB (LibTorch caps the
// cuBLASLt workspace at the cuBLAS one): both fit 1x16x64's small segment,
// nothing more is reserved. Peak 136,704 + 32,768 + 1 MiB = 1,218,048;
// end 136,704 + 1 MiB + 4,096 = 1,189,376.
BOOST_AUTO_TEST_CASE(a_one_mebibyte_workspace_total_fits_the_small_segment) {
  check_prediction({1, 16, 64}, f32, two_and_two,
                   {{0, 0, 132608, 2097152, 132608, 2097152},
                    {132608, 2097152, 136704, 2097152, 136704, 2097152},
                    {136704, 2097152, 1189376, 2097152, 1218048, 2097152},
                    {1185280, 2097152, 1189376, 2097152, 1218048, 2097152}},
                   split_workspace_total(byte_count{1048576}));
}

// 9 MiB = 8 MiB cuBLAS (CUBLAS_WORKSPACE_CONFIG=:4096:2) + 1 MiB, on
// 2x128x1024 float32: A1 = 4 MiB opens a 20 MiB segment; the 8 MiB
// cuBLAS workspace (under 10 MiB, large) is cut from its 16 MiB rest; the
// cuBLASLt MiB opens a second small segment; A2 from the 8 MiB left. Peak
// 34,623,488 + 4 + 8 + 1 + 4 MiB = 52,449,280; end 34,623,488 + 9 MiB +
// 1 MiB = 45,109,248; reserved 34 + 20 + 2 MiB = 58,720,256.
BOOST_AUTO_TEST_CASE(a_cublas_workspace_under_ten_mebibytes_shares_a_large_segment) {
  check_prediction({2, 128, 1024}, f32, two_and_two,
                   {{0, 0, 33574912, 35651584, 33574912, 35651584},
                    {33574912, 35651584, 34623488, 35651584, 34623488, 35651584},
                    {34623488, 35651584, 45109248, 58720256, 52449280, 58720256},
                    {44060672, 58720256, 45109248, 58720256, 52449280, 58720256}},
                   split_workspace_total(byte_count{std::uint64_t{9} << 20U}));
}

// ---- The plan's warm-up and repeats.

// No warm-up pass: the warmup row reads the baseline everywhere; no
// repeats: no warm_forward row.
BOOST_AUTO_TEST_CASE(a_warmup_of_no_pass_reads_its_baseline_and_no_repeat_adds_no_row) {
  const auto predicted = predict_synthetic({1, 16, 64}, f32, h200_pytorch_2_11, {0, 0});
  BOOST_REQUIRE(predicted.has_value());
  BOOST_REQUIRE(predicted->size() == 4U);
  check_row((*predicted)[3], phase_kind::warmup, std::nullopt,
            {34739712, 35651584, 34739712, 35651584, 34739712, 35651584});
}

// ---- Out of memory on a device of a given capacity (measured on the H200
// with set_per_process_memory_fraction, which caps the reserved bytes the
// same way), 8x4096x8192 bfloat16.

// 1,200,000,000 bytes: the weights reserve 1,075,838,976; the 512 MiB
// input would make 1,612,709,888: inputs fails.
BOOST_AUTO_TEST_CASE(the_input_that_passes_the_capacity_fails_the_inputs_phase) {
  const auto predicted = predict_synthetic({8, 4096, 8192}, bf16, h200_pytorch_2_11, {3, 5}, byte_count{1'200'000'000});
  BOOST_REQUIRE(!predicted.has_value());
  BOOST_TEST((predicted.error().phase == phase_kind::inputs));
  BOOST_TEST(predicted.error().message.find("536870912") != std::string::npos);
  BOOST_TEST(predicted.error().message.find("1075838976") != std::string::npos);
}

// One byte under the measured peak reserved (5,941,231,616): A1 (2 GiB)
// and the workspace fit (3,793,747,968 reserved), A2 does not.
BOOST_AUTO_TEST_CASE(one_byte_under_the_peak_reserved_fails_the_cold_forward) {
  const auto predicted = predict_synthetic({8, 4096, 8192}, bf16, h200_pytorch_2_11, {3, 5}, byte_count{5'941'231'615});
  BOOST_REQUIRE(!predicted.has_value());
  BOOST_TEST((predicted.error().phase == phase_kind::cold_forward));
  BOOST_TEST(predicted.error().message.find("2147483648") != std::string::npos);
  BOOST_TEST(predicted.error().message.find("3793747968") != std::string::npos);
}

// Exactly the peak reserved: every row, as without a capacity.
BOOST_AUTO_TEST_CASE(a_capacity_equal_to_the_peak_reserved_is_enough) {
  const auto capped = predict_synthetic({8, 4096, 8192}, bf16, h200_pytorch_2_11, {3, 5}, byte_count{5'941'231'616});
  const auto unbounded = predict_synthetic({8, 4096, 8192}, bf16, h200_pytorch_2_11, {3, 5});
  BOOST_REQUIRE(capped.has_value());
  BOOST_REQUIRE(unbounded.has_value());
  BOOST_TEST(capped->size() == 9U);
  for (std::size_t i = 0; i < capped->size(); ++i) {
    BOOST_TEST((*capped)[i].peak_reserved_bytes == (*unbounded)[i].peak_reserved_bytes);
    BOOST_TEST((*capped)[i].end_allocated_bytes == (*unbounded)[i].end_allocated_bytes);
  }
}

// A tensor of 2^60 bytes or more is refused by the allocator itself, with
// no capacity: 2^29 x 2^28 = 2^57 rows of width 1 in float32 make the
// input 2^57 x 4 = 2^59 bytes (allocated) and A 2^57 x 4 x 4 = 2^61: the
// cold pass fails.
BOOST_AUTO_TEST_CASE(an_activation_of_an_exbibyte_fails_its_phase_without_a_capacity) {
  const auto predicted =
      predict_synthetic({std::uint64_t{1} << 29U, std::uint64_t{1} << 28U, 1}, f32, h200_pytorch_2_11, {0, 1});
  BOOST_REQUIRE(!predicted.has_value());
  BOOST_TEST((predicted.error().phase == phase_kind::cold_forward));
  BOOST_TEST(predicted.error().message.find("2^60") != std::string::npos);
}

// ---- Shapes that cannot be built.

BOOST_AUTO_TEST_CASE(a_zero_dimension_is_refused_before_any_phase) {
  for (const synthetic_shape shape : {synthetic_shape{0, 1, 1}, synthetic_shape{1, 0, 1}, synthetic_shape{1, 1, 0}}) {
    const auto predicted = predict_synthetic(shape, f32, h200_pytorch_2_11, {1, 1});
    BOOST_REQUIRE(!predicted.has_value());
    BOOST_TEST(!predicted.error().phase.has_value());
    BOOST_TEST(predicted.error().message == "batch, context and width must be positive");
  }
}

BOOST_AUTO_TEST_CASE(a_shape_past_64_bits_of_bytes_is_refused_before_any_phase) {
  const auto predicted =
      predict_synthetic({1, 1, std::uint64_t{1} << 40U}, f32, h200_pytorch_2_11, {1, 1});  // W = 2^82 bytes
  BOOST_REQUIRE(!predicted.has_value());
  BOOST_TEST(!predicted.error().phase.has_value());
  BOOST_TEST(predicted.error().message == "the model or its activations would take more than 2^63-1 bytes");
}

// ---- The policy objects.

BOOST_AUTO_TEST_CASE(a_moved_tensor_frees_its_block_once_when_its_last_owner_goes) {
  caching_allocator a;
  std::optional<simulated_tensor> second;
  {
    simulated_tensor first = tensor(a, 4096);
    second.emplace(std::move(first));
  }  // the moved-from tensor goes: it holds nothing
  BOOST_TEST(a.statistics().allocated.value == 4096U);
  second.reset();
  BOOST_TEST(a.statistics().allocated.value == 0U);
}

BOOST_AUTO_TEST_CASE(assigning_to_a_tensor_frees_the_block_it_held) {
  caching_allocator a;
  simulated_tensor held = tensor(a, 4096);
  // cppcheck-suppress redundantInitialization ; the first block is the point
  held = tensor(a, 1024);
  BOOST_TEST(a.statistics().allocated.value == 1024U);
  BOOST_TEST(a.statistics().peak_allocated.value == 5120U);
}

// The counter reads the allocator's four figures in allocator_reading's
// order; a reset sets both peaks to the current values.
BOOST_AUTO_TEST_CASE(the_counter_reads_and_resets_the_simulated_allocator) {
  caching_allocator a;
  simulated_counter counter(a);
  const simulated_tensor kept = tensor(a, 1024);
  static_cast<void>(tensor(a, 12 << 20));
  BOOST_TEST((counter.read(device_index{0}) == allocator_reading{1024, (2 + 12) << 20, 1024 + (12 << 20), 14 << 20}));
  counter.reset_peaks(device_index{0});
  BOOST_TEST((counter.read(device_index{3}) == allocator_reading{1024, 14 << 20, 1024, 14 << 20}));
}

BOOST_AUTO_TEST_CASE(the_backend_times_nothing) {
  simulated_backend backend;
  backend.synchronize(device_index{0});
  auto timer = backend.make_timer(device_index{0});
  timer.start();
  timer.stop();
  BOOST_TEST(timer.elapsed_seconds() == 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
