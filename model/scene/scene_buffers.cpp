// A scene's buffers (scene_buffers.h).
#include "model/scene/scene_buffers.h"
#include "model/decl/decl_io.h"
#include "model/decl/decl_tokens.h"
#include "model/scene/generators.h"
#include "model/common/file_util.h"

#include <fmt/format.h>

namespace vpsim::scene::parse {

void BufferReader::buffer(const std::string& name, const json& j, const std::string& ptr) {
    if (!j.is_object()) expected(ptr, j, "a buffer object with \"file\", \"vertices\", \"indices\", \"bytes\", \"base64\" or \"generator\"");
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
                        int(j.contains("bytes")) + int(j.contains("base64"));
    if (sources != 1)
        fail(ptr, "expected exactly one of \"file\", \"vertices\", \"indices\", \"bytes\", \"base64\" or \"generator\"");
    if (j.contains("file")) {
        check_keys(j, ptr, {"file", "format", "size"});
        const std::string file = path(get_string(j["file"], ptr + "/file", "a file name"));
        std::string data;
        try {
            data = read_file(file);
        } catch (const std::exception& e) {
            fail(ptr + "/file", e.what());
        }
        b.bytes.assign(data.begin(), data.end());
        whole(j, b, ptr + "/file", fmt::format("{} bytes", b.bytes.size()));
    } else if (j.contains("indices")) {
        check_keys(j, ptr, {"indices", "format"});
        if (!b.index_size) fail(ptr, "missing \"format\": expected \"INDEX16\" or \"INDEX32\" for an index buffer");
        const json& a = j["indices"];
        const std::string ap = ptr + "/indices";
        if (!a.is_array()) expected(ap, a, "an array of indices");
        const uint64_t max = b.index_size == 2 ? 0xFFFF : 0xFFFFFFFFull;
        b.bytes.reserve(a.size() * b.index_size);
        for (size_t i = 0; i < a.size(); ++i) {
            // A valid index is taken here; get_uint, with the element's pointer built, only for the
            // rest (the same checks: a recorded frame's buffers are millions of elements).
            const json& x = a[i];
            const uint64_t v = x.is_number_unsigned() && x.get<uint64_t>() <= max
                                   ? x.get<uint64_t>()
                                   : get_uint(x, ap + "/" + std::to_string(i),
                                              b.index_size == 2 ? "an index 0..65535" : "an index 0..4294967295", max);
            for (uint32_t k = 0; k < b.index_size; ++k) b.bytes.push_back(uint8_t(v >> (8 * k)));
        }
    } else if (j.contains("bytes")) {
        check_keys(j, ptr, {"bytes", "format", "size"});
        const json& a = j["bytes"];
        if (!a.is_array()) expected(ptr + "/bytes", a, "an array of bytes 0..255");
        b.bytes.reserve(a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            const json& x = a[i];  // a valid byte here, get_uint (and the pointer) for the rest
            b.bytes.push_back(x.is_number_unsigned() && x.get<uint64_t>() <= 255
                                  ? uint8_t(x.get<uint64_t>())
                                  : uint8_t(get_uint(x, ptr + "/bytes/" + std::to_string(i), "a byte 0..255", 255)));
        }
        whole(j, b, ptr + "/bytes", fmt::format("{} bytes", b.bytes.size()));
    } else if (j.contains("base64")) {
        check_keys(j, ptr, {"base64", "format", "size"});
        const std::string bp = ptr + "/base64";
        const size_t chars = get_base64(j["base64"], bp, b.bytes);
        whole(j, b, bp, fmt::format("{} characters decode to {} bytes", chars, b.bytes.size()));
    } else {
        check_keys(j, ptr, {"vertices", "layout"});
        if (b.index_size) fail(ptr + "/format", "a \"vertices\" buffer has no index format");
        inline_vertices(b, j, ptr);
    }
    add_buffer(name, std::move(b), ptr);
}

void BufferReader::whole(const json& j, const Buffer& b, const std::string& ptr, const std::string& what) const {
    if (auto it = j.find("size"); it != j.end()) {
        const uint64_t size = get_uint(*it, ptr.substr(0, ptr.rfind('/')) + "/size", "a size in bytes",
                                       0xFFFFFFFFFFFFFFFFull);
        if (b.bytes.size() != size) fail(ptr, fmt::format("{}, and \"size\" is {}", what, size));
    }
    if (b.index_size && b.bytes.size() % b.index_size)
        fail(ptr, fmt::format("{}: not a whole number of {}-byte indices", what, b.index_size));
}

void BufferReader::add_buffer(const std::string& name, Buffer b, const std::string& ptr) {
    if (!s_.buffers.emplace(name, std::move(b)).second)
        fail(ptr, fmt::format("buffer \"{}\" is defined twice (a generator defines NAME.STREAM and NAME.indices)", name));
}

uint32_t BufferReader::data_type(const json& j, const std::string& ptr) const {
    const std::string& t = get_string(j, ptr, "a D3DVSDT type name (FLOAT1..4, D3DCOLOR, UBYTE4, SHORT2, SHORT4)");
    auto v = decl::data_type_from_name(t);
    if (!v || type_size(*v) == 0)
        fail(ptr, fmt::format("expected a D3DVSDT type name (FLOAT1..4, D3DCOLOR, UBYTE4, SHORT2, SHORT4), found \"{}\"", t));
    return *v;
}

void BufferReader::inline_vertices(Buffer& b, const json& j, const std::string& ptr) {
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

void BufferReader::generator(const std::string& name, const json& j, const std::string& ptr) {
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
}  // namespace vpsim::scene::parse
