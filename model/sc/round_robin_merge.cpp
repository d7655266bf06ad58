#include "model/sc/round_robin_merge.h"

namespace vpsim::sc {

namespace {
template <class T>
void add_merge(UnitRegistry& r, const char* name, const char* what, const char* noun, const char* busy,
               const char* group, const char* counter, const char* counter_unit) {
    UnitType t;
    t.name = name;
    t.what = what;
    t.tables = {ways_table(name, what)};
    t.words = {noun, busy, {}, {}};
    t.make = [name = std::string(name), group, counter, counter_unit](const UnitContext& c) {
        return std::make_unique<RoundRobinMerge<T>>(c.name.c_str(), ways_of(c, name), group, counter, counter_unit,
                                                    c.probes);
    };
    r.add(std::move(t));
}
}  // namespace

void register_unit_round_robin_merge(UnitRegistry& r) {
    add_merge<Job>(r, "job_merge",
                   "round-robin merge of vertex jobs from in0..in<ways-1>, in the order a job_split made",
                   "the job merge", "passing jobs in {} of cycles", "round-robin merge of vertex jobs", "jobs", "vertices");
    add_merge<const DrawState*>(r, "draw_merge",
                                "round-robin merge of draws from in0..in<ways-1>, in the order a draw_split made",
                                "the draw merge", "passing draws in {} of cycles", "round-robin merge of draws", "draws",
                                "draws");
}

}  // namespace vpsim::sc
