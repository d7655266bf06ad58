// What a run can record besides statistics (docs/timing-model.md, "Waveforms and traces"):
//
// * a VCD waveform (--vcd FILE): per unit its state (0 idle, 1 busy, 2+ stall reason) and per
//   channel its occupancy, full flag and push/pop handshake counts; one VCD time step is one
//   picosecond, a cycle is the modelled clock period. Values are written on change only, so
//   skipped idle cycles cost nothing. Viewable in GTKWave (one scope per unit and channel).
// * a Chrome / Perfetto trace (--trace FILE.json): one track per unit (per context or buffer
//   where vertices overlap), a span per vertex per unit and per command in the front end.
//   Open in https://ui.perfetto.dev or chrome://tracing.
// * a time series (--stats-interval N): the same value changes, counted per interval of N
//   cycles (model/sc/timeseries.h); the pipeline writes it when the run succeeds.
// Both files stream to a temporary file renamed into place only when the run succeeds.
#pragma once

#include "model/common/file_util.h"
#include "model/sc/timeseries.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vpsim::sc {

class Probes {
public:
    // Either path may be empty (that output off). `period_ps` = the modelled clock period.
    // `series`, when not null, also receives every signal and value change (owned by the caller).
    Probes(const std::string& vcd_path, const std::string& trace_path, uint64_t period_ps,
           TimeSeries* series = nullptr);
    ~Probes();

    bool vcd_on() const { return vcd_ != nullptr; }
    bool trace_on() const { return trace_ != nullptr; }

    // Declares a signal (before the first change); returns -1 when the VCD and the series are off.
    int vcd_signal(const std::string& scope, const std::string& name, int width);
    // A value at cycle `t` (non-decreasing across calls).
    void vcd_change(int id, uint64_t t, uint64_t value);

    // A named track (a Perfetto thread); -1 when the trace is off.
    int track(const std::string& name);
    // A complete span [begin, end) cycles on a track, with optional JSON args text ("\"k\": 1").
    // The name may be any text (it is JSON-escaped); `args` is written as it is, so it must be
    // valid JSON members.
    void span(int track, uint64_t begin, uint64_t end, const std::string& name, const std::string& args = {});

    // Writes the remaining output and renames the files into place (throws OutputError).
    void commit(uint64_t end_cycle);

private:
    struct Signal {
        std::string scope, name, code;
        int width;
        uint64_t value;
        bool dirty;
        bool declared_value;
    };
    void vcd_header();
    void vcd_flush_time();

    uint64_t period_ps_;
    TimeSeries* series_;
    std::unique_ptr<AtomicOutput> vcd_, trace_;
    std::vector<Signal> signals_;
    std::vector<int> dirty_;
    bool header_written_ = false;
    uint64_t vcd_time_ = 0;
    std::vector<std::string> tracks_;
    bool first_event_ = true;
    std::string buf_;
};

}  // namespace vpsim::sc
