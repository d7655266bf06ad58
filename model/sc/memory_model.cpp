#include "model/sc/memory_model.h"

#include <fmt/format.h>

#include <cmath>

namespace vpsim::sc {

const ParamBindings<MemoryModelParams>& MemoryModelParams::bindings() {
    static const auto b = ParamBindings<MemoryModelParams>(kUnit, "memory behind the vertex fetch cache: latency and bus bandwidth")
        .uint("latency", "cycles", &MemoryModelParams::latency, "cycles from a line request to its data",
                  "assumed (DDR at 230 MHz behind the memory controller, ~400 ns)", 0, 100000).latency()
        .uint("bytes_per_cycle", "bytes/cycle", &MemoryModelParams::bytes_per_cycle, "bus bytes per core cycle for vertex reads",
                  "GeForce3: 128-bit DDR at 230 MHz = 7.36 GB/s = 36.8 B per 200 MHz cycle, rounded down",
                  1, 4096).rate();
    return b;
}
ParamTable MemoryModelParams::table() { return bindings().table(); }

MemoryModelParams MemoryModelParams::from(const ParamSet& p) {
    return bindings().from(p);
}

MemoryModel::MemoryModel(const sc_core::sc_module_name& n, const MemoryModelParams& p, Probes* probes)
    : TimedUnit(n), p_(p), probes_(probes),
      stats_(basename(), "memory behind the vertex fetch cache"),
      requests_(stats_.counter("requests", "requests", "line reads")),
      bytes_(stats_.counter("bytes", "bytes", "bytes read")),
      bus_cycles_(stats_.counter("bus_cycles", "cycles", "cycles the bus carried data (the busy cycles)")) {
    if (probes) sig_requests_ = probes->vcd_signal(basename(), "requests", 32);
    stats_.hold_open(this);
    stats_.rate("bytes_per_cycle", "bytes", "cycles", "bytes/cycle", "bandwidth used over the run");
    stats_.rate("bus_utilisation", "busy_cycles", "cycles", "fraction", "bus busy cycles over the run's cycles");
}

Cycle MemoryModel::read(Cycle now, uint32_t bytes) {
    const Cycle start = bus_free_ > now ? bus_free_ : now;
    const uint64_t transfer = (bytes + p_.bytes_per_cycle - 1) / p_.bytes_per_cycle;
    bus_free_ = start + transfer;
    ++requests_;
    bytes_ += bytes;
    bus_cycles_ += transfer;
    if (probes_) probes_->vcd_change(sig_requests_, now, requests_.value);
    return start + p_.latency + transfer;
}

void MemoryModel::finish(Cycle end) {
    // The bus is busy while it carries data, idle otherwise (requests are served in order, so
    // the transfer intervals do not overlap). Transfers past `end` cannot exist: every read's
    // data is consumed before the run ends.
    const uint64_t busy = bus_cycles_.value < end ? bus_cycles_.value : end;
    stats_.busy(busy);
    stats_.idle(end - busy);
}

void MemoryModel::add_open(uint64_t now, CyclesAt& c) const {
    // The transfers are served back to back in order, so those issued by `now` that end after it
    // occupy the bus from `now` to bus_free_ without a gap: the rest were carried by `now`.
    const uint64_t after = bus_free_ > now ? bus_free_ - now : 0;
    uint64_t busy = bus_cycles_.value > after ? bus_cycles_.value - after : 0;
    if (busy > now) busy = now;
    c.busy += busy;
    c.idle += now - busy;
}

namespace {
// Its bandwidth: one memory's rate, or the summed bytes per cycle.
UnitSummary memory_summary() {
    UnitSummary s;
    s.metrics = {rate_metric("memory_bytes_per_cycle", 36, "bytes_per_cycle", "bytes", "cycles")};
    s.lines = {{36, [](const SummaryUnits& u, const SummaryValues& v) -> SummaryRows {
                    const double bytes = v.real("memory_bytes_per_cycle");
                    return {{"memory bandwidth", fmt::format("{:.2f} B/cycle ({:.2f} GB/s)", bytes, bytes * u.clock_mhz / 1e3)}};
                }}};
    return s;
}
}  // namespace

void register_unit_memory_model(UnitRegistry& r) {
    UnitType t;
    t.name = "memory";
    t.what = "memory behind the vertex fetch cache: latency and bus bandwidth (a service: memory ports read it)";
    t.tables = {MemoryModelParams::table()};
    t.stepped = false;
    t.is_memory = true;
    t.words.noun = "the memory bus";
    t.words.busy = "carrying vertex data in {} of cycles";
    t.summary = memory_summary();
    t.words.capacity = [](const nlohmann::ordered_json& g, uint64_t, const UnitParams&) {
        if (!g.contains("rates") || !g["rates"].contains("bus_utilisation") ||
            g["rates"]["bus_utilisation"]["value"].is_null())
            return double(NAN);
        return g["rates"]["bus_utilisation"]["value"].get<double>();
    };
    t.make = [](const UnitContext& c) {
        return std::make_unique<MemoryModel>(c.name.c_str(), c.params.of<MemoryModelParams>(), c.probes);
    };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
