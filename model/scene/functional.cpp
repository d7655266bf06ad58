#include "model/scene/functional.h"

#include "model/decl/decl_tokens.h"
#include "model/vs/vs_validate.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace vpsim::scene {

ShadeFn reference_shade() {
    return [](const ShadeState& st, const uint32_t* idx, size_t n, vs::VertexOutputs* out) {
        for (size_t k = 0; k < n; ++k)
            out[k] = vs::execute_reference(*st.shader->program, *st.profile,
                                           vs::fetch_vertex(st.shader->decl, *st.streams, idx[k]), *st.constants);
    };
}

namespace {


class Runner {
public:
    Runner(const Scene& s, const vs::Profile& profile, const ShadeFn& shade)
        : s_(s), profile_(profile), shade_(shade ? shade : reference_shade()) {
        profile_.const_count = s.const_count;
        constants_.assign(s.const_count, vs::Vec4{});
    }

    FunctionalResult run() {
        for (size_t i = 0; i < s_.commands.size(); ++i) {
            const Command& c = s_.commands[i];
            std::visit([&](const auto& body) { exec(i, c.pointer, body); }, c.body);
        }
        return std::move(result_);
    }

private:
    [[noreturn]] void fail(const std::string& ptr, const std::string& msg) const { throw s_.error(ptr, msg); }

    void exec(size_t, const std::string& ptr, const CreateVertexShader& c) {
        decl::DecoderOptions dopt;
        dopt.const_count = s_.const_count;
        const vs::LoadedShader* fn = c.function ? &*c.function : nullptr;
        if (fn)
            for (const auto& w : fn->warnings) result_.warnings.push_back(fmt::format("{}: {}: {}", s_.name, ptr, w));
        auto created = std::make_unique<vs::CreatedShader>(vs::create_vertex_shader(c.declaration, fn, dopt, profile_));
        std::vector<std::string> errors;
        for (const auto& d : created->decl.diagnostics)
            (d.severity == decl::Severity::Error ? errors : result_.warnings)
                .push_back((d.severity == decl::Severity::Error ? "declaration: " : fmt::format("{}: {}: declaration: ", s_.name, ptr)) +
                           decl::to_string(d));
        for (const auto& d : created->validation.diagnostics)
            (d.severity == vs::Severity::Error ? errors : result_.warnings)
                .push_back((d.severity == vs::Severity::Error ? "function: " : fmt::format("{}: {}: function: ", s_.name, ptr)) +
                           vs::to_string(d));
        if (!created->valid) {
            std::string msg = fmt::format("CreateVertexShader \"{}\" failed", c.name);
            for (const auto& e : errors) msg += "\n  " + e;
            fail(ptr, msg);
        }
        shaders_[c.name] = std::move(created);
    }

    void exec(size_t, const std::string& ptr, const SetVertexShader& c) {
        auto it = shaders_.find(c.name);
        if (it == shaders_.end()) fail(ptr + "/shader", fmt::format("shader \"{}\" has not been created", c.name));
        current_ = it->second.get();
        current_name_ = c.name;
        // The declaration's CONST tokens (then the function's defs) go to constant memory.
        for (const auto& w : current_->decl.constants)
            for (size_t k = 0; k < 4; ++k) constants_[w.reg][k] = decl::bits_float(w.bits[k]);
    }

    void exec(size_t, const std::string&, const SetVertexShaderConstant& c) {
        for (size_t k = 0; k < c.values.size(); ++k) constants_[c.reg + k] = c.values[k];
    }

    void exec(size_t, const std::string& ptr, const SetStreamSource& c) {
        if (!c.buffer) {
            streams_[c.stream] = {};
            return;
        }
        auto it = s_.buffers.find(*c.buffer);
        if (it == s_.buffers.end()) fail(ptr + "/buffer", fmt::format("no buffer \"{}\"", *c.buffer));
        streams_[c.stream] = {it->second.bytes.data(), it->second.bytes.size(), c.stride, true};
    }

    void exec(size_t, const std::string& ptr, const SetIndices& c) {
        indices_ = nullptr;
        base_vertex_ = c.base_vertex;
        if (!c.buffer) return;
        auto it = s_.buffers.find(*c.buffer);
        if (it == s_.buffers.end() || !it->second.is_index())
            fail(ptr + "/buffer", fmt::format("no index buffer \"{}\"", *c.buffer));
        indices_ = &it->second;
        index_name_ = *c.buffer;
    }

    void check_shader(const std::string& ptr) const {
        if (!current_) fail(ptr, "no vertex shader is set: expected a SetVertexShader before the draw");
        if (!current_->program)
            fail(ptr, fmt::format("shader \"{}\" is fixed function (no function): vpsim draws programmable shaders only",
                                  current_name_));
        try {
            vs::check_streams(current_->decl, streams_);
        } catch (const vs::FetchError& e) {
            fail(ptr, fmt::format("shader \"{}\": {}", current_name_, e.what()));
        }
    }

    void exec(size_t i, const std::string& ptr, const DrawPrimitive& c) {
        check_shader(ptr);
        const uint64_t n = pipe::vertex_count(c.type, c.primitive_count);
        if (uint64_t(c.start_vertex) + n > 0x100000000ull)
            fail(ptr, fmt::format("vertices {}..{} go past index 0xFFFFFFFF", c.start_vertex, c.start_vertex + n - 1));
        DrawResult d = start(i, ptr, false, c.type, c.primitive_count);
        d.indices.resize(n);
        for (uint64_t k = 0; k < n; ++k) d.indices[k] = uint32_t(c.start_vertex + k);
        shade(ptr, d);
    }

    void exec(size_t i, const std::string& ptr, const DrawIndexedPrimitive& c) {
        check_shader(ptr);
        if (!indices_) fail(ptr, "no index buffer is set: expected a SetIndices before the draw");
        const uint64_t have = indices_->index_count();
        uint64_t prims = 0;
        if (c.primitive_count) {
            prims = *c.primitive_count;
        } else {
            prims = c.start_index < have ? pipe::primitive_count(c.type, have - c.start_index) : 0;
            if (prims == 0)
                fail(ptr, fmt::format("index buffer \"{}\" holds {} indices, no {} from start_index {}: expected a "
                                      "primitive_count",
                                      index_name_, have, pipe::primitive_type_name(c.type), c.start_index));
        }
        const uint64_t n = pipe::vertex_count(c.type, prims);
        if (uint64_t(c.start_index) + n > have)
            fail(ptr, fmt::format("{} {} read indices {}..{}, but index buffer \"{}\" holds {}", prims,
                                  pipe::primitive_type_name(c.type), c.start_index, c.start_index + n - 1, index_name_, have));
        DrawResult d = start(i, ptr, true, c.type, uint32_t(prims));
        d.indices.resize(n);
        for (uint64_t k = 0; k < n; ++k) {
            const uint32_t raw = indices_->index(c.start_index + k);
            if (c.num_vertices && (raw < c.min_index || uint64_t(raw) >= uint64_t(c.min_index) + *c.num_vertices))
                fail(ptr, fmt::format("index {} (position {} in \"{}\") is outside min_index..min_index+num_vertices-1 "
                                      "= {}..{}",
                                      raw, c.start_index + k, index_name_, c.min_index,
                                      uint64_t(c.min_index) + *c.num_vertices - 1));
            const uint64_t v = uint64_t(raw) + base_vertex_;
            if (v > 0xFFFFFFFFull)
                fail(ptr, fmt::format("index {} + base_vertex {} goes past vertex 0xFFFFFFFF", raw, base_vertex_));
            d.indices[k] = uint32_t(v);
        }
        shade(ptr, d);
    }

    DrawResult start(size_t i, const std::string& ptr, bool indexed, PrimitiveType t, uint32_t prims) const {
        DrawResult d;
        d.command = i;
        d.pointer = ptr;
        d.indexed = indexed;
        d.type = t;
        d.primitives = prims;
        d.outputs_written = current_->validation.info.outputs_written;
        d.shader = current_name_;
        return d;
    }

    void shade(const std::string& ptr, DrawResult& d) {
        std::vector<uint32_t> unique = d.indices;
        std::sort(unique.begin(), unique.end());
        unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
        std::vector<vs::VertexOutputs> shaded(unique.size());
        const ShadeState st{current_, &profile_, &streams_, &constants_};
        try {
            shade_(st, unique.data(), unique.size(), shaded.data());
        } catch (const vs::FetchError& e) {
            fail(ptr, fmt::format("shader \"{}\": {}", current_name_, e.what()));
        }
        d.unique_vertices = uint32_t(unique.size());
        d.vertices.resize(d.indices.size());
        for (size_t k = 0; k < d.indices.size(); ++k)
            d.vertices[k] = shaded[size_t(std::lower_bound(unique.begin(), unique.end(), d.indices[k]) - unique.begin())];
        result_.draws.push_back(std::move(d));
    }

    const Scene& s_;
    vs::Profile profile_;
    ShadeFn shade_;
    vs::Constants constants_;
    std::map<std::string, std::unique_ptr<vs::CreatedShader>> shaders_;
    const vs::CreatedShader* current_ = nullptr;
    std::string current_name_;
    vs::Streams streams_{};
    const Buffer* indices_ = nullptr;
    std::string index_name_;
    uint32_t base_vertex_ = 0;
    FunctionalResult result_;
};

}  // namespace

FunctionalResult run_functional(const Scene& scene, const vs::Profile& profile, const ShadeFn& shade) {
    return Runner(scene, profile, shade).run();
}

}  // namespace vpsim::scene
