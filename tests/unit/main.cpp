#define BOOST_TEST_MODULE iteragpu
#include <boost/test/unit_test.hpp>
