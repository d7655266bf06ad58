#include "model/sc/broadcast_split.h"

namespace vpsim::sc {

namespace {
template <class T>
void add_broadcast(UnitRegistry& r, const char* name, const char* what, const char* noun, const char* group) {
    UnitType t;
    t.name = name;
    t.what = what;
    t.tables = {ways_table(name, what)};
    t.words = {noun, "passing counts in {} of cycles", {}, {}};
    t.make = [name = std::string(name), group](const UnitContext& c) {
        return std::make_unique<BroadcastSplit<T>>(c.name.c_str(), ways_of(c, name), group, c.probes);
    };
    r.add(std::move(t));
}
}  // namespace

void register_unit_broadcast_split(UnitRegistry& r) {
    add_broadcast<ConstantsWritten>(r, "constants_written_split",
                                    "the constant loader's count of vectors written, to each of out0..out<ways-1> "
                                    "(N vertex ALUs)",
                                    "the constants-written split", "broadcast of constant vectors written");
    add_broadcast<DrawsDone>(r, "draws_done_split",
                             "the count of draws that have left, to each of out0..out<ways-1>", "the draws-done split",
                             "broadcast of draws done");
    add_broadcast<GeneratedReady>(r, "generated_split",
                                  "a tessellator's generated-vertex counts, to each of out0..out<ways-1>",
                                  "the generated split", "broadcast of generated-vertex counts");
}

}  // namespace vpsim::sc
