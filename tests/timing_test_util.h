// What the timing-model tests share (test_timing, test_nway): a run's vertices captured per draw,
// the example topologies, a topology text's build error, and where in a text a located error points.
#pragma once

#include "model/sc/pipeline.h"
#include "model/sc/topology_file.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>
#include <vector>

namespace vpsim::test {

struct Captured {
    sc::RunResult result;
    std::vector<std::vector<uint32_t>> indices;  // per draw
    std::vector<std::vector<vs::VertexOutputs>> vertices;
    bool out_of_order = false;  // a reference arrived out of draw order
};

// A RunOptions::sink that records every emitted vertex into `c`.
inline sc::VertexSink capture_into(Captured& c) {
    return [&c](const sc::DrawState& d, uint64_t ref, uint32_t index, const vs::VertexOutputs& o) {
        if (c.indices.size() <= d.id) c.indices.resize(d.id + 1), c.vertices.resize(d.id + 1);
        if (ref != c.indices[d.id].size()) c.out_of_order = true;
        c.indices[d.id].push_back(index);
        c.vertices[d.id].push_back(o);
    };
}

inline std::string topology_path(const std::string& name) {
    return std::string(VPSIM_SOURCE_DIR) + "/examples/topologies/" + name;
}

// The message a topology text gives when it is built (parsed, units made, links bound, ordered);
// "" when it builds.
inline std::string topology_error(const std::string& text) {
    try {
        const sc::Topology t = sc::parse_topology(text, "T.json");
        sc::RunOptions opt;
        opt.topology = &t;
        sc::check_topology(sc::default_params(t), opt);
    } catch (const sc::TopologyError& e) {
        return e.what();
    }
    return "";
}

// "T.json:L:C: " of the first occurrence of `what` in `text` (`plus` characters on).
inline std::string where(const std::string& text, const std::string& what, size_t plus = 0) {
    REQUIRE(text.find(what) != std::string::npos);
    const size_t at = text.find(what) + plus;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < at; ++i) text[i] == '\n' ? (++line, col = 1) : ++col;
    return fmt::format("T.json:{}:{}: ", line, col);
}

}  // namespace vpsim::test
