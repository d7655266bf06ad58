#include "model/sc/pass_merge.h"

namespace vpsim::sc {

void register_unit_pass_merge(UnitRegistry& r) {
    add_split_merge_type<PassMerge<Credit>>(r, "credit_merge",
                                            "freed input buffers from in0..in<ways-1> (N vertex ALUs) to one vertex "
                                            "fetch, as they come",
                                            "the credit merge", "passing items in {} of cycles",
                                            "merge of input buffer credits");
    add_split_merge_type<PassMerge<GeneratedReady>>(
        r, "generated_merge",
        "generated-vertex counts from in0..in<ways-1> (N tessellators), as they "
        "come",
        "the generated merge", "passing items in {} of cycles", "merge of generated-vertex counts");
}

}  // namespace vpsim::sc
