#include "model/sc/pipeline.h"

#include "model/sc/bottleneck.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <thread>

namespace vpsim::sc {

using namespace sc_core;

const ParamBindings<PipelineParams>& PipelineParams::bindings() {
    static const auto b = ParamBindings<PipelineParams>(kUnit, "the timing model as a whole: clock and kernel synchronisation", 0)
        .real("clock_mhz", "MHz", &PipelineParams::clock_mhz, "modelled core clock (vertices/s and trace times)",
                    "GeForce3 (NV20) core clock: 200 MHz (pipeline.md)", 1.0, 100000.0)
        .uint("quantum", "cycles", &PipelineParams::quantum,
                  "cycles the dispatcher may run ahead of the SystemC kernel before it synchronises",
                  "assumed (a speed setting: results do not depend on it)", 1, uint64_t(1) << 40);
    return b;
}
ParamTable PipelineParams::table() { return bindings().table(); }

PipelineParams PipelineParams::from(const ParamSet& p) {
    return bindings().from(p);
}

const ParamBindings<FixedFunctionParams>& FixedFunctionParams::bindings() {
    static const auto b =
        ParamBindings<FixedFunctionParams>(kUnit, "the device's fixed-function caps (D3DCAPS8): what a fixed-function draw may use", 0)
            .uint("max_active_lights", "lights", &FixedFunctionParams::max_active_lights,
                  "D3DCAPS8.MaxActiveLights: lights enabled at once in a fixed-function draw",
                  "D3D8 documentation's example figure (8); assumed", 0, 1024)
            .uint("max_vertex_blend_matrices", "matrices", &FixedFunctionParams::max_vertex_blend_matrices,
                  "D3DCAPS8.MaxVertexBlendMatrices: world matrices a non-indexed VERTEXBLEND may use",
                  "assumed", 0, 4)
            .uint("max_vertex_blend_matrix_index", "index", &FixedFunctionParams::max_vertex_blend_matrix_index,
                  "D3DCAPS8.MaxVertexBlendMatrixIndex: the largest WORLDMATRIX index of indexed blending (0: none)",
                  "assumed", 0, 255)
            .real("max_point_size", "pixels", &FixedFunctionParams::max_point_size,
                  "D3DCAPS8.MaxPointSize: the largest point size (1: no point sprites)", "assumed", 1.0, 1e9);
    return b;
}
ParamTable FixedFunctionParams::table() { return bindings().table(); }
FixedFunctionParams FixedFunctionParams::from(const ParamSet& p) { return bindings().from(p); }
ff::Caps FixedFunctionParams::caps() const {
    ff::Caps c;
    c.max_active_lights = max_active_lights;
    c.max_vertex_blend_matrices = max_vertex_blend_matrices;
    c.max_vertex_blend_matrix_index = max_vertex_blend_matrix_index;
    c.max_point_size = float(max_point_size);
    return c;
}

std::vector<ParamTable> param_tables() {
    return {PipelineParams::table(),          FixedFunctionParams::table(),         CommandFrontEndParams::table(), DeclDecoderParams::table(),
            ConstantLoaderParams::table(),   TessellatorParams::table(),     IndexFetchParams::table(),
            pipe::PostTransformCacheParams::table(), MemoryModelParams::table(), VertexFetchParams::table(),
            VertexAluParams::table(),        OutputUnitParams::table()};
}

ParamSet default_params(std::vector<ParamTable> extra) {
    std::vector<ParamTable> t = param_tables();
    for (auto& e : extra) t.push_back(std::move(e));
    return ParamSet(std::move(t));
}

Topology default_topology() {
    Topology t;
    t.links = {
        {"front_end_to_constant_loader", "front_end.constants", "constant_loader.in", "constant_loader.queue", 1, 1,
         "constant batches"},
        {"front_end_to_tessellator", "front_end.draws", "tessellator.in", "tessellator.queue", 1, 1, "draws"},
        {"tessellator_to_index_fetch", "tessellator.out", "index_fetch.in", "index_fetch.draw_queue", 1, 1, "draws"},
        {"tessellator_generated", "tessellator.generated", "index_fetch.generated", 4, 1, 4,
         "count of generated vertices that exist"},
        {"index_fetch_to_vertex_fetch", "index_fetch.jobs", "vertex_fetch.in", "vertex_fetch.queue", 1, 1,
         "vertex jobs (cache misses)"},
        {"index_fetch_to_output", "index_fetch.order", "output.order", "output.order_queue", 1,
         "output.vertices_per_cycle", "every reference, in draw order"},
        {"index_fetch_draw_end", "index_fetch.draw_end", "vertex_alu.draw_end", 4, 1, 4, "a draw's job count"},
        {"vertex_fetch_to_alu", "vertex_fetch.out", "vertex_alu.in", "vertex_fetch.input_buffers", 1, 1,
         "fetched vertices (each holds an input buffer)"},
        {"alu_input_credits", "vertex_alu.credits", "vertex_fetch.credits", "vertex_fetch.input_buffers", 0,
         "vertex_fetch.input_buffers", "freed input buffers"},
        {"alu_to_output", "vertex_alu.out", "output.shaded", "output.buffers", 1, 1, "shaded vertices"},
        {"alu_draws_done", "vertex_alu.draws_done", "constant_loader.draws_done", 4, 0, 4,
         "count of draws that left the ALU"},
        {"constants_written", "constant_loader.written", "vertex_alu.constants_written", 4, 1, 4,
         "count of constant vectors written"},
    };
    return t;
}

namespace {


// The units of the default pipeline, in the dispatcher's order (downstream first).
const char* const kUnitOrder[] = {"output", "vertex_alu", "vertex_fetch", "index_fetch",
                                  "tessellator", "constant_loader", "front_end"};
// Read-only views and services, which are not channels (for the printed topology).
struct Side {
    const char *from, *to, *what;
    bool both_ways;
};
const Side kSides[] = {{"constant_loader", "vertex_alu", "constant memory (read-only view)", false},
                       {"memory", "vertex_fetch", "line reads (analytical memory service)", false},
                       {"front_end", "decl_decoder", "pins: tokens in, events out (SystemC signals)", true}};

std::vector<std::string> step_order(const Topology& t) {
    std::vector<std::string> order(std::begin(kUnitOrder), std::end(kUnitOrder));
    for (const ExtraUnit& e : t.extra) {
        auto it = std::find(order.begin(), order.end(), e.step_after);
        if (it == order.end())
            throw std::logic_error(fmt::format("unit {}: step_after names no unit ({})", e.name, e.step_after));
        order.insert(it + 1, e.name);
    }
    return order;
}

DeclDecoderParams decoder_params(const ParamSet& p, const scene::Scene& s) {
    DeclDecoderParams d = DeclDecoderParams::from(p);
    d.const_count = s.const_count;  // the device the scene describes, as the golden decoder sees it
    return d;
}

std::unique_ptr<DeclDecoderBlock> make_decoder(const DeclDecoderImpl& impl, const DeclDecoderParams& p,
                                               DeclDecoderPins& pins) {
    return (impl.make ? impl.make : model_decl_decoder().make)("decl_decoder", p, pins);
}

class Pipeline : public sc_module {
public:
    Pipeline(const sc_module_name& n, const scene::Scene& s, const ParamSet& params, const vs::Profile& profile,
             const RunOptions& opt)
        : sc_module(n), pp_(PipelineParams::from(params)), params_(params), opt_(opt),
          period_ps_(uint64_t(std::llround(1e6 / pp_.clock_mhz))),
          series_(opt.stats_interval ? std::make_unique<TimeSeries>(opt.stats_interval) : nullptr),
          probes_(opt.vcd_path.empty() && opt.trace_path.empty() && !series_
                      ? nullptr
                      : std::make_unique<Probes>(opt.vcd_path, opt.trace_path, period_ps_, series_.get())),
          machine_(s, profile, opt.tess_profile, FixedFunctionParams::from(params).caps()),
          decoder_(make_decoder(opt.decl_decoder, decoder_params(params, s), decl_pins_)),
          front_("front_end", CommandFrontEndParams::from(params), machine_, decl_pins_, *decoder_,
                 [this](Cycle c) { sync(c); }, probes_.get()),
          tess_("tessellator", TessellatorParams::from(params), probes_.get()),
          loader_("constant_loader", ConstantLoaderParams::from(params), s.const_count, probes_.get()),
          index_("index_fetch", IndexFetchParams::from(params), pipe::PostTransformCacheParams::from(params), pool_,
                 probes_.get()),
          memory_(MemoryModelParams::from(params), probes_.get()),
          fetch_(opt.vertex_fetch ? opt.vertex_fetch(params, memory_, pool_, probes_.get())
                                  : std::make_unique<VertexFetch>("vertex_fetch", VertexFetchParams::from(params), memory_,
                                                                  pool_, probes_.get())),
          alu_("vertex_alu", VertexAluParams::from(params), machine_.profile(), pool_, probes_.get()),
          output_("output", OutputUnitParams::from(params), pipe::PostTransformCacheParams::from(params).entries,
                  pool_, probes_.get()) {
        // Modelled addresses: each buffer at its own 4 KiB-aligned place.
        std::map<const uint8_t*, uint64_t> addr;
        uint64_t next = 0x10000;
        for (const auto& [name, b] : s.buffers) {
            addr[b.bytes.data()] = next;
            next += (b.bytes.size() + 0xFFF) & ~uint64_t(0xFFF);
            next += 0x1000;
        }
        front_.set_buffer_addresses(std::move(addr));
        output_.set_sink(opt.sink);
        if (opt.draw_done) output_.on_draw_done([f = opt.draw_done](const DrawState& d, Cycle) { f(d); });
        alu_.view_constants(loader_.memory());

        const Topology topo = opt.topology ? *opt.topology : default_topology();
        std::map<std::string, TimedUnit*> by_name = {{"output", &output_},         {"vertex_alu", &alu_},
                                                     {"vertex_fetch", fetch_.get()},    {"index_fetch", &index_},
                                                     {"tessellator", &tess_},      {"constant_loader", &loader_},
                                                     {"front_end", &front_}};
        for (const ExtraUnit& e : topo.extra) {
            if (by_name.count(e.name)) throw std::logic_error(fmt::format("unit {} exists already", e.name));
            extra_.push_back(e.make(e.name.c_str(), params, pool_, probes_.get()));
            by_name[e.name] = extra_.back().get();
        }
        bind(topo, params, by_name);
        for (const std::string& u : step_order(topo)) units_.push_back(by_name.at(u));
        SC_HAS_PROCESS(Pipeline);
        SC_THREAD(dispatch);
    }

std::exception_ptr error;
    Cycle end = 0;
    double host_seconds = 0;

    RunResult result() const;

private:
    void bind(const Topology& t, const ParamSet& params, const std::map<std::string, TimedUnit*>& units);
    void sync(Cycle c) {
        if (c > synced_) {
            wait(sc_time(double((c - synced_) * period_ps_), SC_PS));
            synced_ = c;
        }
    }
    void progress(Cycle now, bool final_line);
    void dispatch();

    PipelineParams pp_;
    ParamSet params_;
    RunOptions opt_;
    struct Peer {
        std::string unit;      // the unit at the channel's other end
        std::string capacity;  // the channel's capacity: a parameter key, or a number
        uint64_t slots = 0;    // resolved
    };
    std::map<std::string, Peer> peer_;  // "unit.port" -> the channel's other end
    uint64_t period_ps_;
    std::unique_ptr<TimeSeries> series_;  // --stats-interval (fed by probes_)
    std::unique_ptr<Probes> probes_;
    scene::SceneMachine machine_;
    VertexPool pool_;
    DeclDecoderPins decl_pins_{"decl"};  // the front end drives them
    std::unique_ptr<DeclDecoderBlock> decoder_;
    CommandFrontEnd front_;
    TessellatorUnit tess_;
    ConstantLoader loader_;
    IndexFetch index_;
    MemoryModel memory_;
    std::unique_ptr<TimedUnit> fetch_;  // VertexFetch, or RunOptions::vertex_fetch's
    VertexAlu alu_;
    OutputUnit output_;
    std::vector<std::unique_ptr<TimedUnit>> extra_;
    std::vector<std::unique_ptr<ChannelBase>> channels_;
    std::vector<TimedUnit*> units_;
    Cycle synced_ = 0;
    std::chrono::steady_clock::time_point t0_, last_progress_;
    bool progress_shown_ = false;
};

PortBase& find_port(const std::map<std::string, TimedUnit*>& units, const std::string& path, bool input,
                    const std::string& link) {
    const size_t dot = path.find('.');
    const auto it = units.find(path.substr(0, dot));
    PortBase* p = it == units.end() || dot == std::string::npos ? nullptr : it->second->port(path.substr(dot + 1));
    if (!p) throw std::logic_error(fmt::format("topology: link {} names no port {}", link, path));
    if (p->input() != input)
        throw std::logic_error(fmt::format("topology: link {}: {} is an {} port", link, path, p->input() ? "input" : "output"));
    return *p;
}

void Pipeline::bind(const Topology& t, const ParamSet& params, const std::map<std::string, TimedUnit*>& units) {
    const std::vector<std::string> order = step_order(t);
    auto position = [&](const TimedUnit& u) { return std::find(order.begin(), order.end(), u.basename()) - order.begin(); };
    for (const LinkSpec& l : t.links) {
        PortBase& from = find_port(units, l.from, false, l.name);
        PortBase& to = find_port(units, l.to, true, l.name);
        if (from.type() != to.type())
            throw std::logic_error(fmt::format("topology: link {}: {} and {} carry different types", l.name, l.from, l.to));
        const uint64_t latency = l.latency.resolve(params);
        // A same-cycle channel must go to a unit the dispatcher steps later in the cycle.
        if (latency == 0 && position(from.owner()) > position(to.owner()))
            throw std::logic_error(fmt::format("topology: link {} has latency 0 but {} is stepped after {}", l.name,
                                               from.owner().basename(), to.owner().basename()));
        channels_.push_back(from.make_channel(l.name, uint32_t(l.capacity.resolve(params)), uint32_t(latency),
                                              uint32_t(l.bandwidth.resolve(params))));
        from.bind(*channels_.back());
        to.bind(*channels_.back());
        peer_[l.from] = {to.owner().basename(), l.capacity.text(), l.capacity.resolve(params)};
        peer_[l.to] = {from.owner().basename(), l.capacity.text(), l.capacity.resolve(params)};
        channels_.back()->attach(probes_.get());
    }
    for (const auto& [name, u] : units)
        for (const PortBase* p : u->ports())
            if (!p->bound()) throw std::logic_error(fmt::format("topology: port {} is not connected", p->full_name()));
}

void Pipeline::progress(Cycle now, bool final_line) {
    const auto t = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(t - t0_).count();
    if (!final_line && (s < 2.0 || std::chrono::duration<double>(t - last_progress_).count() < 0.5)) return;
    if (final_line && !progress_shown_) return;
    last_progress_ = t;
    progress_shown_ = true;
    std::fprintf(stderr, "\rvpsim run: %llu cycles, %llu vertices, %llu/%llu draws, %.1f M cycles/s%s",
                 (unsigned long long)now, (unsigned long long)output_.emitted(),
                 (unsigned long long)output_.stats().get("draws"), (unsigned long long)front_.draws_issued(),
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
    } catch (const DrawFetchError& e) {
        error = std::make_exception_ptr(machine_.fetch_error(*e.setup, e.error));
    } catch (...) {
        error = std::current_exception();
    }
    if (error && progress_shown_) std::fprintf(stderr, "\n");
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
    rep.add(decoder_->stats());
    rep.add(loader_.stats());
    rep.add(tess_.stats());
    rep.add(index_.stats());
    rep.add(index_.cache().stats());
    rep.add(fetch_->stats());
    rep.add(memory_.stats());
    rep.add(alu_.stats());
    rep.add(output_.stats());
    for (const auto& u : extra_) rep.add(u->stats());
    r.cycle_errors = rep.check_cycles_add_up(end);
    r.stats = rep.to_json(end);
    // A directed stall names the unit at the other end of its port's channel.
    for (auto& [unit, g] : r.stats["units"].items())
        if (!g["cycles"].is_null())
            for (auto& [reason, v] : g["cycles"]["stalled"].items())
                if (v.contains("port")) {
                    const auto it = peer_.find(unit + "." + v["port"].get<std::string>());
                    if (it == peer_.end()) continue;
                    v["by"] = it->second.unit;
                    v["capacity"] = it->second.slots;
                    v["capacity_key"] = it->second.capacity;
                }
    if (series_) {
        // Each unit's stall reasons in declaration order: its state 2 + k is the k-th.
        std::map<std::string, std::vector<std::string>> reasons;
        for (const auto& [unit, g] : r.stats["units"].items())
            if (!g["cycles"].is_null())
                for (const auto& [reason, v] : g["cycles"]["stalled"].items()) reasons[unit].push_back(reason);
        for (const TimedUnit* u : units_) reasons[u->basename()];  // units without stall reasons too
        r.timeseries_csv = series_->csv(reasons);
    }
    const StatGroup& o = output_.stats();
    const StatGroup& ix = index_.stats();
    for (const auto& d : front_.draws()) {
        if (!d->setup.fixed_function || !d->setup.ff_program) continue;
        ++r.ff_draws;
        const std::pair<uint32_t, uint32_t> p{d->setup.ff_program->instructions, d->setup.ff_program->slots};
        if (std::find(r.ff_programs.begin(), r.ff_programs.end(), p) == r.ff_programs.end()) r.ff_programs.push_back(p);
    }
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
    r.fetch_bytes_per_cycle = rate(fetch_->stats(), "bytes_per_cycle");
    r.fetch_cache_hit_rate = rate(fetch_->stats(), "cache_hit_rate");
    r.memory_bytes_per_cycle = rate(memory_.stats(), "bytes_per_cycle");
    for (const StatGroup* g : rep.groups()) {
        if (!g->timed()) continue;
        for (const auto& [reason, v] : r.stats["units"][g->unit()]["cycles"]["stalled"].items()) {
            const uint64_t c = v["cycles"].get<uint64_t>();
            if (c) r.top_stalls.push_back({g->unit(), reason, c, v.value("class", "local"), v.value("by", "")});
        }
    }
    std::sort(r.top_stalls.begin(), r.top_stalls.end(),
              [](const TopStall& a, const TopStall& b) { return a.cycles > b.cycles; });
    const Bottleneck b = trace_bottleneck(r.stats["units"], end, params_);
    r.bottleneck_unit = b.unit;
    r.bottleneck_busy = b.busy;
    r.bottleneck_reason = b.reason;
    r.bottleneck = b.text;
    r.bottleneck_chain = b.chain;
    r.caps = find_caps(params_, r.stats["units"], end);
    r.in_flight_mean = rate(alu_.stats(), "in_flight_per_engine");
    r.in_flight_max = alu_.stats().get("max_in_flight");
    return r;
}

}  // namespace

RunResult run_pipeline(const scene::Scene& scene, const ParamSet& params, const vs::Profile& profile,
                       const RunOptions& options) {
    // A decoder implementation that cannot take these parameters (a Verilated RTL's fixed
    // parameters) is refused before anything is built.
    if (options.decl_decoder.cannot_build) {
        const std::string why = options.decl_decoder.cannot_build(decoder_params(params, scene));
        if (!why.empty()) throw ParamError(why);
    }
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

std::string topology_text(const Topology& t, const ParamSet& p) {
    std::string out = fmt::format("{:<30} {:<29} {:<32} {:>8} {:>7} {:>9}  {}\n", "channel", "from", "to", "capacity",
                                  "latency", "bandwidth", "carries");
    auto shown = [&](const Amount& a) {
        return a.key.empty() ? std::to_string(a.value) : fmt::format("{}", p.get_uint(a.key));
    };
    for (const LinkSpec& l : t.links)
        out += fmt::format("{:<30} {:<29} {:<32} {:>8} {:>7} {:>9}  {}\n", l.name, l.from, l.to, shown(l.capacity),
                           shown(l.latency), shown(l.bandwidth), l.carries);
    out += "\nnot channels:\n";
    for (const Side& v : kSides) out += fmt::format("  {} -> {}: {}\n", v.from, v.to, v.what);
    out += "\nparameters behind the amounts (vpsim params; --set changes them):\n";
    std::vector<std::string> keys;
    for (const LinkSpec& l : t.links)
        for (const Amount* a : {&l.capacity, &l.latency, &l.bandwidth})
            if (!a->key.empty() && std::find(keys.begin(), keys.end(), a->key) == keys.end()) keys.push_back(a->key);
    for (const std::string& k : keys) out += "  " + k + "\n";
    out += "\nstep order (downstream first): ";
    const auto order = step_order(t);
    for (size_t i = 0; i < order.size(); ++i) out += (i ? ", " : "") + order[i];
    return out + "\n";
}

std::string topology_dot(const Topology& t, const ParamSet& p) {
    std::string out =
        "digraph vpsim {\n  rankdir=LR;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n"
        "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    auto unit = [](const std::string& path) { return path.substr(0, path.find('.')); };
    for (const LinkSpec& l : t.links)
        out += fmt::format("  \"{}\" -> \"{}\" [label=\"{}\\ncap {} lat {} bw {}\"{}];\n", unit(l.from),
                           unit(l.to), l.name, l.capacity.resolve(p), l.latency.resolve(p), l.bandwidth.resolve(p),
                           l.latency.resolve(p) == 0 ? ", style=dashed" : "");
    for (const Side& v : kSides)
        out += fmt::format("  \"{}\" -> \"{}\" [label=\"{}\", style=dotted{}];\n", v.from, v.to, v.what,
                           v.both_ways ? ", dir=both" : "");
    return out + "}\n";
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
