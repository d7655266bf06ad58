// The timing model's probes (model/sc/probes.h): the Perfetto trace is valid JSON whatever the
// span and track names hold.
#include "model/sc/probes.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

using namespace vpsim;

TEST_CASE("Trace span and track names with quotes, backslashes and control characters give valid JSON", "[probes]") {
    const std::string path =
        (std::filesystem::temp_directory_path() / fmt::format("vpsim_test_trace_{}.json", std::random_device{}()))
            .string();
    const std::string name = std::string("a \"quoted\" C:\\path\\ line\nbreak\ttab \x01\x1f end", 40);
    const std::string track = "unit \"x\"\\";
    {
        sc::Probes p("", path, 5000);
        const int t = p.track(track);
        p.span(t, 2, 5, name, "\"draw\": 3");
        p.span(t, 5, 6, "plain");
        p.span(t, 6, 7, "bad UTF-8 \xff\xfe");
        p.commit(10);
    }
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    std::filesystem::remove(path);
    nlohmann::json j;
    REQUIRE_NOTHROW(j = nlohmann::json::parse(text.str()));
    std::vector<nlohmann::json> spans;
    std::string track_name;
    for (const auto& e : j["traceEvents"]) {
        if (e["ph"] == "X") spans.push_back(e);
        if (e["name"] == "thread_name") track_name = e["args"]["name"].get<std::string>();
    }
    CHECK(track_name == track);
    REQUIRE(spans.size() == 3);
    CHECK(spans[0]["name"].get<std::string>() == name);  // the same bytes back
    CHECK(spans[0]["args"]["draw"] == 3);
    CHECK(spans[0]["ts"].get<double>() == Approx(0.01));   // cycle 2 at 5000 ps = 0.01 us
    CHECK(spans[0]["dur"].get<double>() == Approx(0.015));
    CHECK(spans[1]["name"] == "plain");
    CHECK(spans[2]["name"].get<std::string>() == "bad UTF-8 \xEF\xBF\xBD\xEF\xBF\xBD");  // replaced, not thrown
}
