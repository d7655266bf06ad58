// The golden model's functions in the Python module vpsim._core (docs/python.md, "The golden
// model"): the vertex shader assembler, disassembler, validator and reference interpreter, and
// the declaration's text form and decoder. Pure C++ calls, no SystemC: they run while the GIL is
// released and need no lock.
#include "model/decl/decl_decoder.h"
#include "model/decl/decl_text.h"
#include "model/decl/decl_tokens.h"
#include "model/vs/vs_asm.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_validate.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>

namespace py = pybind11;

namespace vpsim::py_golden {

namespace {

vs::Profile profile_of(const std::vector<std::string>& options, uint32_t const_count) {
    vs::Profile p = vs::Profile::d3d8();
    if (const_count) p.const_count = const_count;
    for (const auto& kv : options) p.set(kv);
    return p;
}

py::dict assemble(const std::string& text, const std::string& filename, uint32_t const_count, bool d3d9) {
    vs::AsmOptions o;
    o.const_count = const_count;
    o.d3d9 = d3d9;
    vs::AsmResult r;
    {
        py::gil_scoped_release free;
        r = vs::assemble(text, filename, o);
    }
    py::list warnings;
    for (const auto& w : r.warnings) warnings.append(w.to_string());
    py::dict d;
    d["bytecode"] = r.bytecode;
    d["const_tokens"] = r.const_tokens;
    d["warnings"] = warnings;
    return d;
}

py::dict validate(const std::vector<uint32_t>& bytecode, const std::vector<std::string>& profile,
                  uint32_t const_count) {
    const vs::Validation v = vs::validate(vs::decode_bytecode(bytecode), profile_of(profile, const_count));
    py::list diags;
    for (const auto& x : v.diagnostics) diags.append(vs::to_string(x));
    py::dict d;
    d["valid"] = v.valid;
    d["diagnostics"] = diags;
    d["slots"] = v.info.slots;
    d["input_reads"] = v.info.input_reads;
    d["outputs_written"] = v.info.outputs_written;
    d["relative"] = v.info.relative;
    return d;
}

// The reference interpreter on one vertex: `inputs` v0..v15 (fewer: the rest 0), `constants`
// c0.. (fewer than the profile's: the rest 0). The program must validate.
py::dict execute(const std::vector<uint32_t>& bytecode, const std::vector<std::array<float, 4>>& inputs,
                 const std::vector<std::array<float, 4>>& constants, const std::vector<std::string>& profile,
                 uint32_t const_count) {
    const vs::Profile p = profile_of(profile, const_count);
    if (inputs.size() > vs::kNumInputs)
        throw std::invalid_argument("inputs: " + std::to_string(inputs.size()) + " registers given; v0..v" +
                                    std::to_string(vs::kNumInputs - 1) + " exist");
    if (constants.size() > p.const_count)
        throw std::invalid_argument("constants: " + std::to_string(constants.size()) + " registers given; the profile has " +
                                    std::to_string(p.const_count));
    const vs::Program prog = vs::decode_bytecode(bytecode);
    const vs::Validation v = vs::validate(prog, p);
    if (!v.valid) {
        std::string m = "the program does not validate:";
        for (const auto& x : v.diagnostics)
            if (x.severity == vs::Severity::Error) m += "\n  " + vs::to_string(x);
        throw std::invalid_argument(m);
    }
    std::array<vs::Vec4, vs::kNumInputs> in{};
    for (size_t i = 0; i < inputs.size(); ++i) in[i] = inputs[i];
    vs::Constants c(p.const_count, vs::Vec4{});
    for (size_t i = 0; i < constants.size(); ++i) c[i] = constants[i];
    vs::VertexOutputs o;
    {
        py::gil_scoped_release free;
        o = vs::execute_reference(prog, p, in, c);
    }
    py::dict d;
    d["oPos"] = o.pos;
    d["oD0"] = o.d0;
    d["oD1"] = o.d1;
    d["oFog"] = o.fog;
    d["oPts"] = o.pts;
    for (size_t t = 0; t < o.t.size(); ++t) d[("oT" + std::to_string(t)).c_str()] = o.t[t];
    return d;
}

py::dict decode_declaration(const std::vector<uint32_t>& tokens, bool lenient, uint32_t const_count,
                            uint32_t max_length) {
    decl::DecoderOptions o;
    o.lenient = lenient;
    o.const_count = const_count;
    o.max_length = max_length;
    const decl::Declaration r = decl::decode(tokens, o);
    py::list diags, events, streams, constants;
    for (const auto& x : r.diagnostics) diags.append(decl::to_string(x));
    for (const auto& e : r.events) events.append(decl::to_string(e));
    for (const auto& s : r.streams) {
        py::list elements;
        for (const auto& e : s.elements) {
            py::dict el;
            el["register"] = e.reg;
            el["name"] = decl::vertex_element_name(e.reg);
            el["type"] = decl::data_type_name(e.type);
            el["offset"] = e.offset;
            el["size"] = e.size;
            elements.append(el);
        }
        py::dict sd;
        sd["stream"] = s.stream;
        sd["tessellator"] = s.tess;
        sd["size"] = s.size;
        sd["elements"] = elements;
        streams.append(sd);
    }
    for (const auto& c : r.constants) {
        py::dict cd;
        cd["register"] = c.reg;
        cd["bits"] = c.bits;
        constants.append(cd);
    }
    py::dict d;
    d["valid"] = r.valid;
    d["length"] = r.length;
    d["diagnostics"] = diags;
    d["events"] = events;
    d["streams"] = streams;
    d["constants"] = constants;
    return d;
}

}  // namespace

void bind(py::module_& m) {
    m.def("assemble", &assemble, py::arg("text"), py::arg("filename"), py::arg("const_count"), py::arg("d3d9"));
    m.def("disassemble", [](const std::vector<uint32_t>& t) { return vs::disassemble_tokens(t); }, py::arg("bytecode"));
    m.def("validate", &validate, py::arg("bytecode"), py::arg("profile"), py::arg("const_count"));
    m.def("execute", &execute, py::arg("bytecode"), py::arg("inputs"), py::arg("constants"), py::arg("profile"),
          py::arg("const_count"));
    m.def("declaration_tokens", [](const std::string& text, const std::string& filename) {
        return decl::parse_text(text, filename);
    }, py::arg("text"), py::arg("filename"));
    m.def("declaration_text", [](const std::vector<uint32_t>& t) { return decl::to_text(t); }, py::arg("tokens"));
    m.def("decode_declaration", &decode_declaration, py::arg("tokens"), py::arg("lenient"), py::arg("const_count"),
          py::arg("max_length"));
}

}  // namespace vpsim::py_golden
