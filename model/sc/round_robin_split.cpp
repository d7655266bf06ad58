#include "model/sc/round_robin_split.h"

namespace vpsim::sc {

namespace {
template <class T>
void add_split(UnitRegistry& r, const char* name, const char* what, const char* noun, const char* busy,
               const char* group) {
    UnitType t;
    t.name = name;
    t.what = what;
    t.tables = {ways_table(name, what)};
    t.words = {noun, busy, {}, {}};
    t.make = [name = std::string(name), group](const UnitContext& c) {
        return std::make_unique<RoundRobinSplit<T>>(c.name.c_str(), ways_of(c, name), group, c.probes);
    };
    r.add(std::move(t));
}
}  // namespace

void register_unit_round_robin_split(UnitRegistry& r) {
    add_split<Job>(r, "job_split", "round-robin split of vertex jobs onto out0..out<ways-1> (N vertex fetch units or ALUs)",
                   "the job split", "passing jobs in {} of cycles", "round-robin split of vertex jobs");
    add_split<Credit>(r, "credit_split",
                      "round-robin split of freed input buffers onto out0..out<ways-1> (back to N vertex fetch units)",
                      "the credit split", "passing credits in {} of cycles", "round-robin split of input buffer credits");
    add_split<const DrawState*>(r, "draw_split", "round-robin split of draws onto out0..out<ways-1> (N tessellators)",
                                "the draw split", "passing draws in {} of cycles", "round-robin split of draws");
}

}  // namespace vpsim::sc
