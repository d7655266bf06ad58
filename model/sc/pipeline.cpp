#include "model/sc/pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <thread>

namespace vpsim::sc {

using namespace sc_core;

ParamTable PipelineParams::table() {
    const PipelineParams d;
    return ParamTable(kUnit, "the timing model as a whole: clock and kernel synchronisation", 0)
        .add_double("clock_mhz", "MHz", d.clock_mhz, "modelled core clock (vertices/s and trace times)",
                    "GeForce3 (NV20) core clock: 200 MHz (pipeline.md)", 1.0, 100000.0)
        .add_uint("quantum", "cycles", d.quantum,
                  "cycles the dispatcher may run ahead of the SystemC kernel before it synchronises",
                  "assumed (a speed setting: results do not depend on it)", 1, uint64_t(1) << 40);
}
VPSIM_REGISTER_PARAMS(PipelineParams::table);

PipelineParams PipelineParams::from(const ParamSet& p) {
    PipelineParams r;
    r.clock_mhz = p.get_double("pipeline.clock_mhz");
    r.quantum = p.get_uint("pipeline.quantum");
    return r;
}

namespace {

DeclDecoderParams decoder_params(const ParamSet& p, const scene::Scene& s) {
    DeclDecoderParams d = DeclDecoderParams::from(p);
    d.const_count = s.const_count;  // the device the scene describes, as the golden decoder sees it
    return d;
}

class Pipeline : public sc_module {
public:
    Pipeline(const sc_module_name& n, const scene::Scene& s, const ParamSet& params, const vs::Profile& profile,
             const RunOptions& opt)
        : sc_module(n), pp_(PipelineParams::from(params)), opt_(opt),
          period_ps_(uint64_t(std::llround(1e6 / pp_.clock_mhz))),
          probes_(opt.vcd_path.empty() && opt.trace_path.empty()
                      ? nullptr
                      : std::make_unique<Probes>(opt.vcd_path, opt.trace_path, period_ps_)),
          machine_(s, profile, opt.tess_profile),
          decoder_("decl_decoder", decoder_params(params, s)),
          ptc_(pipe::PostTransformCacheParams::from(params)),
          front_("front_end", CommandFrontEndParams::from(params), machine_, draws_, decoder_,
                 [this](Cycle c) { sync(c); }, probes_.get()),
          tess_("tessellator", TessellatorParams::from(params), probes_.get()),
          loader_("constant_loader", ConstantLoaderParams::from(params), s.const_count, draws_, probes_.get()),
          index_("index_fetch", IndexFetchParams::from(params), ptc_, pool_, draws_, probes_.get()),
          memory_("memory", MemoryModelParams::from(params), probes_.get()),
          fetch_("vertex_fetch", VertexFetchParams::from(params), memory_, pool_, probes_.get()),
          alu_("vertex_alu", VertexAluParams::from(params), machine_.profile(), OutputUnitParams::from(params).buffers,
               pool_, draws_, loader_, fetch_, ptc_, machine_, probes_.get()),
          output_("output", OutputUnitParams::from(params), ptc_.entries, pool_, probes_.get()) {
        // Modelled addresses: each buffer at its own 4 KiB-aligned place.
        std::map<const uint8_t*, uint64_t> addr;
        uint64_t next = 0x10000;
        for (const auto& [name, b] : s.buffers) {
            addr[b.bytes.data()] = next;
            next += (b.bytes.size() + 0xFFF) & ~uint64_t(0xFFF);
            next += 0x1000;
        }
        front_.set_buffer_addresses(std::move(addr));
        front_.connect(&loader_.input(), &tess_.input());
        tess_.connect(&front_, &index_.input(), &index_);
        loader_.connect(&front_, &alu_);
        index_.connect(&tess_, &fetch_.input(), &output_.order());
        fetch_.connect(&index_, &alu_);
        alu_.connect(&output_);
        output_.connect(&index_, &alu_.output());
        output_.set_sink(opt.sink);
        if (opt.draw_done) output_.on_draw_done([f = opt.draw_done](const DrawState& d, Cycle) { f(d); });
        draws_.on_alu_done(&loader_);
        // Downstream first.
        // (The memory model is analytical: it never needs a step, only its accounting at the end.)
        units_ = {&output_, &alu_, &fetch_, &index_, &tess_, &loader_, &front_};
        SC_HAS_PROCESS(Pipeline);
        SC_THREAD(dispatch);
    }

    std::exception_ptr error;
    Cycle end = 0;
    double host_seconds = 0;

    RunResult result() const;

private:
    void sync(Cycle c) {
        if (c > synced_) {
            wait(sc_time(double((c - synced_) * period_ps_), SC_PS));
            synced_ = c;
        }
    }
    void progress(Cycle now, bool final_line);
    void dispatch();

    PipelineParams pp_;
    RunOptions opt_;
    uint64_t period_ps_;
    std::unique_ptr<Probes> probes_;
    scene::SceneMachine machine_;
    VertexPool pool_;
    DrawTracker draws_;
    DeclDecoderUnit decoder_;
    pipe::PostTransformCacheParams ptc_;
    CommandFrontEnd front_;
    TessellatorUnit tess_;
    ConstantLoader loader_;
    IndexFetch index_;
    MemoryModel memory_;
    VertexFetch fetch_;
    VertexAlu alu_;
    OutputUnit output_;
    std::vector<TimedUnit*> units_;
    Cycle synced_ = 0;
    std::chrono::steady_clock::time_point t0_, last_progress_;
    bool progress_shown_ = false;
};

void Pipeline::progress(Cycle now, bool final_line) {
    const auto t = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(t - t0_).count();
    if (!final_line && (s < 2.0 || std::chrono::duration<double>(t - last_progress_).count() < 0.5)) return;
    if (final_line && !progress_shown_) return;
    last_progress_ = t;
    progress_shown_ = true;
    std::fprintf(stderr, "\rvpsim run: %llu cycles, %llu vertices, %llu/%llu draws, %.1f M cycles/s%s",
                 (unsigned long long)now, (unsigned long long)output_.emitted(),
                 (unsigned long long)output_.stats().get("draws"), (unsigned long long)draws_.size(),
                 s > 0 ? double(now) / s / 1e6 : 0.0, final_line ? "\n" : "   ");
    std::fflush(stderr);
}

void Pipeline::dispatch() {
    t0_ = last_progress_ = std::chrono::steady_clock::now();
    try {
        Cycle now = 0, last = 0;
        uint64_t iterations = 0;
        // The next cycle any unit wants: lowered by every step's answer and every wake-up, so one
        // pass over the units per simulated cycle does both the stepping and the search.
        Cycle next = 0;
        for (TimedUnit* u : units_) u->set_dispatcher_next(&next);
        for (;;) {
            if (next == kNever) break;
            now = std::max(next, now);
            next = kNever;
            for (TimedUnit* u : units_) {
                if (u->wake_at() <= now)
                    u->run_step(now);
                else if (u->wake_at() < next)
                    next = u->wake_at();
            }
            last = now;
            if (now - synced_ >= pp_.quantum) sync(now);
            if (opt_.progress && (++iterations & 0xFFFF) == 0) progress(now, false);
        }
        for (TimedUnit* u : units_)
            if (u->busy_with_work())
                throw std::logic_error(fmt::format("timing model deadlock at cycle {}: unit {} still holds work "
                                                   "(internal error)",
                                                   now, u->basename()));
        end = last + 1;
        sync(end);
        for (TimedUnit* u : units_) u->finish(end);
        memory_.finish(end);
        if (opt_.progress) progress(end, true);
        if (probes_) probes_->commit(end);
    } catch (...) {
        error = std::current_exception();
        if (progress_shown_) std::fprintf(stderr, "\n");
    }
    host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    sc_stop();
}

RunResult Pipeline::result() const {
    RunResult r;
    r.cycles = end;
    r.clock_mhz = pp_.clock_mhz;
    r.host_seconds = host_seconds;
    r.warnings = machine_.warnings();
    StatsReport rep;
    rep.add(front_.stats());
    rep.add(decoder_.stats().group);
    rep.add(loader_.stats());
    rep.add(tess_.stats());
    rep.add(index_.stats());
    rep.add(index_.cache().stats());
    rep.add(fetch_.stats());
    rep.add(memory_.stats());
    rep.add(alu_.stats());
    rep.add(output_.stats());
    r.cycle_errors = rep.check_cycles_add_up(end);
    r.stats = rep.to_json(end);
    const StatGroup& o = output_.stats();
    const StatGroup& ix = index_.stats();
    r.draws = o.get("draws");
    r.references = o.get("vertices");
    r.shaded = o.get("shaded");
    r.primitives = o.get("primitives");
    r.unique = ix.get("unique_vertices");
    const StatGroup& t = tess_.stats();
    r.tess_patches = t.get("patches");
    r.tess_npatch_draws = t.get("npatch_draws");
    r.tess_vertices = t.get("generated_vertices");
    r.tess_triangles = t.get("generated_triangles");
    r.tess_handle_hits = t.get("handle_hits");
    r.tess_control_points = t.get("control_points");
    r.tess_busy_cycles = t.busy_cycles();
    auto rate = [&](const StatGroup& g, const char* name) {
        const double v = g.rate_value(name, end);
        return std::isnan(v) ? 0.0 : v;
    };
    r.alu_utilisation = rate(alu_.stats(), "utilisation");
    r.coissue_rate = rate(alu_.stats(), "coissue_rate");
    r.ptc_hit_rate = rate(ix, "hit_rate");
    r.acmr = r.primitives ? double(r.shaded) / double(r.primitives) : 0.0;
    r.atvr = r.unique ? double(r.shaded) / double(r.unique) : 0.0;
    r.fetch_bytes_per_cycle = rate(fetch_.stats(), "bytes_per_cycle");
    r.fetch_cache_hit_rate = rate(fetch_.stats(), "cache_hit_rate");
    r.memory_bytes_per_cycle = rate(memory_.stats(), "bytes_per_cycle");
    for (const StatGroup* g : rep.groups()) {
        if (!g->timed()) continue;
        const auto j = g->to_json(end);
        for (const auto& [reason, v] : j["cycles"]["stalled"].items()) {
            const uint64_t c = v["cycles"].get<uint64_t>();
            if (c) r.top_stalls.push_back({g->unit(), reason, c});
        }
    }
    std::sort(r.top_stalls.begin(), r.top_stalls.end(),
              [](const TopStall& a, const TopStall& b) { return a.cycles > b.cycles; });
    return r;
}

}  // namespace

RunResult run_pipeline(const scene::Scene& scene, const ParamSet& params, const vs::Profile& profile,
                       const RunOptions& options) {
    // The simulation runs on a thread of its own and any error is rethrown here, after it has
    // ended: SystemC's coroutines switch stacks behind AddressSanitizer's back, and an exception
    // thrown later on the same thread trips a false "stack-use-after-scope" report.
    RunResult result;
    std::exception_ptr error;
    std::thread sim([&] {
        try {
            sc_fresh_context();
            sc_report_handler::set_actions(SC_WARNING, SC_DO_NOTHING);
            sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
            auto top = std::make_unique<Pipeline>("vpsim", scene, params, profile, options);
            sc_start();
            if (top->error)
                error = top->error;
            else
                result = top->result();
        } catch (...) {
            error = std::current_exception();
        }
    });
    sim.join();
    if (error) std::rethrow_exception(error);
    return result;
}

namespace {
struct EdgeCounter : sc_module {
    sc_in<bool> clk{"clk"};
    uint64_t edges = 0, stop_at = 0;
    SC_HAS_PROCESS(EdgeCounter);
    explicit EdgeCounter(const sc_module_name& n) : sc_module(n) {
        SC_METHOD(tick);
        sensitive << clk.pos();
        dont_initialize();
    }
    void tick() {
        if (++edges == stop_at) sc_stop();
    }
};
}  // namespace

double bare_clock_seconds(uint64_t cycles) {
    sc_fresh_context();
    sc_clock clk("clk", sc_time(5, SC_NS));
    EdgeCounter counter("counter");
    counter.clk(clk);
    counter.stop_at = cycles;
    const auto t0 = std::chrono::steady_clock::now();
    sc_start();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (counter.edges != cycles)
        throw std::logic_error(fmt::format("bare clock: {} edges, expected {}", counter.edges, cycles));
    return s;
}

}  // namespace vpsim::sc
