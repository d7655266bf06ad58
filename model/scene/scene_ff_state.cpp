// A scene's fixed-function state values (scene_ff_state.h).
#include "model/scene/scene_ff_state.h"
#include "model/ff/ff_params.h"
#include "model/ff/fvf.h"

#include <fmt/format.h>

#include <map>
#include <mutex>
#include <utility>

namespace vpsim::scene::parse {

namespace {

// What a message expects of an enumeration, made once per table (the tables are the ff_names
// functions', which live as long as the program): a recorded frame sets thousands of states, and
// joining a table's names for each was a tenth of loading one.
const std::string& described(const std::vector<ff::EnumName>& values, const char* prefix) {
    static std::mutex m;
    static std::map<std::pair<const void*, std::string>, std::string> made;
    const std::lock_guard<std::mutex> lock(m);
    auto [it, fresh] = made.try_emplace({&values, prefix}, std::string());
    if (fresh) it->second = fmt::format("one of {} ({} prefix optional) or its number", ff::enum_names(values), prefix);
    return it->second;  // std::map's nodes do not move
}

}  // namespace

uint32_t FfStateReader::fvf(const json& j, const std::string& ptr) const {
    const char* what = "an FVF code: D3DFVF_* names joined by '|' (\"D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_TEX1\"), a "
                       "number, or a list of names";
    try {
        if (j.is_number_integer()) {
            const uint32_t v = uint32_t(get_uint(j, ptr, what));
            ff::validate_fvf(v);
            return v;
        }
        if (j.is_string()) return ff::parse_fvf(j.get_ref<const std::string&>());
        if (j.is_array()) {
            std::vector<std::string> terms;
            for (size_t i = 0; i < j.size(); ++i) {
                if (j[i].is_number_integer())
                    terms.push_back(std::to_string(get_uint(j[i], ptr + "/" + std::to_string(i), "an FVF flag")));
                else
                    terms.push_back(get_string(j[i], ptr + "/" + std::to_string(i), "a D3DFVF_* name"));
            }
            return ff::parse_fvf(terms);
        }
    } catch (const ff::FvfError& e) {
        fail(ptr, e.what());
    }
    expected(ptr, j, what);
}

bool FfStateReader::boolean(const json& j, const std::string& ptr) const {
    if (j.is_boolean()) return j.get<bool>();
    if (j.is_number_integer() && (j.get<int64_t>() == 0 || j.get<int64_t>() == 1)) return j.get<int64_t>() == 1;
    if (j.is_number_integer()) fail(ptr, fmt::format("expected true, false, 1 or 0, found {}", j.dump()));
    expected(ptr, j, "true, false, 1 or 0");
}

ff::Color FfStateReader::color(const json& j, const std::string& ptr) const {
    if (!j.is_array() || j.size() != 4) expected(ptr, j, "a colour [r, g, b, a] of 4 numbers");
    ff::Color c{};
    for (size_t k = 0; k < 4; ++k) c[k] = get_float(j[k], ptr + "/" + std::to_string(k), "a number");
    return c;
}

uint32_t FfStateReader::d3dcolor(const json& j, const std::string& ptr) const {
    if (j.is_array()) {
        const ff::Color c = color(j, ptr);
        uint32_t ch[4];
        for (int k = 0; k < 4; ++k) ch[k] = uint32_t(std::lround(std::clamp(c[size_t(k)], 0.0f, 1.0f) * 255.0f));
        return ch[3] << 24 | ch[0] << 16 | ch[1] << 8 | ch[2];
    }
    return get_word(j, ptr, "a D3DCOLOR 0xAARRGGBB (an integer or a \"0x...\" string) or [r, g, b, a]");
}

ff::Vec3 FfStateReader::vec3(const json& j, const std::string& ptr) const {
    if (!j.is_array() || j.size() != 3) expected(ptr, j, "a vector [x, y, z] of 3 numbers");
    ff::Vec3 v{};
    for (size_t k = 0; k < 3; ++k) v[k] = get_float(j[k], ptr + "/" + std::to_string(k), "a number");
    return v;
}

ff::Matrix FfStateReader::matrix(const json& j, const std::string& ptr) const {
    const char* what = "a matrix: 4 rows of 4 numbers [[_11, _12, _13, _14], ...] or 16 numbers";
    ff::Matrix m;
    if (j.is_array() && j.size() == 4 && j[0].is_array()) {
        for (size_t r = 0; r < 4; ++r) {
            const std::string rp = ptr + "/" + std::to_string(r);
            if (!j[r].is_array() || j[r].size() != 4) expected(rp, j[r], "a row of 4 numbers");
            for (size_t k = 0; k < 4; ++k) m.m[r * 4 + k] = get_float(j[r][k], rp + "/" + std::to_string(k), "a number");
        }
        return m;
    }
    if (j.is_array() && j.size() == 16) {
        for (size_t k = 0; k < 16; ++k) m.m[k] = get_float(j[k], ptr + "/" + std::to_string(k), "a number");
        return m;
    }
    if (j.is_array()) fail(ptr, fmt::format("expected {}, found an array of {}", what, j.size()));
    expected(ptr, j, what);
}

uint32_t FfStateReader::transform_state(const json& j, const std::string& ptr) const {
    std::optional<uint32_t> st;
    if (j.is_number_integer()) st = ff::transform_state(std::to_string(get_uint(j, ptr, kTransformStates)));
    else st = ff::transform_state(get_string(j, ptr, kTransformStates));
    if (!st) fail(ptr, fmt::format("expected {}, found {}", kTransformStates, j.dump()));
    return *st;
}

uint32_t FfStateReader::enumeration(const json& j, const std::string& ptr, const std::vector<ff::EnumName>& values,
                                    const char* prefix) const {
    const std::string& what = described(values, prefix);
    std::optional<uint32_t> v;
    if (j.is_number_integer()) {
        const uint64_t n = get_uint(j, ptr, what);
        for (const auto& e : values)
            if (e.value == n) v = e.value;
    } else {
        v = ff::enum_value(values, prefix, get_string(j, ptr, what));
    }
    if (!v) fail(ptr, fmt::format("expected {}, found {}", what, j.dump()));
    return *v;
}

SetRenderState FfStateReader::render_state(const json& c, const std::string& ptr) const {
    check_keys(c, ptr, {"op", "state", "value"});
    // What a message expects, made once (a recorded frame sets thousands of states).
    static const std::string states =
        "a render state: " + ff::render_state_names() + " (D3DRS_ prefix optional), or its number";
    const json& sj = member(c, ptr, "state", states);
    const ff::RenderStateInfo* info = nullptr;
    if (sj.is_number_integer()) info = ff::find_render_state(std::to_string(get_uint(sj, ptr + "/state", states)));
    else info = ff::find_render_state(get_string(sj, ptr + "/state", states));
    if (!info) fail(ptr + "/state", fmt::format("expected {}, found {}", states, sj.dump()));
    const json& v = member(c, ptr, "value", "a value");
    const std::string vp = ptr + "/value";
    SetRenderState x;
    x.state = info->number;
    switch (info->kind) {
    case ff::RsKind::Bool: x.dword = boolean(v, vp) ? 1 : 0; break;
    case ff::RsKind::Float:
        x.value = get_float(v, vp, fmt::format("a number (D3DRS_{} is a float)", info->name));
        x.dword = float_bits(x.value);
        break;
    case ff::RsKind::Color: x.dword = d3dcolor(v, vp); break;
    case ff::RsKind::Enum: x.dword = enumeration(v, vp, info->values, info->prefix); break;
    case ff::RsKind::Dword: x.dword = get_word(v, vp, "a DWORD (an integer or a \"0x...\" string)"); break;
    }
    if (info->kind != ff::RsKind::Float) x.value = float(x.dword);
    return x;
}

SetTextureStageState FfStateReader::texture_stage_state(const json& c, const std::string& ptr) const {
    check_keys(c, ptr, {"op", "stage", "state", "value"});
    SetTextureStageState x;
    x.stage = uint32_t(get_uint(member(c, ptr, "stage", "a texture stage 0..7"), ptr + "/stage", "a texture stage 0..7", 7));
    static const std::string states = "a texture stage state: " + ff::enum_names(ff::texture_stage_state_names()) +
                                      " (D3DTSS_ prefix optional), or its number";
    const json& sj = member(c, ptr, "state", states);
    std::optional<uint32_t> st;
    if (sj.is_number_integer()) {
        const uint64_t n = get_uint(sj, ptr + "/state", states);
        for (const auto& e : ff::texture_stage_state_names())
            if (e.value == n) st = e.value;
    } else {
        st = ff::enum_value(ff::texture_stage_state_names(), "D3DTSS_", get_string(sj, ptr + "/state", states));
    }
    if (!st) fail(ptr + "/state", fmt::format("expected {}, found {}", states, sj.dump()));
    x.state = *st;
    const json& v = member(c, ptr, "value", "a value");
    const std::string vp = ptr + "/value";
    switch (x.state) {
    case ff::kTssTexCoordIndex: x.value = texcoordindex(v, vp); break;
    case ff::kTssTextureTransformFlags: x.value = transform_flags(v, vp); break;
    case ff::kTssColorOp:
    case ff::kTssAlphaOp: x.value = enumeration(v, vp, ff::top_names(), "D3DTOP_"); break;
    case ff::kTssResultArg: {
        x.value = texture_arg(v, vp);
        if (x.value != ff::kTaCurrent && x.value != ff::kTaTemp)
            fail(vp, fmt::format("expected CURRENT or TEMP (D3DTSS_RESULTARG), found {}", v.dump()));
        break;
    }
    default: x.value = texture_arg(v, vp); break;
    }
    return x;
}

uint32_t FfStateReader::texture_arg(const json& j, const std::string& ptr) const {
    static const std::string what =
        "a texture argument: one of " + ff::enum_names(ff::ta_names()) +
        " (D3DTA_ prefix optional), optionally | COMPLEMENT | ALPHAREPLICATE, or the number";
    static const std::vector<ff::EnumName> modifiers = {{"COMPLEMENT", ff::kTaComplement},
                                                        {"ALPHAREPLICATE", ff::kTaAlphaReplicate}};
    const uint32_t mods = ff::kTaComplement | ff::kTaAlphaReplicate;
    uint32_t v = 0;
    bool have_arg = false;
    for (const auto& t : flag_terms(j, ptr, what)) {
        uint64_t n = 0;
        std::optional<uint32_t> e = ff::enum_value(modifiers, "D3DTA_", t);
        const bool arg_part = !e;  // a number or an argument name (a number may hold modifiers too)
        if (!e && small_number(t, n)) e = n <= 0xFFFFFFFFull ? std::optional<uint32_t>(uint32_t(n)) : std::nullopt;
        else if (!e) e = ff::enum_value(ff::ta_names(), "D3DTA_", t);
        if (!e || (*e & ~(ff::kTaSelectMask | mods)) || (*e & ff::kTaSelectMask) > ff::kTaTemp ||
            (arg_part && have_arg) || (v & *e & mods))
            fail(ptr, fmt::format("expected {}, found {}", what, j.dump()));
        if (arg_part) have_arg = true;
        v |= *e;
    }
    return v;
}

std::vector<std::string> FfStateReader::flag_terms(const json& j, const std::string& ptr, const std::string& what) const {
    if (j.is_number_integer()) return {std::to_string(get_uint(j, ptr, what))};
    const std::string& s = get_string(j, ptr, what);
    std::vector<std::string> t;
    size_t pos = 0;
    while (true) {
        const size_t bar = s.find('|', pos);
        std::string term = s.substr(pos, bar == std::string::npos ? std::string::npos : bar - pos);
        const size_t a = term.find_first_not_of(" \t"), b = term.find_last_not_of(" \t");
        t.push_back(a == std::string::npos ? "" : term.substr(a, b - a + 1));
        if (bar == std::string::npos) break;
        pos = bar + 1;
    }
    return t;
}

bool FfStateReader::small_number(const std::string& t, uint64_t& out) {
    if (t.empty() || t.size() > 10 || t.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::stoull(t);
    return true;
}

uint32_t FfStateReader::texcoordindex(const json& j, const std::string& ptr) const {
    static const std::string what =
        "a texture coordinate index 0..7, optionally with a generation mode joined by '|' (" +
        ff::enum_names(ff::tci_names()) + ", D3DTSS_TCI_ prefix optional), or the DWORD";
    uint32_t mode = 0, index = 0;
    bool have_mode = false, have_index = false;
    for (const auto& t : flag_terms(j, ptr, what)) {
        uint64_t n = 0;
        if (small_number(t, n)) {
            const uint64_t m = n & 0xFFFF0000u, i = n & 0xFFFFu;
            const bool mode_ok = m == 0 || m == ff::kTciCameraSpaceNormal || m == ff::kTciCameraSpacePosition ||
                                 m == ff::kTciCameraSpaceReflectionVector;
            if (n > 0xFFFFFFFFull || !mode_ok || i > 7 || (m && have_mode) || have_index)
                fail(ptr, fmt::format("expected {}, found {}", what, j.dump()));
            if (m) mode = uint32_t(m), have_mode = true;
            index = uint32_t(i), have_index = true;
        } else if (auto m = ff::enum_value(ff::tci_names(), "D3DTSS_TCI_", t); m && !have_mode) {
            mode = *m;
            have_mode = true;
        } else {
            fail(ptr, fmt::format("expected {}, found {}", what, j.dump()));
        }
    }
    return mode | index;
}

uint32_t FfStateReader::transform_flags(const json& j, const std::string& ptr) const {
    const std::string what = "texture transform flags: DISABLE, COUNT1..COUNT4, optionally | PROJECTED (D3DTTFF_ "
                             "prefix optional), or the number";
    uint32_t v = 0;
    bool have_count = false, projected = false;
    for (const auto& t : flag_terms(j, ptr, what)) {
        uint64_t n = 0;
        std::optional<uint32_t> e;
        if (small_number(t, n)) e = n <= 0xFFFFFFFFull ? std::optional<uint32_t>(uint32_t(n)) : std::nullopt;
        else e = ff::enum_value(ff::ttff_names(), "D3DTTFF_", t);
        if (!e || (*e & ~(0x7u | ff::kTtffProjected)) || (*e & 7u) > 4 || (have_count && (*e & 7u)) ||
            (projected && (*e & ff::kTtffProjected)))
            fail(ptr, fmt::format("expected {}, found {}", what, j.dump()));
        if (*e & 7u) have_count = true;
        if (*e & ff::kTtffProjected) projected = true;
        v |= *e;
    }
    return v;
}

ff::Light FfStateReader::light(const json& j, const std::string& ptr) const {
    if (!j.is_object()) expected(ptr, j, "a D3DLIGHT8 object {\"type\": ..., ...}");
    check_keys(j, ptr, {"type", "diffuse", "specular", "ambient", "position", "direction", "range", "falloff",
               "attenuation0", "attenuation1", "attenuation2", "theta", "phi"});
    ff::Light l;  // members absent are 0, as in a zeroed D3DLIGHT8
    uint32_t type = 0;
    if (j.contains("type")) type = enumeration(j["type"], ptr + "/type", ff::light_type_names(), "D3DLIGHT_");
    if (j.contains("diffuse")) l.diffuse = color(j["diffuse"], ptr + "/diffuse");
    if (j.contains("specular")) l.specular = color(j["specular"], ptr + "/specular");
    if (j.contains("ambient")) l.ambient = color(j["ambient"], ptr + "/ambient");
    if (j.contains("position")) l.position = vec3(j["position"], ptr + "/position");
    if (j.contains("direction")) l.direction = vec3(j["direction"], ptr + "/direction");
    l.range = opt_float(j, ptr, "range", 0, "a number");
    l.falloff = opt_float(j, ptr, "falloff", 0, "a number");
    l.attenuation0 = opt_float(j, ptr, "attenuation0", 0, "a number");
    l.attenuation1 = opt_float(j, ptr, "attenuation1", 0, "a number");
    l.attenuation2 = opt_float(j, ptr, "attenuation2", 0, "a number");
    l.theta = opt_float(j, ptr, "theta", 0, "an angle in radians");
    l.phi = opt_float(j, ptr, "phi", 0, "an angle in radians");
    if (auto e = ff::check_light(type, l)) {
        const bool present = j.contains(e->member);
        fail(present ? ptr + "/" + e->member : ptr,
             fmt::format("SetLight refuses the light: {}{}", present ? "" : e->member + " (absent: 0): ", e->message));
    }
    l.type = ff::LightType(type);
    return l;
}

ff::Viewport FfStateReader::viewport(const json& j, const std::string& ptr) const {
    if (!j.is_object()) expected(ptr, j, "a D3DVIEWPORT8 object {\"x\", \"y\", \"width\", \"height\", \"minz\", \"maxz\"}");
    check_keys(j, ptr, {"x", "y", "width", "height", "minz", "maxz"});
    ff::Viewport v;  // members absent keep vpsim's default viewport (0, 0, 640 x 480, z 0..1)
    v.x = opt_uint(j, ptr, "x", v.x, "a pixel column");
    v.y = opt_uint(j, ptr, "y", v.y, "a pixel row");
    v.width = opt_uint(j, ptr, "width", v.width, "a width in pixels");
    v.height = opt_uint(j, ptr, "height", v.height, "a height in pixels");
    v.minz = opt_float(j, ptr, "minz", v.minz, "a depth (a number)");
    v.maxz = opt_float(j, ptr, "maxz", v.maxz, "a depth (a number)");
    if (auto e = ff::check_viewport(v))
        fail(j.contains(e->member) ? ptr + "/" + e->member : ptr, fmt::format("SetViewport refuses the viewport: {}", e->message));
    return v;
}

ff::Material FfStateReader::material(const json& j, const std::string& ptr) const {
    if (!j.is_object()) expected(ptr, j, "a D3DMATERIAL8 object {\"diffuse\", \"ambient\", \"specular\", \"emissive\", \"power\"}");
    check_keys(j, ptr, {"diffuse", "ambient", "specular", "emissive", "power"});
    ff::Material m;  // members absent are 0, as in a zeroed D3DMATERIAL8
    if (j.contains("diffuse")) m.diffuse = color(j["diffuse"], ptr + "/diffuse");
    if (j.contains("ambient")) m.ambient = color(j["ambient"], ptr + "/ambient");
    if (j.contains("specular")) m.specular = color(j["specular"], ptr + "/specular");
    if (j.contains("emissive")) m.emissive = color(j["emissive"], ptr + "/emissive");
    m.power = opt_float(j, ptr, "power", 0, "a specular power");
    return m;
}
}  // namespace vpsim::scene::parse
