#include "model/sc/count_merge.h"

namespace vpsim::sc {

void register_unit_count_merge(UnitRegistry& r) {
    add_split_merge_type<CountMerge<DrawsDone>>(
        r, "draws_done_merge",
        "draws that have left every one of in0..in<ways-1> (N vertex ALUs): the "
        "minimum count",
        "the draws-done merge", "passing counts in {} of cycles", "minimum of draws done");
    add_split_merge_type<CountMerge<ConstantsWritten>>(
        r, "constants_written_merge",
        "constant vectors written by every one of in0..in<ways-1>: the minimum "
        "count",
        "the constants-written merge", "passing counts in {} of cycles", "minimum of constant vectors written");
}

}  // namespace vpsim::sc
