// Every corpus file states what the golden decoder must say about it, on its second line:
//   // expect: valid [warn D8,D15]            (both modes)
//   // expect: error D4 @1                    (both modes)
//   // expect: strict error D4 @1; lenient valid warn D4
// This test holds the golden model to those statements.
#include "model/decl/decl_io.h"
#include "tests/decl_test_util.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace vpsim::decl;

namespace {

struct Expect {
    bool valid = true;
    int rule = 0;
    uint32_t index = 0;
    std::set<int> warnings;
};

Expect parse_expect(const std::string& s) {
    Expect e;
    std::istringstream in(s);
    std::string word;
    in >> word;
    if (word == "valid") {
        std::string w, list;
        if (in >> w >> list && w == "warn") {
            std::replace(list.begin(), list.end(), ',', ' ');
            std::istringstream li(list);
            std::string id;
            while (li >> id) e.warnings.insert(std::stoi(id.substr(1)));
        }
    } else if (word == "error") {
        std::string id, at;
        in >> id >> at;
        e.valid = false;
        e.rule = std::stoi(id.substr(1));
        e.index = uint32_t(std::stoul(at.substr(1)));
    } else {
        throw std::runtime_error("bad expect clause: " + s);
    }
    return e;
}

}  // namespace

TEST_CASE("Every corpus file decodes as its header says, in strict and lenient mode") {
    std::vector<std::filesystem::path> files;
    for (const auto& p : std::filesystem::directory_iterator(std::string(VPSIM_SOURCE_DIR) + "/tb/corpus"))
        if (p.path().extension() == ".decl") files.push_back(p.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 50);
    std::set<int> strict_rules;
    for (const auto& f : files) {
        INFO(f.filename().string());
        std::ifstream in(f);
        std::string first, second;
        std::getline(in, first);
        std::getline(in, second);
        const auto pos = second.find("expect:");
        REQUIRE(pos != std::string::npos);
        const std::string ex = second.substr(pos + 7);
        Expect want[2];
        if (ex.find("strict") == std::string::npos) {
            want[0] = want[1] = parse_expect(ex);
        } else {
            const auto semi = ex.find(';');
            const std::string a = ex.substr(0, semi), b = ex.substr(semi + 1);
            want[0] = parse_expect(a.substr(a.find("strict") + 6));
            want[1] = parse_expect(b.substr(b.find("lenient") + 7));
        }
        const auto tokens = load_tokens(f.string());
        for (int mode = 0; mode < 2; ++mode) {
            INFO((mode ? "lenient" : "strict"));
            const auto d = mode ? lenient(tokens) : strict(tokens);
            if (want[mode].valid) {
                CHECK(d.valid);
                for (int w : want[mode].warnings) CHECK(has_warning(d, w));
            } else {
                CHECK(error_rule(d) == want[mode].rule);
                CHECK(error_index(d) == want[mode].index);
                if (mode == 0) strict_rules.insert(error_rule(d));
            }
        }
    }
    // The corpus holds a violating case of every rule 1..14.
    for (int r = 1; r <= 14; ++r) CHECK(strict_rules.count(r) == 1);
}
