#include "model/sc/count_merge.h"

namespace vpsim::sc {

namespace {
template <class T>
void add_count_merge(UnitRegistry& r, const char* name, const char* what, const char* noun, const char* group) {
    UnitType t;
    t.name = name;
    t.what = what;
    t.tables = {ways_table(name, what)};
    t.words = {noun, "passing counts in {} of cycles", {}, {}};
    t.make = [name = std::string(name), group](const UnitContext& c) {
        return std::make_unique<CountMerge<T>>(c.name.c_str(), ways_of(c, name), group, c.probes);
    };
    r.add(std::move(t));
}
}  // namespace

void register_unit_count_merge(UnitRegistry& r) {
    add_count_merge<DrawsDone>(r, "draws_done_merge",
                               "draws that have left every one of in0..in<ways-1> (N vertex ALUs): the minimum count",
                               "the draws-done merge", "minimum of draws done");
    add_count_merge<ConstantsWritten>(r, "constants_written_merge",
                                      "constant vectors written by every one of in0..in<ways-1>: the minimum count",
                                      "the constants-written merge", "minimum of constant vectors written");
}

}  // namespace vpsim::sc
