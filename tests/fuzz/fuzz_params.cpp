// Parameters (model/common/params.h): `--set` assignments and config files against tables of
// every type. Properties: only ParamError escapes; an accepted value has its parameter's type
// and lies in its documented range (bool; uint/int within [min, max]; double finite-or-as-given
// within its bounds; enum one of the allowed names); a rejected --set or config changes nothing
// (the ParamSet's JSON before and after are equal); to_json() applies back to the same set.
//
// Input: first byte < 128: the rest is --set assignments, one per line; else a config file's
// text, applied with apply_config_file (through a temporary file) and apply_json.
#include "fuzz_util.h"

#include "model/common/json_error.h"
#include "model/common/params.h"

#include <unistd.h>

#include <cmath>
#include <fstream>

using namespace vpsim;
using json = nlohmann::json;

namespace {

std::vector<ParamTable> tables() {
    std::vector<ParamTable> t;
    t.push_back(ParamTable("vertex_alu", "ALU")
                    .add_bool("coissue", true, "co-issue", "assumed")
                    .add_uint("engines", "", 2, "engines", "assumed", 1, 16)
                    .add_enum("policy", {"fifo", "lru", "random"}, "fifo", "policy", "assumed")
                    .add_double("clock", "MHz", 200.0, "clock", "assumed", 1.0, 2000.0));
    t.push_back(ParamTable("memory", "memory")
                    .add_uint("latency", "cycles", 100, "latency", "assumed")
                    .add_int("bias", "cycles", -2, "bias", "assumed", -100, 100)
                    .add_int("offset", "", 0, "any int", "assumed")
                    .add_double("ratio", "", 0.5, "unbounded", "assumed")
                    .add_double("fraction", "", 0.25, "0..1", "assumed", 0.0, 1.0));
    t.push_back(ParamTable("cache", "cache").add_uint("entries", "entries", 24, "entries", "assumed", 0, 4096));
    return t;
}

void check_in_range(const ParamSet& ps) {
    for (const ParamTable& t : ps.tables())
        for (const ParamDef& d : t.params) {
            const std::string key = t.unit + "." + d.name;
            const json& v = ps.value(key);
            switch (d.type) {
            case ParamType::Bool: FUZZ_CHECK(v.is_boolean(), "%s = %s", key.c_str(), v.dump().c_str()); break;
            case ParamType::Uint: {
                FUZZ_CHECK(v.is_number_unsigned(), "%s = %s is not unsigned", key.c_str(), v.dump().c_str());
                const uint64_t u = v.get<uint64_t>();
                FUZZ_CHECK((!d.min || double(u) >= *d.min) && (!d.max || double(u) <= *d.max), "%s = %llu out of range",
                           key.c_str(), (unsigned long long)u);
                break;
            }
            case ParamType::Int: {
                FUZZ_CHECK(v.is_number_integer(), "%s = %s is not an integer", key.c_str(), v.dump().c_str());
                const int64_t i = v.is_number_unsigned() ? int64_t(v.get<uint64_t>()) : v.get<int64_t>();
                FUZZ_CHECK(!v.is_number_unsigned() || v.get<uint64_t>() <= uint64_t(INT64_MAX), "%s too big", key.c_str());
                FUZZ_CHECK((!d.min || double(i) >= *d.min) && (!d.max || double(i) <= *d.max), "%s = %lld out of range",
                           key.c_str(), (long long)i);
                break;
            }
            case ParamType::Double: {
                FUZZ_CHECK(v.is_number(), "%s = %s is not a number", key.c_str(), v.dump().c_str());
                const double x = v.get<double>();
                FUZZ_CHECK(!std::isnan(x), "%s is NaN", key.c_str());
                FUZZ_CHECK((!d.min || x >= *d.min) && (!d.max || x <= *d.max), "%s = %g out of range", key.c_str(), x);
                break;
            }
            case ParamType::Enum: {
                FUZZ_CHECK(v.is_string(), "%s = %s is not a string", key.c_str(), v.dump().c_str());
                bool ok = false;
                for (const std::string& a : d.allowed) ok |= a == v.get<std::string>();
                FUZZ_CHECK(ok, "%s = %s is not allowed", key.c_str(), v.dump().c_str());
                break;
            }
            }
        }
}

void check_round_trip(const ParamSet& ps) {
    const std::string before = ps.to_json().dump();
    ParamSet again(tables());
    try {
        again.apply_json(json::parse(before), "to_json");
    } catch (const ParamError& e) {
        FUZZ_CHECK(false, "to_json() does not apply back: %s\n%s", e.what(), before.c_str());
    }
    FUZZ_CHECK(again.to_json().dump() == before, "to_json() round trip changes values");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 16 * 1024) return fuzz::kReject;
    fuzz::Reader in(data, size);
    const uint8_t mode = in.byte();
    const std::string text = in.rest();
    ParamSet ps(tables());

    if (mode < 128) {
        size_t start = 0;
        while (start <= text.size()) {
            size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            const std::string line = text.substr(start, end - start);
            start = end + 1;
            const std::string before = ps.to_json().dump();
            try {
                ps.apply_set(line);
            } catch (const ParamError& e) {
                FUZZ_CHECK(ps.to_json().dump() == before, "a rejected --set '%s' changed the set", line.c_str());
                FUZZ_CHECK(*e.what() != '\0', "empty message");
            }
            check_in_range(ps);
        }
        check_round_trip(ps);
        return 0;
    }

    static const std::string path = "/tmp/vpsim-fuzz-params-" + std::to_string(getpid()) + ".json";
    {
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f.write(text.data(), std::streamsize(text.size()));
    }
    for (int how = 0; how < 2; ++how) {
        ParamSet p(tables());
        const std::string before = p.to_json().dump();
        try {
            if (how == 0) {
                p.apply_config_file(path);
            } else {
                json j;
                try {
                    j = parse_json_located(text);
                } catch (const std::runtime_error&) {
                    continue;
                }
                p.apply_json(j, "fuzz.json");
            }
        } catch (const ParamError& e) {
            FUZZ_CHECK(p.to_json().dump() == before, "a rejected config changed the set (%s)", e.what());
            continue;
        }
        check_in_range(p);
        check_round_trip(p);
    }
    return 0;
}
