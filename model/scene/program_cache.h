// Programs shared by the scene machines of one study (docs/sampling.md, "Programs made once"): a
// sampled run builds a scene machine for each of its blocks, and each replays the scene's
// CreateVertexShader commands and compiles the fixed-function programs of its draws again. The
// results are pure functions of their inputs, so a cache keyed by the inputs' whole content hands
// the later machines the first one's result. A machine without a cache works as before.
//
// One cache serves machines of one profile and one set of fixed-function caps (the run's
// parameters): those are not part of its keys. Safe to share between threads.
#pragma once

#include "model/ff/ff_compile.h"
#include "model/ff/ff_state.h"
#include "model/vs/vs_create.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace vpsim::scene {

class ProgramCache {
public:
    // vs::create_vertex_shader(decl_tokens, shader, {const_count}, profile): made by `make` the
    // first time these tokens (the declaration's, and the function's bytecode and `def` constants,
    // or none for fixed function) are seen with this constant count and profile: the machine's
    // (`ff_profile` false) or ff::ff_profile of it, which fixed-function programs are checked with.
    // The caller copies the result: each CreateVertexShader is its own shader object, as the
    // timing model tells shaders apart by their address.
    std::shared_ptr<const vs::CreatedShader> created(const std::vector<uint32_t>& decl_tokens,
                                                     const vs::LoadedShader* shader, uint32_t const_count,
                                                     bool ff_profile, const std::function<vs::CreatedShader()>& make);
    // ff::compile(state, inputs, caps, const_count, outputs): made by `make` the first time the
    // whole state (every field of ff::FfState, float for float by its bits) and inputs are seen.
    // A `make` that throws leaves nothing cached.
    std::shared_ptr<const ff::FfProgram> ff_program(const ff::FfState& state, const ff::FfInputs& inputs,
                                                    uint32_t const_count,
                                                    const std::function<ff::FfProgram()>& make);

    uint64_t hits() const;
    uint64_t misses() const;

private:
    // The value of `key` in `map`, made by `make` (outside the lock) when it has none.
    template <class T, class Make>
    std::shared_ptr<const T> find_or_make(std::map<std::string, std::shared_ptr<const T>>& map, std::string key,
                                          const Make& make);

    mutable std::mutex m_;
    std::map<std::string, std::shared_ptr<const vs::CreatedShader>> created_;
    std::map<std::string, std::shared_ptr<const ff::FfProgram>> ff_;
    uint64_t hits_ = 0, misses_ = 0;
};

// The key of a fixed-function state: the bytes of each of its fields, in declaration order (not
// the objects' bytes, whose padding is undefined). Two states have the same key exactly when
// every field has the same value bits.
std::string ff_state_key(const ff::FfState& state);

}  // namespace vpsim::scene
