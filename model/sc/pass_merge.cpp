#include "model/sc/pass_merge.h"

namespace vpsim::sc {

namespace {
template <class T>
void add_pass_merge(UnitRegistry& r, const char* name, const char* what, const char* noun, const char* group) {
    UnitType t;
    t.name = name;
    t.what = what;
    t.tables = {ways_table(name, what)};
    t.words = {noun, "passing items in {} of cycles", {}, {}};
    t.make = [name = std::string(name), group](const UnitContext& c) {
        return std::make_unique<PassMerge<T>>(c.name.c_str(), ways_of(c, name), group, c.probes);
    };
    r.add(std::move(t));
}
}  // namespace

void register_unit_pass_merge(UnitRegistry& r) {
    add_pass_merge<Credit>(r, "credit_merge",
                           "freed input buffers from in0..in<ways-1> (N vertex ALUs) to one vertex fetch, as they come",
                           "the credit merge", "merge of input buffer credits");
    add_pass_merge<GeneratedReady>(r, "generated_merge",
                                   "generated-vertex counts from in0..in<ways-1> (N tessellators), as they come",
                                   "the generated merge", "merge of generated-vertex counts");
}

}  // namespace vpsim::sc
