// A scene's commands (scene_commands.h).
#include "model/scene/scene_commands.h"
#include "model/decl/decl_io.h"
#include "model/decl/decl_text.h"
#include "model/decl/decl_tokens.h"
#include "model/ff/ff_names.h"

#include <fmt/format.h>

#include <algorithm>

namespace vpsim::scene::parse {

std::vector<uint32_t> CommandReader::token_list(const json& a, const std::string& ptr) const {
    if (!a.is_array()) expected(ptr, a, "an array of DWORDs");
    std::vector<uint32_t> t;
    for (size_t i = 0; i < a.size(); ++i) t.push_back(get_word(a[i], ptr + "/" + std::to_string(i), "a DWORD (an integer or a \"0x...\" string)"));
    return t;
}

std::vector<uint32_t> CommandReader::declaration(const json& j, const std::string& ptr) const {
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

std::optional<vs::LoadedShader> CommandReader::function(const json& j, const std::string& ptr) const {
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

std::optional<std::string> CommandReader::buffer_ref(const json& c, const std::string& ptr, bool index) const {
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

PrimitiveType CommandReader::prim(const json& c, const std::string& ptr) const {
    const char* what = "a primitive type: pointlist, linelist, linestrip, trianglelist, trianglestrip or trianglefan";
    const std::string& t = get_string(member(c, ptr, "type", what), ptr + "/type", what);
    auto p = pipe::parse_primitive_type(t);
    if (!p) fail(ptr + "/type", fmt::format("expected {}, found \"{}\"", what, t));
    return *p;
}

void CommandReader::segments(const json& v, const std::string& ptr, float* out, size_t n) const {
    if (!v.is_array() || v.size() != n)
        expected(ptr, v, fmt::format("an array of {} segment counts (numbers), or null", n));
    for (size_t k = 0; k < n; ++k) out[k] = get_float(v[k], ptr + "/" + std::to_string(k), "a segment count");
}

tess::Basis CommandReader::basis(const json& i, const std::string& ip) const {
    const char* what = "a basis: bezier, bspline or interpolate";
    std::string b = get_string(member(i, ip, "basis", what), ip + "/basis", what);
    for (auto& ch : b) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    if (b.rfind("d3dbasis_", 0) == 0) b = b.substr(9);
    if (b == "bezier") return tess::Basis::Bezier;
    if (b == "bspline") return tess::Basis::BSpline;
    if (b == "interpolate" || b == "catmull-rom") return tess::Basis::Interpolate;
    fail(ip + "/basis", fmt::format("expected {}, found \"{}\"", what, b));
}

tess::Order CommandReader::order(const json& i, const std::string& ip) const {
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

uint32_t CommandReader::positive(const json& i, const std::string& ip, const char* key, const char* what) const {
    return uint32_t(get_uint(member(i, ip, key, what), ip + "/" + key, what, 0xFFFFFFFFull, 1));
}

void CommandReader::patch_info(const json& i, const std::string& ip, tess::RectPatchInfo& r) const {
    check_keys(i, ip, {"start_vertex_offset_width", "start_vertex_offset_height", "width", "height", "stride",
               "basis", "order"});
    r.start_vertex_offset_width = opt_uint(i, ip, "start_vertex_offset_width", 0, "a vertex offset");
    r.start_vertex_offset_height = opt_uint(i, ip, "start_vertex_offset_height", 0, "a vertex offset");
    r.width = positive(i, ip, "width", "a width in vertices");
    r.height = positive(i, ip, "height", "a height in vertices");
    r.stride = positive(i, ip, "stride", "a row stride in vertices");
}

void CommandReader::patch_info(const json& i, const std::string& ip, tess::TriPatchInfo& t) const {
    check_keys(i, ip, {"start_vertex_offset", "num_vertices", "basis", "order"});
    t.start_vertex_offset = opt_uint(i, ip, "start_vertex_offset", 0, "a vertex offset");
    t.num_vertices = positive(i, ip, "num_vertices", "a number of control points");
}

template <class Draw>
Draw CommandReader::patch_draw(const json& c, const std::string& ptr) const {
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

// UpdateBuffer: {"buffer": NAME, "offset": BYTE, "bytes": [...] or "base64": "..."}, the range
// within the buffer.
UpdateBuffer CommandReader::update_buffer(const json& c, const std::string& ptr) const {
    check_keys(c, ptr, {"op", "buffer", "offset", "bytes", "base64"});
    UpdateBuffer x;
    const std::string bp = ptr + "/buffer";
    x.buffer = get_string(member(c, ptr, "buffer", "a buffer name"), bp, "a buffer name");
    const auto it = s_.buffers.find(x.buffer);
    if (it == s_.buffers.end()) {
        std::string known;
        for (const auto& [k, v] : s_.buffers) known += (known.empty() ? "" : ", ") + k;
        fail(bp, fmt::format("expected the name of a buffer, found \"{}\" (known: {})", x.buffer,
                             known.empty() ? "none" : known));
    }
    x.offset = uint32_t(get_uint(member(c, ptr, "offset", "a byte offset"), ptr + "/offset", "a byte offset 0..4294967295"));
    if (c.contains("bytes") == c.contains("base64")) fail(ptr, "expected exactly one of \"bytes\" and \"base64\"");
    std::string ap;
    if (c.contains("base64")) {
        ap = ptr + "/base64";
        get_base64(c["base64"], ap, x.bytes);
        if (x.bytes.empty()) fail(ap, "expected a non-empty base64 string, found \"\"");
    } else {
        const json& a = c["bytes"];
        ap = ptr + "/bytes";
        if (!a.is_array() || a.empty()) expected(ap, a, "a non-empty array of bytes 0..255");
        x.bytes.reserve(a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            const json& v = a[i];  // a valid byte here, get_uint (and the pointer) for the rest
            x.bytes.push_back(v.is_number_unsigned() && v.get<uint64_t>() <= 255
                                  ? uint8_t(v.get<uint64_t>())
                                  : uint8_t(get_uint(v, ap + "/" + std::to_string(i), "a byte 0..255", 255)));
        }
    }
    const uint64_t size = it->second.bytes.size(), end = uint64_t(x.offset) + x.bytes.size();
    if (end > size)
        fail(ap, fmt::format("bytes {}..{} ({} from offset {}) go past the end of buffer \"{}\", which holds {} bytes",
                             x.offset, end - 1, x.bytes.size(), x.offset, x.buffer, size));
    return x;
}

Command CommandReader::command(const json& c, const std::string& ptr) {
    if (!c.is_object()) expected(ptr, c, "a command object {\"op\": ...}");
    const char* ops = "CreateVertexShader, SetVertexShader, SetVertexShaderConstant, SetStreamSource, SetIndices, "
                      "DrawPrimitive, DrawIndexedPrimitive, DrawRectPatch, DrawTriPatch, DeletePatch, SetRenderState, "
                      "SetTransform, MultiplyTransform, SetLight, LightEnable, SetViewport, SetMaterial, "
                      "SetTextureStageState or UpdateBuffer";
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
    } else if (op == "UpdateBuffer") {
        cmd.body = update_buffer(c, ptr);
    } else {
        fail(ptr + "/op", fmt::format("expected {}, found \"{}\"", ops, op));
    }
    return cmd;
}
}  // namespace vpsim::scene::parse
