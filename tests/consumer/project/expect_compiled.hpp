// Included after the library's headers: with CONSUMER_EXPECT_SEPARATE (the
// consumer built against a compiled-once library), the program must see
// declarations only.
#ifndef CONSUMER_EXPECT_COMPILED_HPP
#define CONSUMER_EXPECT_COMPILED_HPP
#ifdef CONSUMER_EXPECT_SEPARATE
#ifndef ITERAGPU_SEPARATE_COMPILATION
#error "linked to a compiled-once library, yet ITERAGPU_SEPARATE_COMPILATION is not defined"
#endif
#ifdef ITERAGPU_MEMORY_IMPL_ESTIMATE_IPP
#error "the estimate's bodies reached a program that links them compiled"
#endif
#endif
#endif  // CONSUMER_EXPECT_COMPILED_HPP
