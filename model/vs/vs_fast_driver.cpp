// The fast path's driver (vs_fast_driver.h).
#include "model/vs/vs_fast_driver.h"
#include "model/common/float_bits.h"

namespace vpsim::vs::fast {

Work::Work(const FastShader& fs, const Constants& constants) {
    mem.reset(new float[size_t(fs.num_slots) * B + 16]);
    float* base = mem.get();
    const uintptr_t mis = reinterpret_cast<uintptr_t>(base) & 63u;
    if (mis) base += (64u - mis) / sizeof(float);
    a0.reset(new int32_t[B]);
    uni.resize(fs.uniforms.size());
    const int64_t limit = std::min<int64_t>(fs.profile.const_count, int64_t(constants.size()));
    for (size_t i = 0; i < fs.uniforms.size(); ++i) {
        const FastShader::Uniform& u = fs.uniforms[i];
        if (u.immediate) {
            uni[i] = bits_float(u.bits);
            continue;
        }
        // As the interpreter's constant(): outside 0..const_count-1 or the vector reads 0.
        float f = int64_t(u.reg) < limit ? constants[u.reg][u.comp] : 0.0f;
        if (u.negate) f = bits_float(float_bits(f) ^ 0x80000000u);
        uni[i] = f;
    }
    ctx.slots = base;
    ctx.a0 = a0.get();
    ctx.uni = uni.data();
    ctx.consts = &constants;
    ctx.const_limit = limit;
    ctx.profile = &fs.profile;
}

}  // namespace vpsim::vs::fast
