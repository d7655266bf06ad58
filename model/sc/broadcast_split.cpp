#include "model/sc/broadcast_split.h"

namespace vpsim::sc {

void register_unit_broadcast_split(UnitRegistry& r) {
    add_split_merge_type<BroadcastSplit<ConstantsWritten>>(
        r, "constants_written_split",
        "the constant loader's count of vectors written, to each of "
        "out0..out<ways-1> "
        "(N vertex ALUs)",
        "the constants-written split", "passing counts in {} of cycles", "broadcast of constant vectors written");
    add_split_merge_type<BroadcastSplit<DrawsDone>>(
        r, "draws_done_split", "the count of draws that have left, to each of out0..out<ways-1>",
        "the draws-done split", "passing counts in {} of cycles", "broadcast of draws done");
    add_split_merge_type<BroadcastSplit<GeneratedReady>>(
        r, "generated_split", "a tessellator's generated-vertex counts, to each of out0..out<ways-1>",
        "the generated split", "passing counts in {} of cycles", "broadcast of generated-vertex counts");
}

}  // namespace vpsim::sc
