// The Python extension module vpsim._core (docs/python.md): the timing model, the functional
// executor, `why`, the presets and the study format, with the golden model's functions from
// golden.cpp. Only conversions live here: the runs are runner.h's. The GIL is released during
// every run, so Python threads go on meanwhile; C++ errors become the module's exceptions with
// the message the CLI prints.
#include "python/bindings/runner.h"

#include "model/common/presets.h"
#include "model/scene/scene.h"
#include "model/study/study.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <new>
#include <stdexcept>

namespace py = pybind11;

namespace vpsim::py_golden {
void bind(py::module_& m);
}

// libsystemc.so needs sc_main (it resolves it when the module is loaded); the module has no main,
// so this is never called. Exported: the module's other symbols are hidden.
extern "C" __attribute__((visibility("default"))) int sc_main(int, char*[]) { return 0; }

namespace {

using vpsim::pyapi::RunSpec;

struct ErrorTag {};
struct InputTag {};
struct SceneTag {};
struct InternalTag {};

py::dict exec_dict(const vpsim::pyapi::ExecOutput& o) {
    py::list draws;
    for (const auto& d : o.draws) {
        py::dict x;
        x["command"] = d.command;
        x["pointer"] = d.pointer;
        x["op"] = d.op;
        x["shader"] = d.shader;
        x["type"] = d.type;
        x["primitives"] = d.primitives;
        x["references"] = d.references;
        x["unique_vertices"] = d.unique;
        x["indices"] = d.indices;
        // float32 bits, references x 46 (vpsim.exec turns them into a numpy array)
        x["outputs"] = py::bytes(reinterpret_cast<const char*>(d.outputs.data()), d.outputs.size() * sizeof(float));
        draws.append(x);
    }
    py::dict r;
    r["scene"] = o.scene;
    r["draws"] = draws;
    r["warnings"] = o.warnings;
    return r;
}

py::dict study_dict(const vpsim::study::Study& s) {
    py::list axes;
    for (const auto& a : s.axes) {
        py::dict d;
        d["keys"] = a.keys;
        d["values"] = a.values;
        axes.append(d);
    }
    py::dict d;
    d["name"] = s.name;
    d["scenes"] = s.scenes;
    d["preset"] = s.preset;
    d["sets"] = s.sets;
    d["profile"] = s.profile;
    d["tess_profile"] = s.tess_profile;
    d["axes"] = axes;
    d["repeats"] = s.repeats;
    d["draws"] = s.draws;
    d["metrics"] = s.metrics;
    return d;
}

void bind_errors(py::module_& m) {
    static py::exception<ErrorTag> error(m, "Error", PyExc_Exception);
    static py::exception<InputTag> input(m, "InputError", error.ptr());
    static py::exception<SceneTag> scene(m, "SceneError", error.ptr());
    static py::exception<InternalTag> internal(m, "InternalError", error.ptr());
    // As `vpsim run` sorts them: a scene command that failed (exit 1), bad input (2), an internal
    // error (3: std::logic_error other than a bad argument).
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const std::bad_alloc&) {
            PyErr_SetString(PyExc_MemoryError, "out of memory");
        } catch (const vpsim::scene::SceneError& e) {
            scene(e.what());
        } catch (const std::invalid_argument& e) {
            input(e.what());
        } catch (const std::logic_error& e) {
            internal(e.what());
        } catch (const std::exception& e) {
            input(e.what());
        }
    });
}

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "vpsim's C++ core: the timing model, the functional executor, why and the golden model";
    bind_errors(m);
    py::class_<RunSpec>(m, "RunSpec")
        .def(py::init<>())
        .def_readwrite("scene_path", &RunSpec::scene_path)
        .def_readwrite("scene_json", &RunSpec::scene_json)
        .def_readwrite("scene_base", &RunSpec::scene_base)
        .def_readwrite("scene_name", &RunSpec::scene_name)
        .def_readwrite("topology_path", &RunSpec::topology_path)
        .def_readwrite("topology_json", &RunSpec::topology_json)
        .def_readwrite("preset", &RunSpec::preset)
        .def_readwrite("config", &RunSpec::config)
        .def_readwrite("sets", &RunSpec::sets)
        .def_readwrite("profile", &RunSpec::profile)
        .def_readwrite("tess_profile", &RunSpec::tess_profile)
        .def_readwrite("draws", &RunSpec::draws);
    m.def("run", [](const RunSpec& s) {
        vpsim::pyapi::RunOutput o;
        {
            py::gil_scoped_release free;
            o = vpsim::pyapi::run_timing(s);
        }
        return py::make_tuple(o.stats_json, o.bottleneck_json, o.warnings, o.host_seconds);
    }, py::arg("spec"));
    m.def("scene_exec", [](const RunSpec& s, bool fast, bool vertices) {
        vpsim::pyapi::ExecOutput o;
        {
            py::gil_scoped_release free;
            o = vpsim::pyapi::scene_exec(s, fast, vertices);
        }
        return exec_dict(o);
    }, py::arg("spec"), py::arg("fast"), py::arg("vertices"));
    m.def("why", &vpsim::pyapi::why, py::arg("spec"), py::arg("factor"), py::arg("only"), py::arg("pairs"),
          py::arg("moves"), py::arg("budget"), py::call_guard<py::gil_scoped_release>());
    m.def("params", &vpsim::pyapi::params_json, py::arg("spec"), py::call_guard<py::gil_scoped_release>());
    m.def("presets", [] {
        py::list l;
        for (const auto& p : vpsim::presets()) {
            py::dict d;
            d["name"] = p.name;
            d["chip"] = p.chip;
            d["description"] = p.description;
            l.append(d);
        }
        return l;
    });
    m.def("load_study", [](const std::string& path) { return study_dict(vpsim::study::load_study(path)); },
          py::arg("path"));
    m.def("parse_axis", [](const std::string& text) {
        const auto a = vpsim::study::parse_axis_flag(text);
        return py::make_tuple(a.keys, a.values);
    }, py::arg("text"));
    m.attr("kOutputFloats") = vpsim::pyapi::kOutputFloats;
    vpsim::py_golden::bind(m);
}
