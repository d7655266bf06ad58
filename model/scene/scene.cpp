#include "model/scene/scene.h"

#include "model/decl/decl_io.h"
#include "model/decl/decl_text.h"
#include "model/decl/decl_tokens.h"
#include "model/common/json_error.h"
#include "model/scene/generators.h"
#include "model/ff/ff_names.h"
#include "model/ff/ff_params.h"
#include "model/ff/fvf.h"

#include <fmt/format.h>

#include <cctype>
#include <type_traits>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

namespace vpsim::scene {

SceneError::SceneError(std::string file_, std::string pointer_, std::string message_)
    : std::runtime_error(file_ + ": " + (pointer_.empty() ? "" : pointer_ + ": ") + message_),
      file(std::move(file_)),
      pointer(std::move(pointer_)),
      message(std::move(message_)) {}

uint32_t Buffer::index(uint64_t i) const {
    const uint8_t* p = bytes.data() + i * index_size;
    return index_size == 2 ? uint32_t(p[0] | p[1] << 8) : uint32_t(p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24);
}

const char* command_name(const CommandBody& c) {
    static const char* const names[] = {"CreateVertexShader", "SetVertexShader", "SetVertexShaderConstant",
                                        "SetStreamSource",    "SetIndices",      "DrawPrimitive",
                                        "DrawIndexedPrimitive", "DrawRectPatch", "DrawTriPatch",
                                        "DeletePatch", "SetRenderState", "SetTransform", "MultiplyTransform",
                                        "SetLight", "LightEnable", "SetViewport", "SetMaterial",
                                        "SetTextureStageState"};
    static_assert(sizeof(names) / sizeof(names[0]) == std::variant_size_v<CommandBody>);
    return names[c.index()];
}

namespace {

using nlohmann::json;

std::string escape_key(const std::string& k) {
    std::string s;
    for (char c : k) {
        if (c == '~') s += "~0";
        else if (c == '/') s += "~1";
        else s += c;
    }
    return s;
}

const char* json_kind(const json& j) {
    switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number";
    default: return "something else";
    }
}

class Parser {
public:
    Parser(Scene& s, std::string base) : s_(s), base_(std::move(base)) {}

    [[noreturn]] void fail(const std::string& ptr, const std::string& what) const { throw s_.error(ptr, what); }
    [[noreturn]] void expected(const std::string& ptr, const json& j, const std::string& what) const {
        fail(ptr, fmt::format("expected {}, found {}", what, json_kind(j)));
    }

    std::string path(const std::string& file) const {
        if (file.empty() || file[0] == '/' || base_.empty() || file == "-") return file;
        return base_ + "/" + file;
    }

    // Keys of an object must be among `allowed` (plus "comment" and keys starting with '_').
    void check_keys(const json& j, const std::string& ptr, std::initializer_list<const char*> allowed) const {
        for (auto it = j.begin(); it != j.end(); ++it) {
            const std::string& k = it.key();
            if (k == "comment" || (!k.empty() && k[0] == '_')) continue;
            bool ok = false;
            for (const char* a : allowed) ok = ok || k == a;
            if (!ok) {
                std::string list;
                for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
                fail(ptr + "/" + escape_key(k), fmt::format("unknown key \"{}\": expected one of {}", k, list));
            }
        }
    }

    const json& member(const json& j, const std::string& ptr, const char* key, const std::string& what) const {
        auto it = j.find(key);
        if (it == j.end()) fail(ptr, fmt::format("missing \"{}\": expected {}", key, what));
        return *it;
    }

    uint64_t get_uint(const json& j, const std::string& ptr, const std::string& what, uint64_t max = 0xFFFFFFFFull,
                      uint64_t min = 0) const {
        if (!j.is_number_integer() || (j.is_number_integer() && !j.is_number_unsigned() && j.get<int64_t>() < 0) ||
            j.get<uint64_t>() > max || j.get<uint64_t>() < min) {
            if (j.is_number_integer()) fail(ptr, fmt::format("expected {}, found {}", what, j.dump()));
            expected(ptr, j, what);
        }
        return j.get<uint64_t>();
    }
    uint32_t opt_uint(const json& j, const std::string& ptr, const char* key, uint32_t dflt, const std::string& what,
                      uint64_t max = 0xFFFFFFFFull, uint64_t min = 0) const {
        auto it = j.find(key);
        return it == j.end() ? dflt : uint32_t(get_uint(*it, ptr + "/" + key, what, max, min));
    }
    float get_float(const json& j, const std::string& ptr, const std::string& what) const {
        if (!j.is_number()) expected(ptr, j, what);
        const double v = j.get<double>();
        // A value beyond the float range would silently become infinity.
        if (!(std::fabs(v) <= double(std::numeric_limits<float>::max())))
            fail(ptr, fmt::format("{} is outside the 32-bit float range (at most about 3.4e38)", j.dump()));
        return float(v);
    }
    float opt_float(const json& j, const std::string& ptr, const char* key, float dflt, const std::string& what) const {
        auto it = j.find(key);
        return it == j.end() ? dflt : get_float(*it, ptr + "/" + key, what);
    }
    const std::string& get_string(const json& j, const std::string& ptr, const std::string& what) const {
        if (!j.is_string()) expected(ptr, j, what);
        return j.get_ref<const std::string&>();
    }
    // A 32-bit word: an integer 0..0xFFFFFFFF or a string "0x..." of up to 8 hex digits.
    uint32_t get_word(const json& j, const std::string& ptr, const std::string& what) const {
        if (j.is_string()) {
            const std::string& s = j.get_ref<const std::string&>();
            std::string h = s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0 ? s.substr(2) : s.rfind('#', 0) == 0 ? s.substr(1) : "";
            if (!h.empty() && h.size() <= 8 && h.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos)
                return uint32_t(std::stoul(h, nullptr, 16));
            fail(ptr, fmt::format("expected {}, found \"{}\"", what, s));
        }
        return uint32_t(get_uint(j, ptr, what));
    }

    // ---- Buffers ----
    void buffer(const std::string& name, const json& j, const std::string& ptr) {
        if (!j.is_object()) expected(ptr, j, "a buffer object with \"file\", \"vertices\", \"indices\", \"bytes\" or \"generator\"");
        if (j.contains("generator")) return generator(name, j, ptr);
        Buffer b;
        b.pointer = ptr;
        if (auto f = j.find("format"); f != j.end()) {
            const std::string& fmt_name = get_string(*f, ptr + "/format", "\"INDEX16\" or \"INDEX32\"");
            if (fmt_name == "INDEX16" || fmt_name == "D3DFMT_INDEX16") b.index_size = 2;
            else if (fmt_name == "INDEX32" || fmt_name == "D3DFMT_INDEX32") b.index_size = 4;
            else fail(ptr + "/format", fmt::format("expected \"INDEX16\" or \"INDEX32\", found \"{}\"", fmt_name));
        }
        const int sources = int(j.contains("file")) + int(j.contains("vertices")) + int(j.contains("indices")) +
                            int(j.contains("bytes"));
        if (sources != 1)
            fail(ptr, "expected exactly one of \"file\", \"vertices\", \"indices\", \"bytes\" or \"generator\"");
        if (j.contains("file")) {
            check_keys(j, ptr, {"file", "format"});
            const std::string file = path(get_string(j["file"], ptr + "/file", "a file name"));
            std::string data;
            try {
                data = decl::read_file(file);
            } catch (const std::exception& e) {
                fail(ptr + "/file", e.what());
            }
            b.bytes.assign(data.begin(), data.end());
            if (b.index_size && b.bytes.size() % b.index_size)
                fail(ptr + "/file", fmt::format("{} bytes is not a whole number of {}-byte indices", b.bytes.size(),
                                                b.index_size));
        } else if (j.contains("indices")) {
            check_keys(j, ptr, {"indices", "format"});
            if (!b.index_size) fail(ptr, "missing \"format\": expected \"INDEX16\" or \"INDEX32\" for an index buffer");
            const json& a = j["indices"];
            const std::string ap = ptr + "/indices";
            if (!a.is_array()) expected(ap, a, "an array of indices");
            const uint64_t max = b.index_size == 2 ? 0xFFFF : 0xFFFFFFFFull;
            for (size_t i = 0; i < a.size(); ++i) {
                const uint64_t v = get_uint(a[i], ap + "/" + std::to_string(i),
                                            b.index_size == 2 ? "an index 0..65535" : "an index 0..4294967295", max);
                for (uint32_t k = 0; k < b.index_size; ++k) b.bytes.push_back(uint8_t(v >> (8 * k)));
            }
        } else if (j.contains("bytes")) {
            check_keys(j, ptr, {"bytes", "format"});
            const json& a = j["bytes"];
            if (!a.is_array()) expected(ptr + "/bytes", a, "an array of bytes 0..255");
            for (size_t i = 0; i < a.size(); ++i)
                b.bytes.push_back(uint8_t(get_uint(a[i], ptr + "/bytes/" + std::to_string(i), "a byte 0..255", 255)));
            if (b.index_size && b.bytes.size() % b.index_size)
                fail(ptr + "/bytes", fmt::format("{} bytes is not a whole number of {}-byte indices", b.bytes.size(),
                                                 b.index_size));
        } else {
            check_keys(j, ptr, {"vertices", "layout"});
            if (b.index_size) fail(ptr + "/format", "a \"vertices\" buffer has no index format");
            inline_vertices(b, j, ptr);
        }
        add_buffer(name, std::move(b), ptr);
    }

    void add_buffer(const std::string& name, Buffer b, const std::string& ptr) {
        if (!s_.buffers.emplace(name, std::move(b)).second)
            fail(ptr, fmt::format("buffer \"{}\" is defined twice (a generator defines NAME.STREAM and NAME.indices)", name));
    }

    uint32_t data_type(const json& j, const std::string& ptr) const {
        const std::string& t = get_string(j, ptr, "a D3DVSDT type name (FLOAT1..4, D3DCOLOR, UBYTE4, SHORT2, SHORT4)");
        auto v = decl::data_type_from_name(t);
        if (!v || type_size(*v) == 0)
            fail(ptr, fmt::format("expected a D3DVSDT type name (FLOAT1..4, D3DCOLOR, UBYTE4, SHORT2, SHORT4), found \"{}\"", t));
        return *v;
    }

    void inline_vertices(Buffer& b, const json& j, const std::string& ptr) {
        const json& layout = member(j, ptr, "layout", "an array of D3DVSDT type names, one per element");
        if (!layout.is_array() || layout.empty())
            expected(ptr + "/layout", layout, "a non-empty array of D3DVSDT type names");
        std::vector<uint32_t> types;
        for (size_t i = 0; i < layout.size(); ++i) types.push_back(data_type(layout[i], ptr + "/layout/" + std::to_string(i)));
        const json& verts = j["vertices"];
        const std::string vp = ptr + "/vertices";
        if (!verts.is_array()) expected(vp, verts, "an array of vertices, each an array of values");
        size_t values = 0;
        for (uint32_t t : types) values += t == decl::D3DVSDT_D3DCOLOR ? 1 : t <= decl::D3DVSDT_FLOAT4 ? t + 1 : t == decl::D3DVSDT_SHORT2 ? 2 : 4;
        for (size_t v = 0; v < verts.size(); ++v) {
            const std::string p = vp + "/" + std::to_string(v);
            const json& a = verts[v];
            if (!a.is_array() || a.size() != values)
                fail(p, fmt::format("expected an array of {} values (the layout's elements, a D3DCOLOR as one "
                                    "0xAARRGGBB value), found {}",
                                    values, a.is_array() ? fmt::format("{} values", a.size()) : json_kind(a)));
            size_t k = 0;
            for (uint32_t t : types) {
                auto item = [&](size_t n) -> const json& { return a[k + n]; };
                auto ip = [&](size_t n) { return p + "/" + std::to_string(k + n); };
                if (t <= decl::D3DVSDT_FLOAT4) {
                    for (uint32_t n = 0; n <= t; ++n) {
                        const float f = get_float(item(n), ip(n), "a number");
                        uint8_t buf[4];
                        std::memcpy(buf, &f, 4);
                        b.bytes.insert(b.bytes.end(), buf, buf + 4);
                    }
                    k += t + 1;
                } else if (t == decl::D3DVSDT_D3DCOLOR) {
                    const uint32_t c = get_word(item(0), ip(0), "a colour 0xAARRGGBB (an integer or a \"0x...\" string)");
                    for (int n = 0; n < 4; ++n) b.bytes.push_back(uint8_t(c >> (8 * n)));  // B, G, R, A
                    k += 1;
                } else if (t == decl::D3DVSDT_UBYTE4) {
                    for (size_t n = 0; n < 4; ++n) b.bytes.push_back(uint8_t(get_uint(item(n), ip(n), "an integer 0..255", 255)));
                    k += 4;
                } else {
                    const size_t cnt = t == decl::D3DVSDT_SHORT2 ? 2 : 4;
                    for (size_t n = 0; n < cnt; ++n) {
                        const json& x = item(n);
                        if (!x.is_number_integer() || x.get<int64_t>() < -32768 || x.get<int64_t>() > 32767)
                            fail(ip(n), fmt::format("expected an integer -32768..32767, found {}", x.dump()));
                        const auto u = uint16_t(int16_t(x.get<int64_t>()));
                        b.bytes.push_back(uint8_t(u & 0xFF));
                        b.bytes.push_back(uint8_t(u >> 8));
                    }
                    k += cnt;
                }
            }
        }
    }

    void generator(const std::string& name, const json& j, const std::string& ptr) {
        GenParams p;
        const std::string kind = get_string(j["generator"], ptr + "/generator", "\"grid\", \"sphere\" or \"torus\"");
        const uint64_t kMax = 4096;
        if (kind == "grid") {
            check_keys(j, ptr, {"generator", "columns", "rows", "size", "bones", "indices", "index_order", "seed", "streams"});
            p.shape = Shape::Grid;
            p.columns = opt_uint(j, ptr, "columns", 1, "a number of columns 1..4096", kMax, 1);
            p.rows = opt_uint(j, ptr, "rows", 1, "a number of rows 1..4096", kMax, 1);
            p.size = opt_float(j, ptr, "size", 2.0f, "an edge length");
        } else if (kind == "sphere") {
            check_keys(j, ptr, {"generator", "slices", "stacks", "radius", "bones", "indices", "index_order", "seed", "streams"});
            p.shape = Shape::Sphere;
            p.columns = opt_uint(j, ptr, "slices", 16, "a number of slices 1..4096", kMax, 1);
            p.rows = opt_uint(j, ptr, "stacks", 8, "a number of stacks 1..4096", kMax, 1);
            p.radius = opt_float(j, ptr, "radius", 1.0f, "a radius");
        } else if (kind == "torus") {
            check_keys(j, ptr, {"generator", "rings", "sides", "radius", "tube", "bones", "indices", "index_order", "seed", "streams"});
            p.shape = Shape::Torus;
            p.columns = opt_uint(j, ptr, "rings", 16, "a number of rings 1..4096", kMax, 1);
            p.rows = opt_uint(j, ptr, "sides", 8, "a number of sides 1..4096", kMax, 1);
            p.radius = opt_float(j, ptr, "radius", 1.0f, "a radius");
            p.tube = opt_float(j, ptr, "tube", 0.25f, "a tube radius");
        } else {
            fail(ptr + "/generator", fmt::format("expected \"grid\", \"sphere\" or \"torus\", found \"{}\"", kind));
        }
        p.bones = opt_uint(j, ptr, "bones", 2, "a number of bones 1..256", 256, 1);
        const uint64_t nverts = uint64_t(p.columns + 1) * (p.rows + 1);
        p.index_size = nverts > 65536 ? 4 : 2;
        if (auto it = j.find("indices"); it != j.end()) {
            const std::string ip = ptr + "/indices";
            if (it->is_null()) p.index_size = 0;
            else {
                const std::string& f = get_string(*it, ip, "\"INDEX16\", \"INDEX32\" or null");
                if (f == "INDEX16") p.index_size = 2;
                else if (f == "INDEX32") p.index_size = 4;
                else fail(ip, fmt::format("expected \"INDEX16\", \"INDEX32\" or null, found \"{}\"", f));
                if (p.index_size == 2 && nverts > 65536)
                    fail(ip, fmt::format("{} vertices do not fit 16-bit indices: expected \"INDEX32\"", nverts));
            }
        }
        if (auto it = j.find("index_order"); it != j.end()) {
            const std::string op = ptr + "/index_order";
            const std::string& o = get_string(*it, op, "\"raw\", \"optimised\" or \"random\"");
            if (!index_order_from_name(o, p.order))
                fail(op, fmt::format("expected \"raw\", \"optimised\" or \"random\", found \"{}\"", o));
            if (p.index_size == 0 && p.order != IndexOrder::Raw)
                fail(op, "an index order needs an index buffer (\"indices\" is null)");
        }
        p.seed = uint32_t(opt_uint(j, ptr, "seed", 1, "a random seed 0..4294967295", 0xFFFFFFFFull, 0));
        if (j.contains("seed") && p.order != IndexOrder::Random)
            fail(ptr + "/seed", "\"seed\" is for \"index_order\": \"random\"");
        const json& streams = member(j, ptr, "streams", "an object of streams, each an array of elements");
        const std::string sp = ptr + "/streams";
        if (!streams.is_object() || streams.empty())
            expected(sp, streams, "an object naming each generated stream: {\"NAME\": [elements]}");
        for (auto it = streams.begin(); it != streams.end(); ++it) {
            GenStream gs;
            gs.name = it.key();
            const std::string p1 = sp + "/" + escape_key(it.key());
            if (gs.name == "indices") fail(p1, "\"indices\" is the generated index buffer's name: expected another stream name");
            if (!it->is_array() || it->empty()) expected(p1, *it, "a non-empty array of elements");
            for (size_t e = 0; e < it->size(); ++e) {
                const json& ej = (*it)[e];
                const std::string ep = p1 + "/" + std::to_string(e);
                if (!ej.is_object()) expected(ep, ej, "an element {\"attribute\": ..., \"type\": ...}");
                check_keys(ej, ep, {"attribute", "type", "scale"});
                GenElement ge;
                const std::string& an = get_string(member(ej, ep, "attribute", "an attribute name"), ep + "/attribute",
                                                   "an attribute name");
                if (!attribute_from_name(an, ge.attribute))
                    fail(ep + "/attribute", fmt::format("expected position, normal, texcoord, color, blendweight or "
                                                        "blendindices, found \"{}\"", an));
                ge.type = data_type(member(ej, ep, "type", "a D3DVSDT type name"), ep + "/type");
                ge.scale = opt_float(ej, ep, "scale", 1.0f, "a scale factor (for UBYTE4 and SHORT types)");
                gs.elements.push_back(ge);
            }
            p.streams.push_back(std::move(gs));
        }
        GenResult r;
        try {
            r = generate(p);
        } catch (const std::exception& e) {
            fail(ptr, e.what());
        }
        for (size_t k = 0; k < p.streams.size(); ++k) {
            Buffer b;
            b.bytes = std::move(r.streams[k]);
            b.pointer = sp + "/" + escape_key(p.streams[k].name);
            add_buffer(name + "." + p.streams[k].name, std::move(b), b.pointer);
        }
        if (p.index_size) {
            Buffer b;
            b.bytes = std::move(r.indices);
            b.index_size = p.index_size;
            b.pointer = ptr;
            add_buffer(name + ".indices", std::move(b), ptr);
        }
    }

    // ---- Commands ----
    std::vector<uint32_t> token_list(const json& a, const std::string& ptr) const {
        if (!a.is_array()) expected(ptr, a, "an array of DWORDs");
        std::vector<uint32_t> t;
        for (size_t i = 0; i < a.size(); ++i) t.push_back(get_word(a[i], ptr + "/" + std::to_string(i), "a DWORD (an integer or a \"0x...\" string)"));
        return t;
    }

    std::vector<uint32_t> declaration(const json& j, const std::string& ptr) const {
        const char* what = "a declaration: a file name, {\"text\": \"D3DVSD_STREAM(0), ...\"} or {\"tokens\": [...]}";
        try {
            if (j.is_string()) return decl::load_tokens(path(j.get<std::string>()));
            if (j.is_object()) {
                check_keys(j, ptr, {"text", "tokens"});
                if (j.size() == 1 && j.contains("text"))
                    return decl::parse_text(get_string(j["text"], ptr + "/text", "declaration text"), s_.name + ":" + ptr + "/text");
                if (j.size() == 1 && j.contains("tokens")) return token_list(j["tokens"], ptr + "/tokens");
                fail(ptr, std::string("expected ") + what);
            }
        } catch (const SceneError&) {
            throw;
        } catch (const std::exception& e) {
            fail(ptr, e.what());
        }
        expected(ptr, j, what);
    }

    std::optional<vs::LoadedShader> function(const json& j, const std::string& ptr) const {
        const char* what = "a shader function: a file name, {\"asm\": \"vs.1.1 ...\"}, {\"tokens\": [...]} or null";
        if (j.is_null()) return std::nullopt;
        try {
            if (j.is_string()) return vs::load_shader(path(j.get<std::string>()), s_.const_count);
            if (j.is_object()) {
                check_keys(j, ptr, {"asm", "tokens"});
                if (j.size() == 1 && j.contains("asm"))
                    return vs::shader_from_assembly(get_string(j["asm"], ptr + "/asm", "assembly text"),
                                                    s_.name + ":" + ptr + "/asm", s_.const_count);
                if (j.size() == 1 && j.contains("tokens")) {
                    vs::LoadedShader s;
                    s.bytecode = token_list(j["tokens"], ptr + "/tokens");
                    return s;
                }
                fail(ptr, std::string("expected ") + what);
            }
        } catch (const SceneError&) {
            throw;
        } catch (const std::exception& e) {
            fail(ptr, e.what());
        }
        expected(ptr, j, what);
    }

    std::optional<std::string> buffer_ref(const json& c, const std::string& ptr, bool index) const {
        const json& b = member(c, ptr, "buffer", "a buffer name or null");
        const std::string bp = ptr + "/buffer";
        if (b.is_null()) return std::nullopt;
        const std::string& name = get_string(b, bp, "a buffer name or null");
        auto it = s_.buffers.find(name);
        if (it == s_.buffers.end()) {
            std::string known;
            for (const auto& [k, v] : s_.buffers)
                if (v.is_index() == index) known += (known.empty() ? "" : ", ") + k;
            fail(bp, fmt::format("expected the name of {} buffer, found \"{}\" (known: {})", index ? "an index" : "a vertex",
                                 name, known.empty() ? "none" : known));
        }
        if (it->second.is_index() != index)
            fail(bp, fmt::format("expected {} buffer, \"{}\" is {} buffer", index ? "an index" : "a vertex", name,
                                 index ? "a vertex" : "an index"));
        return name;
    }

    PrimitiveType prim(const json& c, const std::string& ptr) const {
        const char* what = "a primitive type: pointlist, linelist, linestrip, trianglelist, trianglestrip or trianglefan";
        const std::string& t = get_string(member(c, ptr, "type", what), ptr + "/type", what);
        auto p = pipe::parse_primitive_type(t);
        if (!p) fail(ptr + "/type", fmt::format("expected {}, found \"{}\"", what, t));
        return *p;
    }

    void segments(const json& v, const std::string& ptr, float* out, size_t n) const {
        if (!v.is_array() || v.size() != n)
            expected(ptr, v, fmt::format("an array of {} segment counts (numbers), or null", n));
        for (size_t k = 0; k < n; ++k) out[k] = get_float(v[k], ptr + "/" + std::to_string(k), "a segment count");
    }
    tess::Basis basis(const json& i, const std::string& ip) const {
        const char* what = "a basis: bezier, bspline or interpolate";
        std::string b = get_string(member(i, ip, "basis", what), ip + "/basis", what);
        for (auto& ch : b) ch = char(std::tolower(static_cast<unsigned char>(ch)));
        if (b.rfind("d3dbasis_", 0) == 0) b = b.substr(9);
        if (b == "bezier") return tess::Basis::Bezier;
        if (b == "bspline") return tess::Basis::BSpline;
        if (b == "interpolate" || b == "catmull-rom") return tess::Basis::Interpolate;
        fail(ip + "/basis", fmt::format("expected {}, found \"{}\"", what, b));
    }
    tess::Order order(const json& i, const std::string& ip) const {
        const char* what = "an order: linear, cubic or quintic";
        std::string o = get_string(member(i, ip, "order", what), ip + "/order", what);
        for (auto& ch : o) ch = char(std::tolower(static_cast<unsigned char>(ch)));
        if (o.rfind("d3dorder_", 0) == 0) o = o.substr(9);
        // Quadratic is parsed so that the tessellator's own rule (T1) names it.
        if (o == "linear") return tess::Order::Linear;
        if (o == "quadratic") return tess::Order::Quadratic;
        if (o == "cubic") return tess::Order::Cubic;
        if (o == "quintic") return tess::Order::Quintic;
        fail(ip + "/order", fmt::format("expected {}, found \"{}\"", what, o));
    }
    uint32_t positive(const json& i, const std::string& ip, const char* key, const char* what) const {
        return uint32_t(get_uint(member(i, ip, key, what), ip + "/" + key, what, 0xFFFFFFFFull, 1));
    }
    void patch_info(const json& i, const std::string& ip, tess::RectPatchInfo& r) const {
        check_keys(i, ip, {"start_vertex_offset_width", "start_vertex_offset_height", "width", "height", "stride",
                           "basis", "order"});
        r.start_vertex_offset_width = opt_uint(i, ip, "start_vertex_offset_width", 0, "a vertex offset");
        r.start_vertex_offset_height = opt_uint(i, ip, "start_vertex_offset_height", 0, "a vertex offset");
        r.width = positive(i, ip, "width", "a width in vertices");
        r.height = positive(i, ip, "height", "a height in vertices");
        r.stride = positive(i, ip, "stride", "a row stride in vertices");
    }
    void patch_info(const json& i, const std::string& ip, tess::TriPatchInfo& t) const {
        check_keys(i, ip, {"start_vertex_offset", "num_vertices", "basis", "order"});
        t.start_vertex_offset = opt_uint(i, ip, "start_vertex_offset", 0, "a vertex offset");
        t.num_vertices = positive(i, ip, "num_vertices", "a number of control points");
    }
    // DrawRectPatch / DrawTriPatch: handle, pNumSegs (absent or null: NULL) and the patch info
    // (absent or null: NULL, redraw the handle's cached patch).
    template <class Draw>
    Draw patch_draw(const json& c, const std::string& ptr) const {
        constexpr bool tri = std::is_same_v<Draw, DrawTriPatch>;
        check_keys(c, ptr, {"op", "handle", "segments", "info"});
        Draw x;
        x.handle = opt_uint(c, ptr, "handle", 0, "a patch handle (0: not cached)");
        if (c.contains("segments") && !c["segments"].is_null()) {
            typename decltype(x.segments)::value_type sg{};
            segments(c["segments"], ptr + "/segments", sg.data(), sg.size());
            x.segments = sg;
        }
        if (c.contains("info") && !c["info"].is_null()) {
            const json& i = c["info"];
            const std::string ip = ptr + "/info";
            if (!i.is_object())
                expected(ip, i, fmt::format("a {} object (or null to redraw a cached handle)",
                                            tri ? "D3DTRIPATCH_INFO" : "D3DRECTPATCH_INFO"));
            typename decltype(x.info)::value_type info{};
            patch_info(i, ip, info);
            info.basis = basis(i, ip);
            info.order = order(i, ip);
            x.info = info;
        }
        return x;
    }

    // ---- Fixed-function state ----
    static constexpr const char* kTransformStates =
        "a transform state: WORLD, WORLDMATRIX(0..255), VIEW, PROJECTION or TEXTURE0..TEXTURE7 (D3DTS_ prefix "
        "optional), or its D3DTRANSFORMSTATETYPE number";

    uint32_t fvf(const json& j, const std::string& ptr) const {
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

    bool boolean(const json& j, const std::string& ptr) const {
        if (j.is_boolean()) return j.get<bool>();
        if (j.is_number_integer() && (j.get<int64_t>() == 0 || j.get<int64_t>() == 1)) return j.get<int64_t>() == 1;
        if (j.is_number_integer()) fail(ptr, fmt::format("expected true, false, 1 or 0, found {}", j.dump()));
        expected(ptr, j, "true, false, 1 or 0");
    }

    // [r, g, b, a] floats (D3DCOLORVALUE).
    ff::Color color(const json& j, const std::string& ptr) const {
        if (!j.is_array() || j.size() != 4) expected(ptr, j, "a colour [r, g, b, a] of 4 numbers");
        ff::Color c{};
        for (size_t k = 0; k < 4; ++k) c[k] = get_float(j[k], ptr + "/" + std::to_string(k), "a number");
        return c;
    }
    // A D3DCOLOR: 0xAARRGGBB (an integer or a "0x..." string), or [r, g, b, a] floats (each clamped to
    // 0..1 and rounded to 8 bits).
    uint32_t d3dcolor(const json& j, const std::string& ptr) const {
        if (j.is_array()) {
            const ff::Color c = color(j, ptr);
            uint32_t ch[4];
            for (int k = 0; k < 4; ++k) ch[k] = uint32_t(std::lround(std::clamp(c[size_t(k)], 0.0f, 1.0f) * 255.0f));
            return ch[3] << 24 | ch[0] << 16 | ch[1] << 8 | ch[2];
        }
        return get_word(j, ptr, "a D3DCOLOR 0xAARRGGBB (an integer or a \"0x...\" string) or [r, g, b, a]");
    }
    ff::Vec3 vec3(const json& j, const std::string& ptr) const {
        if (!j.is_array() || j.size() != 3) expected(ptr, j, "a vector [x, y, z] of 3 numbers");
        ff::Vec3 v{};
        for (size_t k = 0; k < 3; ++k) v[k] = get_float(j[k], ptr + "/" + std::to_string(k), "a number");
        return v;
    }
    // D3DMATRIX: 4 rows of 4 numbers, or 16 numbers row by row.
    ff::Matrix matrix(const json& j, const std::string& ptr) const {
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

    uint32_t transform_state(const json& j, const std::string& ptr) const {
        std::optional<uint32_t> st;
        if (j.is_number_integer()) st = ff::transform_state(std::to_string(get_uint(j, ptr, kTransformStates)));
        else st = ff::transform_state(get_string(j, ptr, kTransformStates));
        if (!st) fail(ptr, fmt::format("expected {}, found {}", kTransformStates, j.dump()));
        return *st;
    }

    // An enumeration value: a name (with or without `prefix`) or a number among `values`.
    uint32_t enumeration(const json& j, const std::string& ptr, const std::vector<ff::EnumName>& values,
                         const char* prefix) const {
        const std::string what = fmt::format("one of {} ({} prefix optional) or its number", ff::enum_names(values),
                                             prefix);
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

    SetRenderState render_state(const json& c, const std::string& ptr) const {
        check_keys(c, ptr, {"op", "state", "value"});
        const std::string states = "a render state: " + ff::render_state_names() + " (D3DRS_ prefix optional), or its number";
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

    SetTextureStageState texture_stage_state(const json& c, const std::string& ptr) const {
        check_keys(c, ptr, {"op", "stage", "state", "value"});
        SetTextureStageState x;
        x.stage = uint32_t(get_uint(member(c, ptr, "stage", "a texture stage 0..7"), ptr + "/stage", "a texture stage 0..7", 7));
        const char* states = "a texture stage state: TEXCOORDINDEX or TEXTURETRANSFORMFLAGS (D3DTSS_ prefix optional), or "
                             "its number (11, 24)";
        const json& sj = member(c, ptr, "state", states);
        std::string st;
        if (sj.is_number_integer()) {
            const uint64_t n = get_uint(sj, ptr + "/state", states);
            st = n == ff::kTssTexCoordIndex ? "TEXCOORDINDEX" : n == ff::kTssTextureTransformFlags ? "TEXTURETRANSFORMFLAGS" : "";
        } else {
            st = get_string(sj, ptr + "/state", states);
            for (auto& ch : st) ch = char(std::toupper(static_cast<unsigned char>(ch)));
            if (st.rfind("D3DTSS_", 0) == 0) st = st.substr(7);
        }
        const json& v = member(c, ptr, "value", "a value");
        const std::string vp = ptr + "/value";
        if (st == "TEXCOORDINDEX") {
            x.state = ff::kTssTexCoordIndex;
            x.value = texcoordindex(v, vp);
        } else if (st == "TEXTURETRANSFORMFLAGS") {
            x.state = ff::kTssTextureTransformFlags;
            x.value = transform_flags(v, vp);
        } else {
            fail(ptr + "/state", fmt::format("expected {}, found {}", states, sj.dump()));
        }
        return x;
    }

    // Terms of a flags value: a string "A|B|2" split at '|', or one number.
    std::vector<std::string> flag_terms(const json& j, const std::string& ptr, const std::string& what) const {
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
    static bool small_number(const std::string& t, uint64_t& out) {
        if (t.empty() || t.size() > 10 || t.find_first_not_of("0123456789") != std::string::npos) return false;
        out = std::stoull(t);
        return true;
    }

    // D3DTSS_TEXCOORDINDEX: a D3DTSS_TCI_* mode (PASSTHRU when absent) | a set index 0..7.
    uint32_t texcoordindex(const json& j, const std::string& ptr) const {
        const std::string what = "a texture coordinate index 0..7, optionally with a generation mode joined by '|' (" +
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

    // D3DTSS_TEXTURETRANSFORMFLAGS: DISABLE, or COUNT1..4 optionally | PROJECTED.
    uint32_t transform_flags(const json& j, const std::string& ptr) const {
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

    ff::Light light(const json& j, const std::string& ptr) const {
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

    ff::Viewport viewport(const json& j, const std::string& ptr) const {
        if (!j.is_object()) expected(ptr, j, "a D3DVIEWPORT8 object {\"x\", \"y\", \"width\", \"height\", \"minz\", \"maxz\"}");
        check_keys(j, ptr, {"x", "y", "width", "height", "minz", "maxz"});
        ff::Viewport v;  // members absent keep vpsim's default viewport (0, 0, 640 x 480, z 0..1)
        v.x = opt_uint(j, ptr, "x", v.x, "a pixel column");
        v.y = opt_uint(j, ptr, "y", v.y, "a pixel row");
        v.width = opt_uint(j, ptr, "width", v.width, "a width in pixels");
        v.height = opt_uint(j, ptr, "height", v.height, "a height in pixels");
        v.minz = opt_float(j, ptr, "minz", v.minz, "a depth 0..1");
        v.maxz = opt_float(j, ptr, "maxz", v.maxz, "a depth 0..1");
        if (auto e = ff::check_viewport(v))
            fail(j.contains(e->member) ? ptr + "/" + e->member : ptr, fmt::format("SetViewport refuses the viewport: {}", e->message));
        return v;
    }

    ff::Material material(const json& j, const std::string& ptr) const {
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

    Command command(const json& c, const std::string& ptr) {
        if (!c.is_object()) expected(ptr, c, "a command object {\"op\": ...}");
        const char* ops = "CreateVertexShader, SetVertexShader, SetVertexShaderConstant, SetStreamSource, SetIndices, "
                          "DrawPrimitive, DrawIndexedPrimitive, DrawRectPatch, DrawTriPatch, DeletePatch, SetRenderState, "
                          "SetTransform, MultiplyTransform, SetLight, LightEnable, SetViewport, SetMaterial or "
                          "SetTextureStageState";
        const std::string& op = get_string(member(c, ptr, "op", ops), ptr + "/op", std::string("an op: ") + ops);
        Command cmd;
        cmd.pointer = ptr;
        if (op == "CreateVertexShader") {
            check_keys(c, ptr, {"op", "name", "declaration", "function"});
            CreateVertexShader x;
            x.name = get_string(member(c, ptr, "name", "a shader name"), ptr + "/name", "a shader name");
            x.declaration = declaration(member(c, ptr, "declaration", "a declaration"), ptr + "/declaration");
            if (auto f = c.find("function"); f != c.end()) x.function = function(*f, ptr + "/function");
            if (!created_.insert(x.name).second) fail(ptr + "/name", fmt::format("shader \"{}\" is created twice", x.name));
            cmd.body = std::move(x);
        } else if (op == "SetVertexShader") {
            check_keys(c, ptr, {"op", "shader", "fvf"});
            if (c.contains("fvf") == c.contains("shader"))
                fail(ptr, "expected exactly one of \"shader\" (a shader name) or \"fvf\" (an FVF code)");
            if (c.contains("fvf")) {
                cmd.body = SetVertexShader{"", fvf(c["fvf"], ptr + "/fvf")};
            } else {
                const std::string& n = get_string(c["shader"], ptr + "/shader", "a shader name");
                if (!created_.count(n))
                    fail(ptr + "/shader", fmt::format("expected the name of a shader created by an earlier CreateVertexShader, found \"{}\"", n));
                cmd.body = SetVertexShader{n, std::nullopt};
            }
        } else if (op == "SetVertexShaderConstant") {
            check_keys(c, ptr, {"op", "register", "values"});
            SetVertexShaderConstant x;
            x.reg = uint32_t(get_uint(member(c, ptr, "register", "a constant register number"), ptr + "/register",
                                      fmt::format("a constant register 0..{}", s_.const_count - 1), s_.const_count - 1));
            const json& v = member(c, ptr, "values", "an array of [x, y, z, w] vectors");
            const std::string vp = ptr + "/values";
            if (!v.is_array() || v.empty()) expected(vp, v, "a non-empty array of [x, y, z, w] vectors (or of 4N numbers)");
            if (v[0].is_array()) {
                for (size_t i = 0; i < v.size(); ++i) {
                    const std::string ip = vp + "/" + std::to_string(i);
                    if (!v[i].is_array() || v[i].size() != 4) expected(ip, v[i], "an array of 4 numbers [x, y, z, w]");
                    vs::Vec4 q{};
                    for (size_t k = 0; k < 4; ++k) q[k] = get_float(v[i][k], ip + "/" + std::to_string(k), "a number");
                    x.values.push_back(q);
                }
            } else {
                if (v.size() % 4) fail(vp, fmt::format("expected a multiple of 4 numbers, found {}", v.size()));
                for (size_t i = 0; i < v.size(); i += 4) {
                    vs::Vec4 q{};
                    for (size_t k = 0; k < 4; ++k) q[k] = get_float(v[i + k], vp + "/" + std::to_string(i + k), "a number");
                    x.values.push_back(q);
                }
            }
            if (x.reg + x.values.size() > s_.const_count)
                fail(vp, fmt::format("{} vectors from c{} go past the last constant register c{}", x.values.size(), x.reg,
                                     s_.const_count - 1));
            cmd.body = std::move(x);
        } else if (op == "SetStreamSource") {
            check_keys(c, ptr, {"op", "stream", "buffer", "stride"});
            SetStreamSource x;
            x.stream = uint32_t(get_uint(member(c, ptr, "stream", "a stream number 0..15"), ptr + "/stream", "a stream number 0..15", 15));
            x.buffer = buffer_ref(c, ptr, false);
            if (x.buffer)
                x.stride = uint32_t(get_uint(member(c, ptr, "stride", "a positive integer"), ptr + "/stride", "a positive integer",
                                             0xFFFFFFFFull, 1));
            cmd.body = std::move(x);
        } else if (op == "SetIndices") {
            check_keys(c, ptr, {"op", "buffer", "base_vertex"});
            SetIndices x;
            x.buffer = buffer_ref(c, ptr, true);
            x.base_vertex = opt_uint(c, ptr, "base_vertex", 0, "a base vertex index 0..4294967295");
            cmd.body = std::move(x);
        } else if (op == "DrawPrimitive") {
            check_keys(c, ptr, {"op", "type", "start_vertex", "primitive_count"});
            DrawPrimitive x;
            x.type = prim(c, ptr);
            x.start_vertex = opt_uint(c, ptr, "start_vertex", 0, "a vertex index");
            x.primitive_count = uint32_t(get_uint(member(c, ptr, "primitive_count", "a number of primitives"),
                                                  ptr + "/primitive_count", "a positive number of primitives", 0xFFFFFFFFull, 1));
            cmd.body = x;
        } else if (op == "DrawIndexedPrimitive") {
            check_keys(c, ptr, {"op", "type", "min_index", "num_vertices", "start_index", "primitive_count"});
            DrawIndexedPrimitive x;
            x.type = prim(c, ptr);
            x.min_index = opt_uint(c, ptr, "min_index", 0, "a vertex index");
            if (c.contains("num_vertices"))
                x.num_vertices = uint32_t(get_uint(c["num_vertices"], ptr + "/num_vertices", "a positive number of vertices",
                                                   0xFFFFFFFFull, 1));
            x.start_index = opt_uint(c, ptr, "start_index", 0, "an index position");
            if (c.contains("primitive_count"))
                x.primitive_count = uint32_t(get_uint(c["primitive_count"], ptr + "/primitive_count",
                                                      "a positive number of primitives", 0xFFFFFFFFull, 1));
            cmd.body = x;
        } else if (op == "DrawRectPatch") {
            cmd.body = patch_draw<DrawRectPatch>(c, ptr);
        } else if (op == "DrawTriPatch") {
            cmd.body = patch_draw<DrawTriPatch>(c, ptr);
        } else if (op == "DeletePatch") {
            check_keys(c, ptr, {"op", "handle"});
            cmd.body = DeletePatch{uint32_t(get_uint(member(c, ptr, "handle", "a patch handle"), ptr + "/handle",
                                                     "a patch handle"))};
        } else if (op == "SetRenderState") {
            cmd.body = render_state(c, ptr);
        } else if (op == "SetTransform" || op == "MultiplyTransform") {
            check_keys(c, ptr, {"op", "state", "matrix"});
            const uint32_t st = transform_state(member(c, ptr, "state", kTransformStates), ptr + "/state");
            const ff::Matrix m = matrix(member(c, ptr, "matrix", "a matrix"), ptr + "/matrix");
            if (op == "SetTransform") cmd.body = SetTransform{st, m};
            else cmd.body = MultiplyTransform{st, m};
        } else if (op == "SetLight") {
            check_keys(c, ptr, {"op", "index", "light"});
            SetLight x;
            x.index = uint32_t(get_uint(member(c, ptr, "index", "a light index"), ptr + "/index", "a light index 0..4294967295"));
            x.light = light(member(c, ptr, "light", "a D3DLIGHT8 object"), ptr + "/light");
            cmd.body = x;
        } else if (op == "LightEnable") {
            check_keys(c, ptr, {"op", "index", "enable"});
            LightEnable x;
            x.index = uint32_t(get_uint(member(c, ptr, "index", "a light index"), ptr + "/index", "a light index 0..4294967295"));
            x.enable = boolean(member(c, ptr, "enable", "true or false"), ptr + "/enable");
            cmd.body = x;
        } else if (op == "SetViewport") {
            check_keys(c, ptr, {"op", "viewport"});
            cmd.body = SetViewport{viewport(member(c, ptr, "viewport", "a D3DVIEWPORT8 object"), ptr + "/viewport")};
        } else if (op == "SetMaterial") {
            check_keys(c, ptr, {"op", "material"});
            cmd.body = SetMaterial{material(member(c, ptr, "material", "a D3DMATERIAL8 object"), ptr + "/material")};
        } else if (op == "SetTextureStageState") {
            cmd.body = texture_stage_state(c, ptr);
        } else {
            fail(ptr + "/op", fmt::format("expected {}, found \"{}\"", ops, op));
        }
        return cmd;
    }

    // "device": {"behavior_flags": "D3DCREATE_MIXED_VERTEXPROCESSING"}: CreateDevice's vertex
    // processing flag, exactly one of the three (D3DCREATE_ prefix optional).
    void device(const json& d) {
        if (!d.is_object()) expected("/device", d, "an object {\"behavior_flags\": \"D3DCREATE_..._VERTEXPROCESSING\"}");
        check_keys(d, "/device", {"behavior_flags"});
        const char* what = "one of D3DCREATE_HARDWARE_VERTEXPROCESSING, D3DCREATE_SOFTWARE_VERTEXPROCESSING, "
                           "D3DCREATE_MIXED_VERTEXPROCESSING (the D3DCREATE_ prefix optional)";
        std::string f = get_string(member(d, "/device", "behavior_flags", what), "/device/behavior_flags", what);
        if (f.rfind("D3DCREATE_", 0) == 0) f = f.substr(10);
        if (f == "HARDWARE_VERTEXPROCESSING") s_.vertex_processing = VertexProcessing::Hardware;
        else if (f == "SOFTWARE_VERTEXPROCESSING") s_.vertex_processing = VertexProcessing::Software;
        else if (f == "MIXED_VERTEXPROCESSING") s_.vertex_processing = VertexProcessing::Mixed;
        else fail("/device/behavior_flags", fmt::format("expected {}, found \"{}\"", what, f));
    }

    void scene(const json& j) {
        if (!j.is_object()) expected("", j, "a scene object {\"buffers\": {...}, \"commands\": [...]}");
        check_keys(j, "", {"const_count", "buffers", "commands", "description", "device"});
        s_.const_count = opt_uint(j, "", "const_count", 96, "a number of constant registers 1..8192", 8192, 1);
        if (auto d = j.find("device"); d != j.end()) device(*d);
        if (auto b = j.find("buffers"); b != j.end()) {
            if (!b->is_object()) expected("/buffers", *b, "an object of named buffers");
            for (auto it = b->begin(); it != b->end(); ++it) buffer(it.key(), *it, "/buffers/" + escape_key(it.key()));
        }
        const json& cmds = member(j, "", "commands", "an array of commands");
        if (!cmds.is_array()) expected("/commands", cmds, "an array of commands");
        for (size_t i = 0; i < cmds.size(); ++i) s_.commands.push_back(command(cmds[i], "/commands/" + std::to_string(i)));
    }

private:
    Scene& s_;
    std::string base_;
    std::set<std::string> created_;
};

}  // namespace

Scene parse_scene(const nlohmann::json& j, const std::string& base_dir, const std::string& name) {
    Scene s;
    s.name = name;
    Parser(s, base_dir).scene(j);
    return s;
}

Scene load_scene(const std::string& path) {
    std::string text;
    try {
        text = decl::read_file(path);
    } catch (const std::exception& e) {
        std::string m = e.what();  // "path: cannot open: ..."
        if (m.rfind(path + ": ", 0) == 0) m = m.substr(path.size() + 2);
        throw SceneError(path, "", m);
    }
    nlohmann::json j;
    try {
        j = parse_json_located(text);
    } catch (const std::runtime_error& e) {
        throw SceneError(path, "", e.what());
    }
    const size_t slash = path.rfind('/');
    return parse_scene(j, slash == std::string::npos ? "" : path.substr(0, slash), path);
}

}  // namespace vpsim::scene
