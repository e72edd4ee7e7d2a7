#define BOOST_TEST_MODULE iteragpu_cli_torch
#include <boost/test/unit_test.hpp>
