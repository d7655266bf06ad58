// vpsim xcheck: the token-array cross-check of the RTL declaration decoder against the model.
#include "model/cli/commands.h"
#include "tb/xcheck.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace vpsim::cli {

namespace {

struct XcheckArgs {
    tb::XcheckOptions opt;
    bool json = false;
    bool no_corpus = false;
    bool corpus_given = false;
};

int run_xcheck(XcheckArgs& a) {
    tb::XcheckOptions opt = a.opt;
    if (a.no_corpus) {
        opt.corpus.clear();
    } else if (!a.corpus_given) {
        opt.corpus = data_path("tb/corpus");
        if (opt.corpus.empty()) {
            std::fprintf(stderr, "vpsim xcheck: the directed corpus %s; or pass --corpus DIR or --no-corpus\n",
                         data_not_found("tb/corpus").c_str());
            return 2;
        }
    }
    opt.progress = !a.json && isatty(2);
    tb::XcheckReport r;
    try {
        r = tb::run_xcheck(opt);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim xcheck: %s\n", e.what());
        return 2;
    }
    const bool check_coverage = opt.only < 0;
    const double rate = r.seconds > 0 ? double(r.arrays) / r.seconds : 0;
    if (a.json) {
        nlohmann::ordered_json j;
        j["bench"] = opt.systemc ? "systemc" : "fast";
        j["seed"] = opt.seed;
        j["random"] = opt.random;
        j["corpus"] = opt.corpus;
        j["arrays"] = r.arrays;
        j["tokens"] = r.tokens;
        j["events"] = r.events;
        j["cycles"] = r.cycles;
        j["mismatches"] = r.mismatches;
        j["seconds"] = r.seconds;
        j["arrays_per_second"] = rate;
        j["coverage_holes"] = check_coverage ? r.holes : std::vector<std::string>{};
        j["failures"] = nlohmann::ordered_json::array();
        for (const auto& m : r.failures)
            j["failures"].push_back({{"origin", m.array.origin},
                                     {"index", m.array.index},
                                     {"lenient", m.array.lenient},
                                     {"first_difference", m.first_difference},
                                     {"shrunk_tokens", m.shrunk.size()},
                                     {"file", m.written_to}});
        const auto& c = r.coverage;
        j["coverage"] = {{"token_kinds", c.token_kinds}, {"data_types", c.data_types},
                         {"events_model", c.events[0]}, {"events_rtl", c.events[1]},
                         {"rules_model", c.rules[0]},   {"rules_rtl", c.rules[1]},
                         {"lenient_rules_model", c.lenient_rules[0]}, {"lenient_rules_rtl", c.lenient_rules[1]}};
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << r.coverage.table();
        std::cout << fmt::format("bench: {} ({})\n", opt.systemc ? "SystemC (RTL in SystemC mode vs DeclDecoderUnit)"
                                                                : "fast (Verilated RTL in C++ mode vs golden model)",
                                 opt.corpus.empty() ? fmt::format("{} random arrays, seed {}", opt.random, opt.seed)
                                                    : fmt::format("corpus {} + {} random arrays, seed {}", opt.corpus,
                                                                  opt.random, opt.seed));
        std::cout << fmt::format("arrays checked: {}  tokens: {}  events: {}  cycles: {}\n", r.arrays, r.tokens,
                                 r.events, r.cycles);
        std::cout << fmt::format("mismatches: {}\n", r.mismatches);
        if (check_coverage) {
            if (r.holes.empty())
                std::cout << "coverage: complete\n";
            else
                for (const auto& h : r.holes) std::cout << "coverage hole: " << h << "\n";
        }
        std::cout << fmt::format("time: {:.3f} s  arrays/s: {:.0f}\n", r.seconds, rate);
    }
    return r.mismatches == 0 && (!check_coverage || r.holes.empty()) ? 0 : 1;
}

}  // namespace

void add_xcheck_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<XcheckArgs>();
    a->opt.random = 100000;
    CLI::App* c = app.add_subcommand(
        "xcheck",
        "Cross-check the RTL declaration decoder against the model on the directed corpus and on seeded random "
        "token arrays (valid, mutated and raw), with random back-pressure.\nExit status: 0 with no mismatch and "
        "full coverage, 1 otherwise, 2 usage or I/O error.");
    c->add_option("--random", a->opt.random, "Random arrays to check (default 100000)")->check(CLI::Range(0ull, 1ull << 40));
    c->add_option("--seed", a->opt.seed, "Seed of the random arrays (default 1)");
    c->add_option("--only", a->opt.only, "Check only random array number N of --seed (replay a reported mismatch)")
        ->check(CLI::NonNegativeNumber);
    c->add_option("--corpus", a->opt.corpus,
                  "Directory of token arrays (.decl/.hex/.bin), each run in strict and lenient mode "
                  "(default: tb/corpus in vpsim's data directory, <build>/share/vpsim)")
        ->each([a](const std::string&) { a->corpus_given = true; });
    c->add_flag("--no-corpus", a->no_corpus, "Skip the corpus")->excludes("--corpus");
    c->add_flag("--systemc", a->opt.systemc,
                "Run the SystemC bench (Verilated RTL in SystemC mode against the SystemC unit, event lists and "
                "cycle counts) instead of the fast path");
    c->add_option("--mismatch-dir", a->opt.mismatch_dir, "Where shrunk failing arrays are written (default .)")
        ->check(CLI::ExistingDirectory);
    c->add_option("--vcd", a->opt.vcd, "With --systemc: write waveforms PREFIX_model.vcd and PREFIX_rtl.vcd")
        ->needs("--systemc");
    c->add_option("--out-ready", a->opt.bp.out_ready, "Probability that the event sink is ready in a cycle (default 0.7)")
        ->check(CLI::Range(0.05, 1.0));
    c->add_option("--in-valid", a->opt.bp.in_valid, "Probability that the source offers a token in a cycle (default 0.9)")
        ->check(CLI::Range(0.05, 1.0));
    c->add_flag("--json", a->json, "Print one JSON object instead of the table");
    c->callback([a, &exit_code] { exit_code = run_xcheck(*a); });
}

}  // namespace vpsim::cli
