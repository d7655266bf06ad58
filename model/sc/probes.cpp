#include "model/sc/probes.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace vpsim::sc {

Probes::Probes(const std::string& vcd_path, const std::string& trace_path, uint64_t period_ps, TimeSeries* series)
    : period_ps_(period_ps ? period_ps : 1), series_(series) {
    if (!vcd_path.empty()) vcd_ = std::make_unique<AtomicOutput>(vcd_path);
    if (!trace_path.empty()) {
        trace_ = std::make_unique<AtomicOutput>(trace_path);
        trace_->write("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
    }
}

Probes::~Probes() = default;

namespace {
std::string vcd_code(size_t i) {
    std::string c;
    do {
        c += char('!' + i % 94);
        i /= 94;
    } while (i);
    return c;
}
// Any text as a JSON string literal: quotes, backslashes and control characters escaped,
// invalid UTF-8 replaced (U+FFFD) rather than thrown on.
std::string json_string(const std::string& text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
std::string binary(uint64_t v, int width) {
    if (width == 1) return v ? "1" : "0";
    std::string s = "b";
    bool started = false;
    for (int b = 63; b >= 0; --b) {
        const bool bit = v >> b & 1u;
        if (bit) started = true;
        if (started) s += bit ? '1' : '0';
    }
    if (!started) s += '0';
    return s + " ";
}
}  // namespace

int Probes::vcd_signal(const std::string& scope, const std::string& name, int width) {
    if (!vcd_ && !series_) return -1;
    signals_.push_back({scope, name, vcd_code(signals_.size()), width, 0, false, false});
    const int id = int(signals_.size() - 1);
    if (series_) series_->signal(id, scope, name);
    return id;
}

void Probes::vcd_header() {
    std::string h = "$date vpsim run $end\n$version vpsim timing model $end\n$timescale 1ps $end\n";
    std::map<std::string, std::vector<size_t>> scopes;
    for (size_t i = 0; i < signals_.size(); ++i) scopes[signals_[i].scope].push_back(i);
    h += "$scope module vpsim $end\n";
    for (const auto& [scope, ids] : scopes) {
        std::string name = scope;
        std::replace(name.begin(), name.end(), '.', '_');
        h += fmt::format("$scope module {} $end\n", name);
        for (size_t i : ids)
            h += fmt::format("$var wire {} {} {} $end\n", signals_[i].width, signals_[i].code, signals_[i].name);
        h += "$upscope $end\n";
    }
    h += "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n";
    for (auto& s : signals_) {
        h += binary(0, s.width) + s.code + "\n";
        s.declared_value = true;
    }
    h += "$end\n";
    vcd_->write(h);
    header_written_ = true;
}

void Probes::vcd_flush_time() {
    if (dirty_.empty()) return;
    buf_ = fmt::format("#{}\n", vcd_time_ * period_ps_);
    for (int id : dirty_) {
        auto& s = signals_[size_t(id)];
        s.dirty = false;
        buf_ += binary(s.value, s.width) + s.code + "\n";
    }
    dirty_.clear();
    vcd_->write(buf_);
}

void Probes::vcd_change(int id, uint64_t t, uint64_t value) {
    if (id < 0) return;
    if (series_) series_->change(id, t, value);
    if (!vcd_) return;
    if (!header_written_) vcd_header();
    if (t != vcd_time_) {
        vcd_flush_time();
        vcd_time_ = t;
    }
    auto& s = signals_[size_t(id)];
    if (s.width < 64) value &= (uint64_t(1) << s.width) - 1;
    s.value = value;
    if (!s.dirty) {
        s.dirty = true;
        dirty_.push_back(id);
    }
}

int Probes::track(const std::string& name) {
    if (!trace_) return -1;
    tracks_.push_back(name);
    const int tid = int(tracks_.size());
    trace_->write(fmt::format("{}{{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": {}, \"args\": "
                              "{{\"name\": {}}}}},\n{{\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": 1, "
                              "\"tid\": {}, \"args\": {{\"sort_index\": {}}}}}",
                              first_event_ ? "" : ",\n", tid, json_string(name), tid, tid));
    first_event_ = false;
    return tid;
}

void Probes::span(int track, uint64_t begin, uint64_t end, const std::string& name, const std::string& args) {
    if (track < 0 || !trace_) return;
    // Microseconds with picosecond resolution.
    const double ts = double(begin * period_ps_) / 1e6, dur = double((end - begin) * period_ps_) / 1e6;
    // The name is any text (a scene's command or patch description): escaped as a JSON string.
    trace_->write(fmt::format("{}{{\"name\": {}, \"ph\": \"X\", \"pid\": 1, \"tid\": {}, \"ts\": {:.6f}, "
                              "\"dur\": {:.6f}{}{}{}}}",
                              first_event_ ? "" : ",\n", json_string(name), track, ts, dur,
                              args.empty() ? "" : ", \"args\": {",
                              args, args.empty() ? "" : "}"));
    first_event_ = false;
}

void Probes::commit(uint64_t end_cycle) {
    if (series_) series_->finish(end_cycle);
    if (vcd_) {
        if (!header_written_) vcd_header();
        vcd_flush_time();
        vcd_->write(fmt::format("#{}\n", end_cycle * period_ps_));
        vcd_->commit();
    }
    if (trace_) {
        trace_->write(fmt::format("{}{{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {{\"name\": "
                                  "\"vpsim pipeline\"}}}}\n]}}\n",
                                  first_event_ ? "" : ",\n"));
        trace_->commit();
    }
}

}  // namespace vpsim::sc
