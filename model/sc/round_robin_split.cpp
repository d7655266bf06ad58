#include "model/sc/round_robin_split.h"

namespace vpsim::sc {

void register_unit_round_robin_split(UnitRegistry& r) {
    add_split_merge_type<RoundRobinSplit<Job>>(
        r, "job_split",
        "round-robin split of vertex jobs onto out0..out<ways-1> (N vertex fetch "
        "units or ALUs)",
        "the job split", "passing jobs in {} of cycles", "round-robin split of vertex jobs");
    add_split_merge_type<RoundRobinSplit<Credit>>(
        r, "credit_split",
        "round-robin split of freed input buffers onto out0..out<ways-1> (back "
        "to N vertex fetch units)",
        "the credit split", "passing credits in {} of cycles", "round-robin split of input buffer credits");
    add_split_merge_type<RoundRobinSplit<const DrawState*>>(
        r, "draw_split", "round-robin split of draws onto out0..out<ways-1> (N tessellators)", "the draw split",
        "passing draws in {} of cycles", "round-robin split of draws");
}

}  // namespace vpsim::sc
