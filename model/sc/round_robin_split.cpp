#include "model/sc/round_robin_split.h"

namespace vpsim::sc {

void register_unit_round_robin_split(UnitRegistry& r) {
    UnitType jobs;
    jobs.name = "job_split";
    jobs.what = "round-robin split of vertex jobs onto out0 and out1 (two vertex fetch units)";
    jobs.words = {"the job split", "passing jobs in {} of cycles", {}, {}};
    jobs.make = [](const UnitContext& c) {
        return std::make_unique<RoundRobinSplit<Job>>(c.name.c_str(), "round-robin split of vertex jobs", c.probes);
    };
    r.add(std::move(jobs));
    UnitType credits;
    credits.name = "credit_split";
    credits.what = "round-robin split of freed input buffers onto out0 and out1 (back to two vertex fetch units)";
    credits.words = {"the credit split", "passing credits in {} of cycles", {}, {}};
    credits.make = [](const UnitContext& c) {
        return std::make_unique<RoundRobinSplit<Credit>>(c.name.c_str(), "round-robin split of input buffer credits",
                                                         c.probes);
    };
    r.add(std::move(credits));
}

}  // namespace vpsim::sc
