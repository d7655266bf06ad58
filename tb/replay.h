// Replay commands that reproduce: a command line built from every option that shaped a run
// (seed, array, back-pressure, parameters, design files, corpus or not), shell-quoted, the same
// text for the report, the JUnit case and the header of a shrunk file. Generic: the declaration
// decoder's cross-check (tb/xcheck.cpp) and any other unit's build theirs with it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace vpsim::tb {

// A shell word: unchanged when it needs no quoting, else in single quotes.
std::string shell_quote(const std::string& word);

// A probability or other real option as its shortest text that reads back to the same double
// ("0.2", not "0.200000"), so a replay draws exactly the same handshake pattern.
std::string exact_number(double v);

class ReplayCommand {
public:
    // `program`: the command and subcommand words, e.g. {"vpsim", "xcheck"}.
    explicit ReplayCommand(std::vector<std::string> program = {}) : words_(std::move(program)) {}
    ReplayCommand& arg(const std::string& word) {
        words_.push_back(word);
        return *this;
    }
    ReplayCommand& opt(const std::string& name, const std::string& value) {
        words_.push_back(name);
        words_.push_back(value);
        return *this;
    }
    ReplayCommand& opt(const std::string& name, double value) { return opt(name, exact_number(value)); }
    ReplayCommand& opt(const std::string& name, unsigned long long value) { return opt(name, std::to_string(value)); }
    ReplayCommand& opt(const std::string& name, unsigned long value) { return opt(name, std::to_string(value)); }
    ReplayCommand& opt(const std::string& name, long long value) { return opt(name, std::to_string(value)); }
    ReplayCommand& opt(const std::string& name, int value) { return opt(name, std::to_string(value)); }
    ReplayCommand& opt(const std::string& name, const char* value) { return opt(name, std::string(value)); }
    ReplayCommand& args(const std::vector<std::string>& words) {
        words_.insert(words_.end(), words.begin(), words.end());
        return *this;
    }
    const std::vector<std::string>& argv() const { return words_; }
    std::string str() const;  // the words shell-quoted, space-separated

private:
    std::vector<std::string> words_;
};

}  // namespace vpsim::tb
