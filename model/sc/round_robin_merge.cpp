#include "model/sc/round_robin_merge.h"

namespace vpsim::sc {

void register_unit_round_robin_merge(UnitRegistry& r) {
    add_split_merge_type<RoundRobinMerge<Job>>(r, "job_merge",
                                               "round-robin merge of vertex jobs from in0..in<ways-1>, in the order a "
                                               "job_split made",
                                               "the job merge", "passing jobs in {} of cycles",
                                               "round-robin merge of vertex jobs", "jobs", "vertices");
    add_split_merge_type<RoundRobinMerge<const DrawState*>>(
        r, "draw_merge",
        "round-robin merge of draws from in0..in<ways-1>, in the order a "
        "draw_split made",
        "the draw merge", "passing draws in {} of cycles", "round-robin merge of draws", "draws", "draws");
}

}  // namespace vpsim::sc
