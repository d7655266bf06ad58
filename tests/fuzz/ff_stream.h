// Scenes of fixed-function command streams, generated from a source of 32-bit numbers: one
// mesh, the fixed-function state commands (transforms, MultiplyTransform runs, lights, material,
// viewport, render and texture-stage states), FVF and programmable shaders (declaration CONST
// tokens with any bits: NaN, infinities, -0), application constants and draws between them.
// Used by the ff libFuzzer harness (tests/fuzz/fuzz_ff.cpp: the input's bytes are the numbers)
// and by the function/timing property test (tests/test_function_timing.cpp: a seeded generator).
//
// Bounded: at most `max_commands` commands after the setup; N-patches at most 3 segments; draws
// of at most 12 vertices; no files.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

namespace vpsim::fuzz {

class FfStream {
public:
    // `next()`: the next number; `more()`: false when the source is used up (a fuzz input).
    FfStream(std::function<uint32_t()> next, std::function<bool()> more) : next_(std::move(next)), more_(std::move(more)) {}

    std::string scene(size_t max_commands) {
        std::string cmds;
        auto add = [&cmds](const std::string& c) { cmds += (cmds.empty() ? "\n    " : ",\n    ") + c; };
        add(fmt::format("{{\"op\": \"CreateVertexShader\", \"name\": \"p\", \"declaration\": {{\"text\": \"{}\"}}, "
                        "\"function\": {{\"asm\": \"{}\"}}}}",
                        declaration(), "vs.1.1\\ndp4 oPos.x, v0, c0\\ndp4 oPos.y, v0, c1\\ndp4 oPos.z, v0, c2\\n"
                                       "dp4 oPos.w, v0, c3\\nmul oD0, v5, c4\\nadd r0, v5, c5\\nadd oT0, r0, c6\\n"));
        add(fvf_shader());
        add("{\"op\": \"SetStreamSource\", \"stream\": 0, \"buffer\": \"m\", \"stride\": 48}");
        size_t n = 0;
        while (n < max_commands && more_()) {
            const uint32_t r = next_();
            switch (r % 16) {
            case 0: case 1: add(transform("SetTransform")); ++n; break;
            case 2: add(transform("MultiplyTransform")); ++n; break;
            case 3: {  // a run of MultiplyTransform x 2 (overflows to infinity after 128 of them)
                const uint32_t k = 1 + (r >> 4) % 140;
                const std::string state = transform_state(next_());
                for (uint32_t i = 0; i < k && n < max_commands; ++i, ++n)
                    add(fmt::format("{{\"op\": \"MultiplyTransform\", \"state\": \"{}\", \"matrix\": "
                                    "[2,0,0,0, 0,2,0,0, 0,0,2,0, 0,0,0,1]}}", state));
                break;
            }
            case 4: add(light()); ++n; break;
            case 5: add(fmt::format("{{\"op\": \"LightEnable\", \"index\": {}, \"enable\": {}}}", (r >> 4) % 4,
                                    (r >> 6) & 1 ? "true" : "false")); ++n; break;
            case 6: add(material()); ++n; break;
            case 7: case 8: add(render_state(r >> 4)); ++n; break;
            case 9: add(texture_stage(r >> 4)); ++n; break;
            case 10: add(viewport()); ++n; break;
            case 11: add((r >> 4) % 3 ? fvf_shader() : "{\"op\": \"SetVertexShader\", \"shader\": \"p\"}"); ++n; break;
            case 12: add(constants(r >> 4)); ++n; break;
            default: add(draw(r >> 4)); ++n; break;
            }
        }
        add(draw(next_()));
        return "{\"buffers\": {\"m\": {\"layout\": [\"FLOAT3\", \"FLOAT2\", \"FLOAT3\", \"D3DCOLOR\", \"D3DCOLOR\", "
               "\"FLOAT2\"], \"vertices\": [" + mesh() + "]}},\n  \"commands\": [" + cmds + "\n  ]}\n";
    }

private:
    // A float as the scene gives it: special values (huge, tiny, denormal, -0) or a small one.
    std::string value() {
        static const char* special[] = {"0", "-0", "1", "-1", "0.5", "2", "-2", "3e38", "-3e38", "1e-38", "1.4e-45",
                                        "100", "1e19", "0.001", "65504", "-1e30"};
        const uint32_t r = next_();
        if (r & 1) return special[(r >> 1) % 16];
        return fmt::format("{}", float(int32_t((r >> 1) % 2001) - 1000) / 250.0f);
    }
    std::string small() {  // 0..4: colours, attenuations
        return fmt::format("{}", float(next_() % 1001) / 250.0f);
    }
    std::string values(int n) {
        std::string s;
        for (int i = 0; i < n; ++i) s += (i ? ", " : "") + value();
        return s;
    }
    std::string colour() { return fmt::format("[{}, {}, {}, {}]", small(), small(), small(), small()); }
    std::string mesh() {
        std::string s;
        for (int v = 0; v < 12; ++v)
            s += fmt::format("{}[{}, {}, {}, \"0x{:08X}\", \"0x{:08X}\", {}]", v ? ", " : "", values(3), values(2),
                             values(3), next_(), next_(), values(2));
        return s;
    }
    std::string declaration() {
        // Position, then the diffuse colour after the betas and the normal; CONST tokens of any bits.
        std::string t = "D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3), D3DVSD_SKIP(5), "
                        "D3DVSD_REG(D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR), D3DVSD_CONST(0, 7)";
        static const uint32_t special[] = {0x7FC00000u, 0xFFFFFFFFu, 0x7F800000u, 0xFF800000u, 0x80000000u,
                                           0x00000001u, 0x7F7FFFFFu, 0x3F800000u};
        for (int i = 0; i < 28; ++i) {
            const uint32_t r = next_();
            t += fmt::format(", 0x{:08X}", r & 1 ? special[(r >> 1) % 8] : r);
        }
        return t + ", D3DVSD_END()";
    }
    std::string fvf_shader() {
        static const char* fvf[] = {"D3DFVF_XYZB2|D3DFVF_NORMAL|D3DFVF_DIFFUSE|D3DFVF_SPECULAR|D3DFVF_TEX1",
                                    "D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_DIFFUSE|D3DFVF_TEX1",
                                    "D3DFVF_XYZ|D3DFVF_DIFFUSE",
                                    "D3DFVF_XYZB3|D3DFVF_LASTBETA_UBYTE4|D3DFVF_NORMAL|D3DFVF_TEX1",
                                    "D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_PSIZE|D3DFVF_SPECULAR|D3DFVF_TEX2",
                                    "D3DFVF_XYZRHW|D3DFVF_DIFFUSE",
                                    "D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_TEX1|D3DFVF_TEXCOORDSIZE3(0)"};
        return fmt::format("{{\"op\": \"SetVertexShader\", \"fvf\": \"{}\"}}", fvf[next_() % 7]);
    }
    std::string transform_state(uint32_t r) {
        static const char* state[] = {"WORLD", "VIEW", "PROJECTION", "WORLDMATRIX(1)", "WORLDMATRIX(2)", "TEXTURE0"};
        return state[r % 6];
    }
    std::string transform(const char* op) {
        const std::string state = transform_state(next_());
        return fmt::format("{{\"op\": \"{}\", \"state\": \"{}\", \"matrix\": [{}]}}", op, state, values(16));
    }
    std::string light() {
        const uint32_t r = next_();
        static const char* type[] = {"POINT", "SPOT", "DIRECTIONAL"};
        // Within SetLight's checks (docs/scenes.md), so that the scene loads: range 0..1e19,
        // attenuations >= 0 and not all 0, a non-zero direction, 0 <= theta <= phi <= pi.
        const float phi = float(next_() % 314) / 100.0f;
        return fmt::format("{{\"op\": \"SetLight\", \"index\": {}, \"light\": {{\"type\": \"{}\", \"diffuse\": {}, "
                           "\"specular\": {}, \"ambient\": {}, \"position\": [{}], \"direction\": [{}, {}, 1], "
                           "\"range\": {}, \"attenuation0\": 1, \"attenuation1\": {}, \"attenuation2\": {}, "
                           "\"falloff\": {}, \"theta\": {}, \"phi\": {}}}}}",
                           (r >> 2) % 4, type[r % 3], colour(), colour(), colour(), values(3), value(), value(),
                           next_() % 2 ? "1e19" : small(), small(), small(), small(), phi / 2, phi);
    }
    std::string material() {
        return fmt::format("{{\"op\": \"SetMaterial\", \"material\": {{\"diffuse\": {}, \"ambient\": {}, "
                           "\"specular\": {}, \"emissive\": {}, \"power\": {}}}}}",
                           colour(), colour(), colour(), colour(), value());
    }
    std::string render_state(uint32_t r) {
        static const char* boolean[] = {"FOGENABLE", "SPECULARENABLE", "RANGEFOGENABLE", "LIGHTING", "COLORVERTEX",
                                        "LOCALVIEWER", "NORMALIZENORMALS", "POINTSCALEENABLE",
                                        "INDEXEDVERTEXBLENDENABLE"};
        static const char* number[] = {"FOGSTART", "FOGEND", "FOGDENSITY", "POINTSIZE", "POINTSIZE_MIN",
                                       "POINTSCALE_A", "POINTSCALE_B", "POINTSCALE_C", "POINTSIZE_MAX", "TWEENFACTOR"};
        static const char* fog[] = {"NONE", "EXP", "EXP2", "LINEAR"};
        static const char* source[] = {"MATERIAL", "COLOR1", "COLOR2"};
        static const char* sources[] = {"DIFFUSEMATERIALSOURCE", "SPECULARMATERIALSOURCE", "AMBIENTMATERIALSOURCE",
                                        "EMISSIVEMATERIALSOURCE"};
        // (mostly off: a blend needs the weights the FVF set at the draw has, else the draw is refused)
        static const char* blend[] = {"DISABLE", "DISABLE", "DISABLE", "1WEIGHTS", "2WEIGHTS", "0WEIGHTS"};
        const uint32_t k = next_();
        auto state = [](const char* s, const std::string& v) {
            return fmt::format("{{\"op\": \"SetRenderState\", \"state\": \"{}\", \"value\": {}}}", s, v);
        };
        switch (r % 8) {
        case 0: case 1: return state(boolean[k % 9], (k >> 4) & 1 ? "true" : "false");
        case 2: case 3: return state(number[k % 10], value());
        case 4: return state("FOGVERTEXMODE", fmt::format("\"{}\"", fog[k % 4]));
        case 5: return state(sources[k % 4], fmt::format("\"{}\"", source[(k >> 2) % 3]));
        case 6: return state("VERTEXBLEND", fmt::format("\"{}\"", blend[k % 6]));
        default:
            return k % 2 ? state("AMBIENT", fmt::format("\"0x{:08X}\"", next_()))
                         : state("PATCHSEGMENTS", fmt::format("{}", 1 + (k >> 1) % 3));  // N-patches: at most 3
        }
    }
    std::string texture_stage(uint32_t r) {
        static const char* tci[] = {"0", "\"PASSTHRU|1\"", "\"CAMERASPACENORMAL\"", "\"CAMERASPACEPOSITION\"",
                                    "\"CAMERASPACEREFLECTIONVECTOR|1\""};
        static const char* ttff[] = {"\"DISABLE\"", "\"COUNT1\"", "\"COUNT2\"", "\"COUNT3\"", "\"COUNT4\"",
                                     "\"COUNT3|PROJECTED\""};
        const uint32_t k = next_();
        return r % 2 ? fmt::format("{{\"op\": \"SetTextureStageState\", \"stage\": {}, \"state\": \"TEXCOORDINDEX\", "
                                   "\"value\": {}}}", k % 2, tci[(k >> 1) % 5])
                     : fmt::format("{{\"op\": \"SetTextureStageState\", \"stage\": {}, \"state\": "
                                   "\"TEXTURETRANSFORMFLAGS\", \"value\": {}}}", k % 2, ttff[(k >> 1) % 6]);
    }
    std::string viewport() {
        const uint32_t r = next_();
        return fmt::format("{{\"op\": \"SetViewport\", \"viewport\": {{\"x\": {}, \"y\": {}, \"width\": {}, "
                           "\"height\": {}, \"minz\": 0, \"maxz\": 1}}}}",
                           r % 64, (r >> 6) % 64, 1 + (r >> 12) % 2048, 1 + next_() % 2048);
    }
    std::string constants(uint32_t r) {
        const uint32_t count = 1 + r % 4;
        return fmt::format("{{\"op\": \"SetVertexShaderConstant\", \"register\": {}, \"values\": [{}]}}",
                           (r >> 2) % (96 - count + 1), values(int(4 * count)));
    }
    std::string draw(uint32_t r) {
        static const char* type[] = {"trianglelist", "trianglestrip", "trianglefan", "pointlist", "linelist"};
        const uint32_t t = r % 5;
        const uint32_t max = t == 0 ? 4 : t == 3 ? 12 : t == 4 ? 6 : 10;
        return fmt::format("{{\"op\": \"DrawPrimitive\", \"type\": \"{}\", \"start_vertex\": 0, "
                           "\"primitive_count\": {}}}", type[t], 1 + (r >> 3) % max);
    }

    std::function<uint32_t()> next_;
    std::function<bool()> more_;
};

}  // namespace vpsim::fuzz
