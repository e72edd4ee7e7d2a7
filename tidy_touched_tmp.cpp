#include <iteragpu/result.hpp>
#include <iteragpu/checked.hpp>
#include <iteragpu/text.hpp>
#include <iteragpu/units.hpp>
#include <iteragpu/memory/estimate.hpp>
#include <iteragpu/pricing/memory_rule.hpp>
#include <iteragpu/memory/policies/workload.hpp>
#include <iteragpu/memory/protocol.hpp>
#include <iteragpu/memory/prediction/synthetic_prediction.hpp>
#include <iteragpu/torch/narrow.hpp>
#include <iteragpu/torch/allocator_stats.hpp>
int main() { return 0; }
