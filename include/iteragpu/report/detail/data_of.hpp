#ifndef ITERAGPU_REPORT_DETAIL_DATA_OF_HPP
#define ITERAGPU_REPORT_DETAIL_DATA_OF_HPP

#include "iteragpu/one_of.hpp"

/// \file
/// How the words of a reason read its data: a reason's `what` holds the
/// alternative its code names; one built by hand with another pairing reads
/// as an empty one, so that the words never read a side that is not there.
namespace iteragpu::report::detail {

/// The alternative `Data` of `what`, or a `Data{}` where `what` holds another.
template <class Data, class... Alternatives>
[[nodiscard]] Data data_of(const one_of<Alternatives...>& what) {
  const auto* data = what.template get_if<Data>();
  return data != nullptr ? *data : Data{};
}

}  // namespace iteragpu::report::detail

#endif  // ITERAGPU_REPORT_DETAIL_DATA_OF_HPP
