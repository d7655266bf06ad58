#include "model/sc/pipeline.h"

#include "model/common/printable.h"
#include "model/sc/bottleneck.h"
#include "model/sc/dispatcher.h"
#include "model/sc/memory_model.h"
#include "model/sc/need_binding.h"
#include "model/sc/timeseries.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <set>
#include <stdexcept>
#include <thread>

namespace vpsim::sc {

using namespace sc_core;

const ParamBindings<PipelineParams>& PipelineParams::bindings() {
    static const auto b = ParamBindings<PipelineParams>(kUnit, "the timing model as a whole: clock and kernel synchronisation")
        .real("clock_mhz", "MHz", &PipelineParams::clock_mhz, "modelled core clock (vertices/s and trace times)",
                    "GeForce3 (NV20) core clock: 200 MHz (docs/spec/pipeline.md)", 1.0, 100000.0)
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
        ParamBindings<FixedFunctionParams>(kUnit, "the device's fixed-function caps (D3DCAPS8): what a fixed-function draw may use")
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
                  "D3DCAPS8.MaxPointSize: the largest point size (1: no point sprites)", "assumed", 1.0, 1e9)
            .uint("program_words", "words", &FixedFunctionParams::program_words,
                  "the vertex engine's program memory: instruction words a fixed-function program may take",
                  "NV20: 136 (envytools)", 1, 65536);
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
    c.program_words = program_words;
    return c;
}

namespace {
// The table a type's instances get a copy of: the one named after the type (a type's other
// tables, the index fetch's post_transform_cache, stay shared by its instances).
const ParamTable* own_table(const UnitType& t) {
    for (const ParamTable& p : t.tables)
        if (p.unit == t.name) return &p;
    return nullptr;
}
}  // namespace

std::vector<ParamTable> param_tables(const Topology& t, const UnitRegistry& r) {
    std::vector<ParamTable> out = {PipelineParams::table(), FixedFunctionParams::table()};
    std::set<std::string> types;
    for (const UnitSpec& u : t.units) {
        const UnitType* ty = r.find(u.type);
        if (!ty)
            throw TopologyError(located(u.at, "type", fmt::format("unknown unit type {}; valid: {}", printable(u.type, 60),
                                                                  r.names())));
        if (types.insert(u.type).second)
            for (const ParamTable& p : ty->tables) out.push_back(p);
    }
    // Each unit named otherwise than its type has a table of its own, named after it, following
    // the type's values until set for it (docs/parameters.md, "Per-instance parameters").
    std::set<std::string> names;
    for (const ParamTable& p : out) names.insert(p.unit);
    for (const UnitSpec& u : t.units) {
        const ParamTable* own = own_table(*r.find(u.type));
        if (!own || u.name == u.type) {
            if (!u.params.empty())
                throw TopologyError(located(u.at, "params",
                                            own ? fmt::format("unit {} is named after its type: its parameters are the "
                                                              "type's (--set {}.PARAM); give it a name of its own for "
                                                              "parameters of its own", u.name, u.type)
                                                : fmt::format("unit {}: its type {} has no parameters", u.name, u.type)));
            continue;
        }
        if (!names.insert(u.name).second)
            throw TopologyError(located(u.at, "name", fmt::format("unit {}: the name of a parameter table already (a unit "
                                                                  "type's); its own parameters need another name",
                                                                  u.name)));
        ParamTable c = *own;
        c.unit = u.name;
        c.description = fmt::format("a unit of type {}: the type's values unless set for this unit", u.type);
        c.inherits = own->unit;
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<ParamTable> param_tables() { return param_tables(default_topology()); }

ParamSet default_params(const Topology& t, const UnitRegistry& r) {
    ParamSet p(param_tables(t, r));
    // The units' own values from the file, each checked against its table where it is written.
    for (const UnitSpec& u : t.units) {
        if (u.params.empty()) continue;
        const ParamTable* own = nullptr;
        for (const ParamTable& tb : p.tables())
            if (tb.unit == u.name) own = &tb;
        nlohmann::json values = nlohmann::json::object();
        for (const auto& item : u.params.items()) {
            const std::string key = u.name + "." + printable(item.key(), 60);  // (for messages: escaped)
            const ParamDef* d = own->find(item.key());
            if (!d)
                throw TopologyError(located(u.at, "params/" + item.key(),
                                            fmt::format("{}: unknown parameter; valid keys: {}", key,
                                                        own->valid_keys())));
            try {
                values[u.name][item.key()] = check_param_value(*d, item.value(), key);
            } catch (const ParamError& e) {
                throw TopologyError(located(u.at, "params/" + item.key(), e.what()));
            }
        }
        p.apply_json(values, t.source);
    }
    return p;
}
ParamSet default_params() { return ParamSet(param_tables()); }

namespace {

// The units of a topology, built, bound and stepped.
class Pipeline : public sc_module {
public:
    Pipeline(const sc_module_name& n, const scene::Scene& s, const ParamSet& params, const vs::Profile& profile,
             const RunOptions& opt)
        : sc_module(n), pp_(PipelineParams::from(params)), params_(params), opt_(opt),
          topo_(opt.topology ? *opt.topology : default_topology()),
          registry_(opt.registry ? *opt.registry : builtin_units()),
          period_ps_(uint64_t(std::llround(1e6 / pp_.clock_mhz))),
          series_(opt.stats_interval ? std::make_unique<TimeSeries>(opt.stats_interval) : nullptr),
          probes_(opt.vcd_path.empty() && opt.trace_path.empty() && !series_
                      ? nullptr
                      : std::make_unique<Probes>(opt.vcd_path, opt.trace_path, period_ps_, series_.get())),
          machine_(s, profile, opt.tess_profile, FixedFunctionParams::from(params).caps()),
          constant_memory_(s.const_count, vs::Vec4{}) {
        machine_.share_programs(opt.programs);
        build();
        bind();
        std::vector<TimedUnit*> stepped;
        for (const std::string& u : step_order(topo_, registry_, params_)) stepped.push_back(by_name_.at(u));
        Dispatcher::Options o;
        o.quantum = pp_.quantum;
        o.period_ps = period_ps_;
        if (opt_.progress) o.progress = [this](Cycle now) { progress(now, false); };
        dispatcher_ = std::make_unique<Dispatcher>(std::move(stepped), std::move(o));
        SC_HAS_PROCESS(Pipeline);
        SC_THREAD(dispatch);
    }

    std::exception_ptr error;
    Cycle end = 0;
    double host_seconds = 0;

    RunResult result() const;

private:
    void build();
    void bind();
    // The parameters unit `u` of type `t` reads: its type's tables holding its own values, and its
    // declared dependencies bound (a TopologyError, located at its row, when one cannot be).
    const UnitParams& instance_params(const UnitSpec& u, const UnitType& t);
    std::deque<UnitParams> instance_params_;  // (kept for the units' lifetime: the words read them after the run)
    std::map<std::string, const UnitParams*> params_of_;  // by unit name
    void progress(Cycle now, bool final_line);
    void dispatch();
    // The units of `type` (none when the topology has none) at cycle `now`.
    SummaryUnits units_of(const UnitType& type, Cycle now) const;
    // A declared summary value now, from its type's units (for the progress line; 0 if undeclared).
    uint64_t count_now(const std::string& key, Cycle now) const;
    // Every type's summary values and rows (UnitType::summary).
    void summarise(RunResult& r) const;
    // find_caps's units by the roles their types declare (the first unit of each role).
    std::map<std::string, RoleUnit> roles() const;
    // find_caps's parameters (CapsParams) bound to those units; empty when a role has no unit.
    BoundNeeds caps_params() const;
    // RunResult::instances from stats.json's units.
    std::vector<RunResult::Instance> instance_lines(const nlohmann::ordered_json& units) const;

    PipelineParams pp_;
    // The run's parameters and topology: run_pipeline's caller holds them for the pipeline's life
    // (copying them was a visible part of each block's run in a sampled simulation).
    const ParamSet& params_;
    RunOptions opt_;
    const Topology& topo_;
    const UnitRegistry& registry_;
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
    vs::Constants constant_memory_;  // the loader writes it, the ALU reads it
    // A draw the output has finished: the units drop what only its shading needed, so that a run's
    // memory does not grow with the draws' states (docs/limits.md).
    void retire(const DrawState& d) {
        for (const auto& u : units_) u->draw_retired(d.id);
    }
    std::vector<std::unique_ptr<TimedUnit>> units_;  // as listed in the topology
    std::vector<const UnitType*> types_;             // of units_
    std::map<std::string, TimedUnit*> by_name_;
    std::vector<std::unique_ptr<ChannelBase>> channels_;
    std::unique_ptr<Dispatcher> dispatcher_;
    std::vector<std::pair<uint32_t, uint32_t>> ff_programs_;  // (instructions, slots), first use first
    uint64_t ff_draws_ = 0;
    uint64_t sw_draws_ = 0, sw_vertices_ = 0, sw_slots_ = 0;
    uint32_t outputs_marked_ = 0;  // units given RunOptions::marks
    size_t marks_reached_ = 0;     // of them, the output has reached (RunOptions::stop_at_last_mark)
    std::chrono::steady_clock::time_point t0_, last_progress_;
    bool progress_shown_ = false;
};

const UnitParams& Pipeline::instance_params(const UnitSpec& u, const UnitType& t) {
    bool own = false;
    for (const ParamTable& tb : params_.tables()) own = own || tb.unit == u.name;
    if (!own && !u.params.empty())
        throw TopologyError(located(u.at, "params", fmt::format("unit {}: the run's parameters were not made from this "
                                                                "topology (sc::default_params(topology))", u.name)));
    instance_params_.emplace_back(u.name, own_params(params_, u.name, t.tables),
                                  bind_needs(t.needs, &u, topo_, registry_, params_));
    params_of_[u.name] = &instance_params_.back();
    return instance_params_.back();
}

void Pipeline::build() {
    // Memories first (the units with a memory port are given theirs), then the rest, each in the
    // order listed.
    std::vector<std::pair<const UnitSpec*, const UnitType*>> specs;
    for (const UnitSpec& u : topo_.units) {
        const UnitType* t = registry_.find(u.type);
        if (!t)
            throw TopologyError(located(u.at, "type", fmt::format("unknown unit type {}; valid: {}", printable(u.type, 60),
                                                                  registry_.names())));
        specs.push_back({&u, t});
    }
    std::map<std::string, std::unique_ptr<TimedUnit>> made;
    std::map<std::string, const UnitType*> type_of;
    for (const auto& [u, t] : specs) type_of[u->name] = t;
    for (int memories = 1; memories >= 0; --memories)
        for (const auto& [u, t] : specs) {
            if (t->is_memory != bool(memories)) continue;
            MemoryModel* memory = nullptr;
            if (t->memory_port) {
                if (u->memory.empty())
                    throw TopologyError(located(u->at, "", fmt::format("unit {}: its memory port is not connected (give "
                                                                       "\"memory\": the name of a memory unit)",
                                                                       u->name)));
                const auto it = type_of.find(u->memory);
                if (it == type_of.end() || !it->second->is_memory)
                    throw TopologyError(located(u->at, "memory", fmt::format("unit {}: \"memory\" names no memory unit ({})",
                                                                             u->name, printable(u->memory, 60))));
                memory = static_cast<MemoryModel*>(made.at(u->memory).get());
            } else if (!u->memory.empty()) {
                throw TopologyError(located(u->at, "memory", fmt::format("unit {} (type {}) has no memory port", u->name,
                                                                         u->type)));
            }
            UnitContext c{u->name, instance_params(*u, *t), pool_, machine_, constant_memory_, memory, probes_.get(), {}, {}, {}, {}, {}};
            c.sync = [this](Cycle at) { dispatcher_->sync(at); };
            c.sink = opt_.sink;
            if (!opt_.marks.empty() && opt_.at_mark &&
                std::find(t->roles.begin(), t->roles.end(), "output") != t->roles.end()) {
                if (++outputs_marked_ > 1)
                    throw std::invalid_argument("a run's marks (RunOptions::marks) need exactly one output unit");
                c.marks = opt_.marks;
                c.at_mark = [this](Cycle now) {
                    std::vector<const StatGroup*> groups;
                    for (const auto& unit : units_)
                        for (const StatGroup* g : unit->stat_groups()) groups.push_back(g);
                    opt_.at_mark(now, groups);
                    if (opt_.stop_at_last_mark && ++marks_reached_ == opt_.marks.size()) dispatcher_->stop();
                };
            }
            c.draw_done = [this](const DrawState& d) {
                if (d.setup.software) {
                    ++sw_draws_;
                    sw_vertices_ += d.setup.software->processed;
                    sw_slots_ += d.setup.software->processed * d.setup.software->program_slots;
                }
                if (d.setup.fixed_function && d.setup.ff_program) {
                    ++ff_draws_;
                    const std::pair<uint32_t, uint32_t> p{d.setup.ff_program->instructions, d.setup.ff_program->slots};
                    if (std::find(ff_programs_.begin(), ff_programs_.end(), p) == ff_programs_.end())
                        ff_programs_.push_back(p);
                }
                if (opt_.draw_done) opt_.draw_done(d);
                retire(d);
            };
            UnitFactory make = t->make;
            const auto v = opt_.variants.find(t->name);
            if (v != opt_.variants.end()) {
                const auto f = t->variants.find(v->second);
                if (f == t->variants.end())
                    throw TopologyError(fmt::format("unit type {} has no variant {}", t->name, v->second));
                make = f->second;
            }
            made[u->name] = make(c);
            if (made[u->name]->basename() != u->name)
                throw std::logic_error(fmt::format("unit type {}: its factory named the unit {}, not {}", t->name,
                                                   made[u->name]->basename(), u->name));
        }
    for (const auto& [u, t] : specs) {
        by_name_[u->name] = made.at(u->name).get();
        units_.push_back(std::move(made.at(u->name)));
        types_.push_back(t);
    }
}

PortBase& find_port(const std::map<std::string, TimedUnit*>& units, const LinkSpec& l, bool input) {
    const std::string& path = input ? l.to : l.from;
    const char* field = input ? "to" : "from";
    const size_t dot = path.find('.');
    const auto it = units.find(path.substr(0, dot));
    if (it == units.end() || dot == std::string::npos)
        throw TopologyError(
            located(l.at, field, fmt::format("link {}: {} names no unit (\"unit.port\")", l.name, printable(path, 60))));
    PortBase* p = it->second->port(path.substr(dot + 1));
    if (!p) {
        std::string valid;
        for (const PortBase* q : it->second->ports())
            valid += fmt::format("{}{} ({})", valid.empty() ? "" : ", ", q->name(), q->input() ? "in" : "out");
        throw TopologyError(located(l.at, field, fmt::format("link {} names no port {}; the ports of {}: {}", l.name,
                                                             printable(path, 60),
                                                             it->first, valid.empty() ? "none" : valid)));
    }
    if (p->input() != input)
        throw TopologyError(located(l.at, field, fmt::format("link {}: {} is an {} port; \"{}\" needs an {} port", l.name,
                                                             printable(path, 60), p->input() ? "input" : "output", field,
                                                             input ? "input" : "output")));
    return *p;
}

void Pipeline::bind() {
    for (const LinkSpec& l : topo_.links) {
        PortBase& from = find_port(by_name_, l, false);
        PortBase& to = find_port(by_name_, l, true);
        if (from.type() != to.type())
            throw TopologyError(located(l.at, "to", fmt::format("link {}: {} and {} carry different things", l.name,
                                                                l.from, l.to)));
        if (from.bound() || to.bound())
            throw TopologyError(located(l.at, from.bound() ? "from" : "to",
                                        fmt::format("link {}: port {} is connected twice", l.name,
                                                    from.bound() ? l.from : l.to)));
        auto resolve = [&](const Amount& a, const char* field) {
            try {
                return a.resolve(params_);
            } catch (const ParamError& e) {
                throw TopologyError(located(l.at, field, fmt::format("link {}: {}", l.name, e.what())));
            }
        };
        const uint64_t capacity = resolve(l.capacity, "capacity"), latency = resolve(l.latency, "latency"),
                       bandwidth = resolve(l.bandwidth, "bandwidth");
        // (A number in the file is checked when it is read, a parameter when it is resolved.)
        if (capacity == 0)
            throw TopologyError(located(l.at, "capacity", fmt::format("link {}: capacity {} is 0; a channel holds at "
                                                                      "least 1 item", l.name, l.capacity.text())));
        if (bandwidth == 0)
            throw TopologyError(located(l.at, "bandwidth", fmt::format("link {}: bandwidth {} is 0; a channel moves at "
                                                                       "least 1 item a cycle", l.name, l.bandwidth.text())));
        channels_.push_back(from.make_channel(l.name, uint32_t(capacity), uint32_t(latency), uint32_t(bandwidth)));
        from.bind(*channels_.back());
        to.bind(*channels_.back());
        peer_[l.from] = {to.owner().basename(), l.capacity.text(), capacity};
        peer_[l.to] = {from.owner().basename(), l.capacity.text(), capacity};
        channels_.back()->attach(probes_.get());
    }
    for (size_t i = 0; i < units_.size(); ++i)
        for (const PortBase* p : units_[i]->ports())
            if (!p->bound())
                throw TopologyError(located(topo_.units[i].at, "name",
                                            fmt::format("port {} ({}) is not connected: no link names it", p->full_name(),
                                                        p->input() ? "in" : "out")));
}

void Pipeline::progress(Cycle now, bool final_line) {
    const auto t = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(t - t0_).count();
    if (!final_line && (s < 2.0 || std::chrono::duration<double>(t - last_progress_).count() < 0.5)) return;
    if (final_line && !progress_shown_) return;
    last_progress_ = t;
    progress_shown_ = true;
    std::fprintf(stderr, "\rvpsim run: %llu cycles, %llu vertices, %llu/%llu draws, %.1f M cycles/s%s",
                 (unsigned long long)now, (unsigned long long)count_now("references", now),
                 (unsigned long long)count_now("draws", now), (unsigned long long)count_now("draws_started", now),
                 s > 0 ? double(now) / s / 1e6 : 0.0, final_line ? "\n" : "   ");
    std::fflush(stderr);
}

void Pipeline::dispatch() {
    t0_ = last_progress_ = std::chrono::steady_clock::now();
    try {
        end = dispatcher_->run();
        // The services (the memory) close their accounting too.
        for (size_t i = 0; i < units_.size(); ++i)
            if (!types_[i]->stepped) units_[i]->finish(end);
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

SummaryUnits Pipeline::units_of(const UnitType& type, Cycle now) const {
    SummaryUnits u;
    u.cycles = now;
    u.clock_mhz = pp_.clock_mhz;
    for (size_t i = 0; i < units_.size(); ++i)
        if (types_[i]->name == type.name) u.groups.push_back(&units_[i]->stats());
    return u;
}

uint64_t Pipeline::count_now(const std::string& key, Cycle now) const {
    for (const UnitType& t : registry_.types())
        for (const SummaryMetric& m : t.summary.metrics)
            if (m.key == key && m.value) return m.value(units_of(t, now)).get<uint64_t>();
    return 0;
}

void Pipeline::summarise(RunResult& r) const {
    // Each value from its type's units' counters, then those derived from other values, then the rows.
    std::set<std::string> keys;
    for (bool derived : {false, true})
        for (const UnitType& t : registry_.types())
            for (const SummaryMetric& m : t.summary.metrics) {
                if (bool(m.derived) != derived) continue;
                if (!keys.insert(m.key).second)
                    throw std::logic_error(fmt::format("unit type {}: summary value {} is declared twice", t.name, m.key));
                r.values.add({m.key, m.rank, derived ? m.derived(r.values) : m.value(units_of(t, end)), m.in_json});
            }
    for (const UnitType& t : registry_.types())
        for (const SummaryLine& l : t.summary.lines)
            for (auto& [label, text] : l.rows(units_of(t, end), r.values)) r.rows.push_back({l.rank, label, text});
    std::stable_sort(r.rows.begin(), r.rows.end(), [](const SummaryRow& a, const SummaryRow& b) { return a.rank < b.rank; });
}

std::map<std::string, RoleUnit> Pipeline::roles() const {
    std::map<std::string, RoleUnit> out;
    for (size_t i = 0; i < units_.size(); ++i)
        for (const std::string& role : types_[i]->roles) out.insert({role, {units_[i]->basename(), types_[i]->name}});
    return out;
}

BoundNeeds Pipeline::caps_params() const {
    const std::map<std::string, RoleUnit> r = roles();
    for (const ParamNeed& n : CapsParams::bindings().needs())
        if (!r.count(n.role)) return {};
    return bind_needs(CapsParams::bindings().needs(), nullptr, topo_, registry_, params_);
}

std::vector<RunResult::Instance> Pipeline::instance_lines(const nlohmann::ordered_json& units) const {
    std::map<std::string, size_t> of_type;
    for (const UnitType* t : types_) ++of_type[t->name];
    std::vector<RunResult::Instance> out;
    for (size_t i = 0; i < units_.size(); ++i) {
        const UnitType& t = *types_[i];
        const std::string unit = units_[i]->basename();
        if (of_type[t.name] < 2 || !units.contains(unit)) continue;
        const auto& g = units[unit];
        double busy = NAN;
        if (t.words.capacity) busy = t.words.capacity(g, end, *params_of_.at(unit));
        if (std::isnan(busy) && end && g.contains("cycles") && g["cycles"].is_object()) busy = double(g["cycles"]["busy"].get<uint64_t>()) / double(end);
        if (std::isnan(busy)) continue;
        std::string words = t.words.busy;
        const size_t at = words.find("{}");
        if (at != std::string::npos) words.replace(at, 2, fmt::format("{:.1f} %", 100 * busy));
        out.push_back({unit, t.name, busy, fmt::format("{} ({}): {}", unit, t.words.noun, words)});
    }
    return out;
}

RunResult Pipeline::result() const {
    RunResult r;
    r.cycles = end;
    r.clock_mhz = pp_.clock_mhz;
    r.host_seconds = host_seconds;
    r.warnings = machine_.warnings();
    StatsReport rep;
    UnitWordsMap words;
    for (size_t i = 0; i < units_.size(); ++i) {
        for (const StatGroup* g : units_[i]->stat_groups()) rep.add(*g);
        words[units_[i]->basename()] = {&types_[i]->words, topo_.units[i].memory, params_of_.at(units_[i]->basename())};
    }
    r.cycle_errors = rep.check_cycles_add_up(end);
    if (opt_.cycles_only) {
        summarise(r);
        return r;
    }
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
        for (const TimedUnit* u : dispatcher_->units()) reasons[u->basename()];  // units without stall reasons too
        r.timeseries_csv = series_->csv(reasons);
    }
    r.ff_draws = ff_draws_;
    r.software_draws = sw_draws_;
    r.software_vertices = sw_vertices_;
    r.software_slots = sw_slots_;
    r.ff_programs = ff_programs_;
    summarise(r);
    for (const StatGroup* g : rep.groups()) {
        if (!g->timed()) continue;
        for (const auto& [reason, v] : r.stats["units"][g->unit()]["cycles"]["stalled"].items()) {
            const uint64_t c = v["cycles"].get<uint64_t>();
            if (c) r.top_stalls.push_back({g->unit(), reason, c, v.value("class", "local"), v.value("by", "")});
        }
    }
    std::sort(r.top_stalls.begin(), r.top_stalls.end(),
              [](const TopStall& a, const TopStall& b) { return a.cycles > b.cycles; });
    const Bottleneck b = trace_bottleneck(r.stats["units"], end, words);
    r.bottleneck_unit = b.unit;
    r.bottleneck_busy = b.busy;
    r.bottleneck_reason = b.reason;
    r.bottleneck_capacity_key = b.capacity_key;
    r.bottleneck = b.text;
    r.bottleneck_chain = b.chain;
    r.caps = find_caps(caps_params(), r.stats["units"], end, roles());
    r.instances = instance_lines(r.stats["units"]);
    return r;
}

// Runs `f` on a thread of its own in a fresh SystemC context and rethrows its error here, after
// it has ended: SystemC's coroutines switch stacks behind AddressSanitizer's back, and an
// exception thrown later on the same thread trips a false "stack-use-after-scope" report.
template <class F>
void on_sim_thread(F&& f) {
    std::exception_ptr error;
    std::thread sim([&] {
        try {
            sc_fresh_context();
            sc_report_handler::set_actions(SC_WARNING, SC_DO_NOTHING);
            sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
            f();
        } catch (...) {
            error = std::current_exception();
        }
    });
    sim.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace

void check_cycles_add_up(const RunResult& r) {
    if (r.cycle_errors.empty()) return;
    std::string m = "statistics do not add up (internal error):";
    for (const auto& e : r.cycle_errors) m += "\n  " + e;
    throw std::logic_error(m);
}

RunResult run_pipeline(const scene::Scene& scene, const ParamSet& params, const vs::Profile& profile,
                       const RunOptions& options) {
    RunResult result;
    on_sim_thread([&] {
        auto top = std::make_unique<Pipeline>("vpsim", scene, params, profile, options);
        sc_start();
        if (top->error) std::rethrow_exception(top->error);
        result = top->result();
    });
    return result;
}

void check_topology(const ParamSet& params, const RunOptions& options) {
    const scene::Scene empty;
    on_sim_thread([&] { Pipeline("vpsim", empty, params, vs::Profile::d3d8(), options); });
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
