#include "model/study/sampling.h"

#include "model/pipe/primitive_assembly.h"
#include "model/scene/program_cache.h"
#include "model/scene/scene_window.h"
#include "model/scene/state_override.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <variant>

namespace vpsim::study {

namespace {

using scene::Command;
using scene::CommandBody;
using scene::PrimitiveType;

// References a draw's primitives [0, p) span: the primitive type's vertex count.
uint64_t refs_of(PrimitiveType t, uint64_t prims) { return pipe::vertex_count(t, prims); }

// The position (vertex or index) of primitive p from the draw's start: lists p x vertices per
// primitive, strips p (a strip's primitive p starts at its p-th vertex).
uint64_t start_of(PrimitiveType t, uint64_t p) {
    if (t == PrimitiveType::LineStrip || t == PrimitiveType::TriangleStrip) return p;
    return p * pipe::vertices_per_primitive(t);
}

struct DrawInfo {
    PrimitiveType type = PrimitiveType::TriangleList;
    bool indexed = false;
    std::optional<uint64_t> primitives;  // none: not cut (a patch, or unknown)
};

DrawInfo draw_info(const CommandBody& c, const scene::DrawSize& size) {
    DrawInfo d;
    if (const auto* dp = std::get_if<scene::DrawPrimitive>(&c)) {
        d.type = dp->type;
        d.primitives = dp->primitive_count;
    } else if (const auto* di = std::get_if<scene::DrawIndexedPrimitive>(&c)) {
        d.type = di->type;
        d.indexed = true;
        if (di->primitive_count)
            d.primitives = *di->primitive_count;
        else if (size.references)
            d.primitives = pipe::primitive_count(di->type, *size.references);
    }
    return d;
}

// The draw state that decides a phase's kind: what selects the program the vertices run (the
// shader, the fixed-function state that selects the driver's program: render states, lights
// enabled and their types, texture stage states). Constants, transforms, materials, light
// colours and positions, streams and indices do not change a unit's cost structure and are not
// part of it.
class DrawStateKey {
public:
    // Applies `c` (a command that is not one of those: nothing).
    void apply(const CommandBody& c) {
        if (const auto* v = std::get_if<scene::SetVertexShader>(&c))
            state_["vs"] = v->name + (v->fvf ? "/" + std::to_string(*v->fvf) : std::string());
        else if (const auto* r = std::get_if<scene::SetRenderState>(&c))
            state_[fmt::format("rs{}", r->state)] = std::to_string(r->dword);
        else if (const auto* l = std::get_if<scene::LightEnable>(&c))
            state_[fmt::format("le{}", l->index)] = l->enable ? "1" : "0";
        else if (const auto* sl = std::get_if<scene::SetLight>(&c))
            state_[fmt::format("lt{}", sl->index)] = std::to_string(int(sl->light.type));
        else if (const auto* t = std::get_if<scene::SetTextureStageState>(&c))
            state_[fmt::format("ts{}.{}", t->stage, t->state)] = std::to_string(t->value);
    }
    // The key of a draw of primitive type `t` under the current state.
    std::string key(PrimitiveType t, bool indexed) const {
        std::string k = fmt::format("{}{}", int(t), indexed ? "i" : "");
        for (const auto& [name, value] : state_) k += ";" + name + "=" + value;
        return k;
    }

private:
    std::map<std::string, std::string> state_;
};

void refuse_tessellation(const scene::Scene& s) {
    for (const Command& c : s.commands) {
        if (std::holds_alternative<scene::DrawRectPatch>(c.body) || std::holds_alternative<scene::DrawTriPatch>(c.body))
            throw SampleRefused(fmt::format("{}: {}: a patch: the tessellator's cached patches span draws, so a "
                                            "patch draw cannot be simulated apart from the draws before it",
                                            s.name, c.pointer));
        if (const auto* rs = std::get_if<scene::SetRenderState>(&c.body))
            if (rs->state == scene::kRsPatchSegments && rs->value > 1.0f)
                throw SampleRefused(fmt::format("{}: {}: N-patches (PATCHSEGMENTS > 1): the tessellator's state spans "
                                                "draws, so an N-patched draw cannot be simulated apart",
                                                s.name, c.pointer));
    }
}

// Cuts every draw into units of about `unit_refs` references, and groups them into phases: a
// draw whose state key differs from the draw before it starts a phase, of the kind of its key.
void cut_units(const scene::Scene& s, SamplePlan& p) {
    const auto sizes = scene::draw_sizes(s);
    size_t d = 0;
    DrawStateKey state;
    std::map<std::string, size_t> kinds;  // key -> kind
    std::string last_key;
    for (size_t i = 0; i < s.commands.size(); ++i) {
        const CommandBody& c = s.commands[i].body;
        state.apply(c);
        if (!scene::is_draw(c)) continue;
        const DrawInfo info = draw_info(c, sizes[d++]);
        std::string key = state.key(info.type, info.indexed);
        if (p.phases.empty() || key != last_key) {
            const size_t kind = kinds.emplace(key, kinds.size()).first->second;
            SamplePhase ph;
            ph.first = p.units.size();
            ph.kind = kind;
            p.phases.push_back(ph);
            last_key = std::move(key);
        }
        const bool cuttable = info.primitives && *info.primitives > 0 && info.type != PrimitiveType::TriangleFan;
        if (!cuttable) {
            const uint64_t refs = info.primitives ? refs_of(info.type, *info.primitives) : 0;
            p.units.push_back({i, 0, info.primitives.value_or(0), true, refs, p.phases.size() - 1});
        } else {
            const uint64_t prims = *info.primitives;
            const uint64_t per = std::max<uint64_t>(1, p.unit_refs / pipe::vertices_per_primitive(info.type));
            const uint64_t pieces = std::max<uint64_t>(1, (prims + per / 2) / per);
            for (uint64_t k = 0; k < pieces; ++k) {
                const uint64_t a = prims * k / pieces, b = prims * (k + 1) / pieces;
                const uint64_t refs = refs_of(info.type, b) - refs_of(info.type, a);
                p.units.push_back({i, a, b, pieces == 1, refs, p.phases.size() - 1});
            }
        }
        p.phases.back().count = p.units.size() - p.phases.back().first;
    }
    p.kinds = kinds.size();
    for (const SampleUnit& u : p.units) p.references += u.references;
}

// Each unit's vertices shaded: its references that miss the post-transform cache, looked up in
// reference order from its draw's start as the index fetch does (the cache is emptied at every
// draw); a draw that is not indexed shades every reference. The estimate's auxiliary variable: a
// unit's cycles track it (the vertex work) far more closely than its references.
void count_shaded(const scene::Scene& s, SamplePlan& p, const pipe::PostTransformCacheParams& cache_params) {
    const scene::Buffer* indices = nullptr;
    pipe::MissCounter counter(cache_params);  // its stamps are kept from draw to draw
    size_t u = 0;
    for (size_t i = 0; i < s.commands.size() && u < p.units.size(); ++i) {
        const CommandBody& c = s.commands[i].body;
        if (const auto* si = std::get_if<scene::SetIndices>(&c)) {
            const auto it = si->buffer ? s.buffers.find(*si->buffer) : s.buffers.end();
            indices = it != s.buffers.end() && it->second.is_index() ? &it->second : nullptr;
            continue;
        }
        if (p.units[u].command != i) continue;
        size_t end = u;
        uint64_t refs = 0;
        for (; end < p.units.size() && p.units[end].command == i; ++end) refs += p.units[end].references;
        const auto* di = std::get_if<scene::DrawIndexedPrimitive>(&c);
        if (!di || !indices || di->start_index + refs > indices->index_count()) {
            for (; u < end; ++u) p.units[u].shaded = p.units[u].references;  // not indexed, or refused by the run
            continue;
        }
        // The draw's indices as the index fetch reads them, from its start with the cache empty.
        const auto index = [indices, first = di->start_index](uint64_t k) { return indices->index(first + k); };
        uint32_t largest = 0;
        for (uint64_t k = 0; k < refs; ++k) largest = std::max(largest, index(k));
        const auto count = [&](auto& cache) {
            uint64_t pos = 0;
            for (; u < end; ++u) {
                SampleUnit& unit = p.units[u];
                for (const uint64_t stop = pos + unit.references; pos < stop; ++pos) unit.shaded += !cache.lookup(index(pos));
            }
        };
        if (largest < pipe::MissCounter::kMaxIndex) {
            counter.flush();
            count(counter);
        } else {
            pipe::PostTransformCache cache(cache_params);
            count(cache);
        }
    }
}

// The strata: each kind's units split in two, those that start a phase (2 k + 1: they carry the
// switch from the state before, which costs what the kind's other units do not) and the others
// (2 k). A stratum of at least 2 min_phase_samples units is sampled: its units ordered by their
// vertices shaded (scene order among equals), one unit of every period at a seeded random position
// (the period shortened so that it has min_phase_samples). The order by size spreads the sample
// over the sizes, so that the few large units of a kind of small ones are in it. The units of
// smaller strata are simulated whole, adjacent ones merged, and so are the scene's first and last
// units: they hold the run's start (the state the scene sets before its first draw, the pipeline's
// fill) and its drain, which no other unit represents (on a recorded frame the first unit took 23
// times a unit of its kind).
void choose_blocks(SamplePlan& p, const SampleOptions& o) {
    std::mt19937_64 rng(p.seed);
    p.blocks.clear();
    p.samples = p.whole_units = 0;
    const size_t strata = 2 * p.kinds;
    p.stratum_units.assign(strata, 0);
    p.stratum_shaded.assign(strata, 0);
    p.stratum_period.assign(strata, 0);
    for (SamplePhase& ph : p.phases) ph.sampled = false, ph.samples = 0;
    const size_t last = p.units.size() - 1;
    auto exact = [last](size_t u) { return u == 0 || u == last; };
    auto stratum_of = [&p](size_t u) { return 2 * p.phases[p.units[u].phase].kind + (p.phases[p.units[u].phase].first == u); };
    std::vector<std::vector<size_t>> units_of(strata);
    for (size_t u = 0; u < p.units.size(); ++u)
        if (!exact(u)) units_of[stratum_of(u)].push_back(u);
    std::vector<char> chosen(p.units.size(), 0);
    for (size_t k = 0; k < strata; ++k) {
        std::vector<size_t>& us = units_of[k];
        if (us.size() < 2 * o.min_phase_samples) continue;
        p.stratum_units[k] = us.size();
        for (size_t u : us) p.stratum_shaded[k] += p.units[u].shaded;
        std::stable_sort(us.begin(), us.end(), [&p](size_t a, size_t b) { return p.units[a].shaded < p.units[b].shaded; });
        // The period, shortened for a stratum that would otherwise have fewer than `min_phase_samples`.
        const uint64_t period = std::max<uint64_t>(1, std::min<uint64_t>(p.period, us.size() / o.min_phase_samples));
        p.stratum_period[k] = period;
        // One unit at a random position in each period (a fixed offset would alias with a
        // mesh's row structure, docs/sampling.md).
        for (uint64_t start = 0; start < us.size(); start += period)
            chosen[us[start + rng() % std::min<uint64_t>(period, us.size() - start)]] = 1;
    }
    for (size_t h = 0; h < p.phases.size(); ++h) {
        SamplePhase& ph = p.phases[h];
        ph.sampled = p.stratum_units[2 * ph.kind] > 0;
        for (size_t u = ph.first; u < ph.first + ph.count; ++u) {
            const size_t k = stratum_of(u);
            if (p.stratum_units[k] && !exact(u)) {
                if (!chosen[u]) continue;
                p.blocks.push_back({u, u, true, h, k});
                ++ph.samples;
                ++p.samples;
                continue;
            }
            ++p.whole_units;
            if (!p.blocks.empty() && !p.blocks.back().sampled && p.blocks.back().last + 1 == u)
                p.blocks.back().last = u;
            else
                p.blocks.push_back({u, u, false, h, 0});
        }
    }
}

}  // namespace

SamplePlan plan_sampling(const scene::Scene& s, const SampleOptions& o) {
    refuse_tessellation(s);
    SamplePlan p;
    p.warmup = o.warmup;
    p.seed = o.seed;
    p.bias = o.bias;
    uint64_t total = 0;
    for (const auto& d : scene::draw_sizes(s)) total += d.references.value_or(0);
    p.unit_refs = o.unit_refs ? o.unit_refs : std::clamp<uint64_t>(total / 8000, 96, 1000);
    cut_units(s, p);
    count_shaded(s, p, o.cache);
    p.replaced = scene::replaced_at(s);
    if (p.units.empty()) throw SampleRefused(s.name + ": the scene draws nothing: there is nothing to sample");
    p.period = o.period ? o.period : std::max<uint64_t>(1, p.units.size() / o.target_samples);
    choose_blocks(p, o);
    // The automatic period aims at `target_samples` over the whole scene; when kinds too small for
    // it leave fewer samples than the interval needs (a real frame's many kinds of draws), a
    // shorter period, by a third at a time, until there are enough or the period is 2 (measuring
    // every unit would be a full run with warm-ups added).
    while (!o.period && p.samples < o.min_samples && p.period > 2) {
        p.period = std::max<uint64_t>(2, p.period * 2 / 3);
        choose_blocks(p, o);
    }
    if (p.units.size() >= o.min_samples && 2 * p.whole_units > p.units.size())
        throw SampleRefused(fmt::format(
            "{}: phase changes too frequent to bound: {} of {} units are in phases of kinds with fewer than {} units "
            "({} samples), which sampling cannot bound; run it in full",
            s.name, p.whole_units, p.units.size(), 2 * o.min_phase_samples, o.min_phase_samples));
    if (p.samples < o.min_samples)  // too few units for any period, or too few in sampled phases
        throw SampleRefused(fmt::format(
            "{}: too short to sample: {} units of about {} references in {} phase(s) give {} samples at period {} "
            "(at least {} are needed for the interval); run it in full, or choose a smaller --sample-unit or "
            "--sample-period",
            s.name, p.units.size(), p.unit_refs, p.phases.size(), p.samples, p.period, o.min_samples));
    return p;
}

uint64_t block_shaded(const SamplePlan& p, const SampleBlock& b) {
    uint64_t n = 0;
    for (size_t u = b.first; u <= b.last && u < p.units.size(); ++u) n += p.units[u].shaded;
    return n;
}

scene::Scene sub_scene(const scene::Scene& s, const SamplePlan& p, size_t first, size_t last, bool with_buffers,
                       bool drop_replaced) {
    scene::Scene out;
    out.name = s.name;
    if (with_buffers) out.buffers = s.buffers;
    out.vertex_processing = s.vertex_processing;
    out.const_count = s.const_count;
    const size_t end = last + 1 == p.units.size() ? s.commands.size() : p.units[last].command + 1;
    // Before the first draw kept, only the state still in force there (scene::replaced_at). The
    // commands before it are chosen without reading them (a block's run of a recorded frame range
    // passes thousands): the replaced ones by `p.replaced`, the draws by their units (every draw
    // is cut into units, in command order, and none of a draw before `cut` is kept).
    const size_t cut = !drop_replaced ? 0 : first < p.units.size() ? p.units[first].command : end;
    std::vector<size_t> before;
    for (size_t i = 0, u = 0; i < cut; ++i) {
        if (i < p.replaced.size() && p.replaced[i] < cut) continue;
        while (u < p.units.size() && p.units[u].command < i) ++u;
        if (u < p.units.size() && p.units[u].command == i) continue;
        before.push_back(i);
    }
    out.commands.reserve(before.size() + (end - cut));
    for (size_t i : before) out.commands.push_back(s.commands[i]);
    size_t u = cut ? first : 0;  // (every unit before `first` is of a command before `cut`)
    for (size_t i = cut; i < end; ++i) {
        const Command& c = s.commands[i];
        if (!scene::is_draw(c.body)) {
            out.commands.push_back(c);
            continue;
        }
        while (u < p.units.size() && p.units[u].command < i) ++u;
        size_t a = std::max(u, first), b = a;  // this draw's units within [first, last]
        while (b < p.units.size() && b <= last && p.units[b].command == i) ++b;
        if (a >= b || p.units[a].command != i) continue;
        const SampleUnit &ua = p.units[a], &ub = p.units[b - 1];
        Command cut = c;
        if (!ua.whole) {
            if (auto* dp = std::get_if<scene::DrawPrimitive>(&cut.body)) {
                dp->start_vertex += uint32_t(start_of(dp->type, ua.first));
                dp->primitive_count = uint32_t(ub.end - ua.first);
            } else if (auto* di = std::get_if<scene::DrawIndexedPrimitive>(&cut.body)) {
                di->start_index += uint32_t(start_of(di->type, ua.first));
                di->primitive_count = uint32_t(ub.end - ua.first);
            }
        }
        out.commands.push_back(std::move(cut));
    }
    return out;
}

Estimate stratified_estimate(double exact, const std::vector<Stratum>& strata, double z, double bias) {
    Estimate e{exact, 0};
    double var = 0;
    for (const Stratum& h : strata) {
        const double n = double(h.values.size()), N = double(h.units);
        if (n == 0) continue;
        double mean = 0;
        for (double v : h.values) mean += v;
        mean /= n;
        double ss = 0;
        for (double v : h.values) ss += (v - mean) * (v - mean);
        double s2 = n > 1 ? ss / (n - 1) : 0;
        double total = N * mean;
        // Regression on the auxiliary (vertices shaded) when it can be fitted: the slope b from the
        // sample, the population's mean of x known exactly.
        if (h.aux.size() == h.values.size() && n >= 3 && N > 0) {
            double xm = 0;
            for (double x : h.aux) xm += x;
            xm /= n;
            double sxx = 0, sxy = 0;
            for (size_t i = 0; i < h.values.size(); ++i) {
                sxx += (h.aux[i] - xm) * (h.aux[i] - xm);
                sxy += (h.aux[i] - xm) * (h.values[i] - mean);
            }
            if (sxx > 0) {
                const double b = sxy / sxx;
                double se = 0;
                for (size_t i = 0; i < h.values.size(); ++i) {
                    const double r = h.values[i] - mean - b * (h.aux[i] - xm);
                    se += r * r;
                }
                s2 = se / (n - 2);
                total = N * mean + b * (h.aux_total - N * xm);
            }
        }
        e.value += total;
        // No finite-population correction: a unit's marginal cycles carry the error of its finite
        // warm-up, which a census (period 1) would otherwise report as a zero-width interval.
        var += N * N * s2 / n;
    }
    e.half_width = z * std::sqrt(std::max(0.0, var)) + bias * std::fabs(e.value - exact);
    return e;
}

namespace {

// Buffers lent out (`a` and `b` swapped) are swapped back when it goes out of scope.
struct SwapBack {
    std::map<std::string, scene::Buffer>& a;
    std::map<std::string, scene::Buffer>& b;
    ~SwapBack() { a.swap(b); }
};

// A run's cycles and every unit's busy and stall cycles, keyed "unit\treason".
struct Measured {
    double cycles = 0;
    std::map<std::string, double> stats;
    std::vector<std::string> keys;  // stats' keys in topology order, each unit's busy then its stall reasons
    void put(const std::string& key, double v) {
        if (stats.emplace(key, v).second) keys.push_back(key);
    }
};

// The cycles and statistics of the run of `sc` (without buffers: they are `buffers'`, lent for the
// run, not copied) between two marks: from the cycle the output emits its `from`-th reference (0:
// the run's start) to the cycle it emits its `to`-th (0: the run's end). One run measures the
// units after a warm-up, which overlaps them as the units before do in the full run, and counts
// neither its fill nor, but for the scene's last unit, its drain: units measured apart then add up
// as in one run.
Measured measure(scene::Scene sc, uint64_t from, uint64_t to, std::map<std::string, scene::Buffer>& buffers,
                 const ParamSet& params, const vs::Profile& profile, const sc::RunOptions& options,
                 std::vector<std::string>& order) {
    Measured m;
    if (sc.commands.empty()) return m;
    sc.buffers.swap(buffers);
    const SwapBack give_back{sc.buffers, buffers};
    sc::RunOptions o = options;
    std::vector<Measured> at;  // at each mark
    if (from) o.marks.push_back(from);
    if (to) o.marks.push_back(to);
    o.cycles_only = to != 0;  // the statistics come from the marks; the run's end needs its report
    o.stop_at_last_mark = to != 0;  // nothing after the `to` mark is read: the cool-down's drain is not simulated
    if (!o.marks.empty())
        o.at_mark = [&](sc::Cycle now, const std::vector<const StatGroup*>& groups) {
            Measured& a = at.emplace_back();
            a.cycles = double(now);
            for (const StatGroup* g : groups) {
                if (!g->timed()) continue;
                const CyclesAt c = g->cycles_at(now);
                const std::vector<std::string> reasons = g->stall_reasons();
                uint64_t sum = c.busy + c.idle;
                for (uint64_t v : c.stalled) sum += v;
                if (sum != now)
                    throw std::logic_error(fmt::format("sampling: unit {}'s cycles at a mark add up to {}, not {} "
                                                       "(internal error)", g->unit(), sum, now));
                a.put(g->unit() + "\tbusy", double(c.busy));
                for (size_t k = 0; k < reasons.size(); ++k) a.put(g->unit() + "\t" + reasons[k], double(c.stalled[k]));
            }
        };
    const sc::RunResult r = sc::run_pipeline(sc, params, profile, o);
    sc::check_cycles_add_up(r);
    if (at.size() != o.marks.size())
        throw std::logic_error(fmt::format("sampling: the run emitted {} references, not the {} its marks need "
                                           "(internal error)", r.count("references"), o.marks.back()));
    Measured end;  // the run's end, or its `to` mark
    if (to) {
        end = std::move(at.back());
        at.pop_back();
    } else {
        end.cycles = double(r.cycles);
        for (const auto& [unit_key, g] : r.stats["units"].items()) {
            if (!g.contains("cycles") || !g["cycles"].is_object()) continue;  // a group without cycle accounting
            const auto& cy = g["cycles"];
            end.put(std::string(unit_key) + "\tbusy", cy["busy"].get<double>());
            if (cy.contains("stalled"))
                for (const auto& [reason, st] : cy["stalled"].items())
                    end.put(std::string(unit_key) + "\t" + reason, st["cycles"].get<double>());
        }
    }
    const Measured* start = from ? &at.front() : nullptr;
    m.cycles = end.cycles - (start ? start->cycles : 0.0);
    for (const std::string& key : end.keys) {
        if (std::find(order.begin(), order.end(), key) == order.end()) order.push_back(key);
        const auto before = start ? start->stats.find(key) : end.stats.end();
        m.put(key, end.stats.at(key) - (start && before != start->stats.end() ? before->second : 0.0));
    }
    return m;
}

uint64_t refs_between(const SamplePlan& p, size_t first, size_t last) {
    uint64_t n = 0;
    for (size_t u = first; u <= last && u < p.units.size(); ++u) n += p.units[u].references;
    return n;
}

// The last unit of the cool-down after unit `last` (measure_units): the units after it until they
// hold `ahead` references, at least one (none after the scene's last unit).
size_t cool_down_end(const SamplePlan& plan, size_t last, uint64_t ahead) {
    size_t to = last;
    for (uint64_t cool = 0; to + 1 < plan.units.size() && (to == last || cool < ahead);)
        cool += plan.units[++to].references;
    return to;
}

// The cycles and statistics of units [first, last] simulated from unit `from`: one run of units
// [from, to], `to` the end of `last`'s cool-down (cool_down_end), from the cycle the last reference
// before `first` leaves the output to the cycle the last reference of `last` does (the run's end
// for the scene's last unit). The cool-down gives the units upstream of the output the work they
// run ahead on in the full run (the index fetch reads up to the output's order queue ahead), so
// that their busy and stall cycles up to the second mark are those of the full run, not those of
// a pipeline running dry.
Measured measure_units(const scene::Scene& s, const SamplePlan& plan, size_t from, size_t first, size_t last,
                       size_t to, std::map<std::string, scene::Buffer>& buffers, const ParamSet& params,
                       const vs::Profile& profile, const sc::RunOptions& options, std::vector<std::string>& order) {
    const uint64_t start = first > from ? refs_between(plan, from, first - 1) : 0;
    const uint64_t end = last + 1 < plan.units.size() ? refs_between(plan, from, last) : 0;
    // Measured from a mark, the run may leave out the state its first draw does not see: the
    // commands' own cycles come before the mark (from the run's start, they are the block's).
    return measure(sub_scene(s, plan, from, to, false, start != 0), start, end, buffers, params, profile, options,
                   order);
}

// The references the units upstream of the output may be ahead of it: the output's order queue.
uint64_t run_ahead(const ParamSet& params) { return params.get_uint("output.order_queue"); }

double span_cycles(const scene::Scene& s, const SamplePlan& plan, size_t from, size_t first, size_t last, size_t to,
                   std::map<std::string, scene::Buffer>& buffers, const ParamSet& params, const vs::Profile& profile,
                   const sc::RunOptions& options) {
    std::vector<std::string> order;
    return measure_units(s, plan, from, first, last, to, buffers, params, profile, options, order).cycles;
}

// `given` with a program cache (scene::ProgramCache) when it has none: the runs of one sampled
// simulation share their parameters and profile, so a shader or fixed-function program one block's
// run made is the same in every other.
sc::RunOptions sharing_programs(const sc::RunOptions& given) {
    sc::RunOptions o = given;
    if (!o.programs) o.programs = std::make_shared<scene::ProgramCache>();
    return o;
}

}  // namespace

size_t warmup_start(const SamplePlan& p, size_t first, uint64_t ahead) {
    // Back towards the draw's first unit while the draw's start could still be the nearer: a unit
    // deep in a long draw (the sphere's) stops after W references, not at the draw's start.
    size_t d = first;
    uint64_t since = 0;
    while (d > 0 && p.units[d - 1].command == p.units[first].command && since + ahead < p.warmup)
        since += p.units[--d].references;
    size_t w = first;
    uint64_t need = p.warmup;
    if (since + ahead < p.warmup) {
        w = d;
        need = ahead;
    }
    for (uint64_t refs = 0; w > 0 && refs < need;) refs += p.units[--w].references;
    return w;
}

double StartCheck::relative() const {
    const double m = std::max(from_phase_start, from_warmup);
    return m > 0 ? std::fabs(from_phase_start - from_warmup) / m : 0.0;
}

std::vector<StartCheck> check_start(scene::Scene& s, const SamplePlan& plan, const ParamSet& params,
                                    const vs::Profile& profile, const sc::RunOptions& given, double tolerance) {
    const sc::RunOptions options = sharing_programs(given);
    std::map<std::string, scene::Buffer> buffers;  // the scene's, lent to each run and given back
    buffers.swap(s.buffers);
    const SwapBack restore{s.buffers, buffers};
    // The probe spans enough references that the boundaries' drain and fill (tens of cycles,
    // which make one short unit's cycles vary by several per cent with its start) do not count.
    const uint64_t span = std::max<uint64_t>(plan.warmup, 20 * plan.unit_refs);
    std::vector<StartCheck> out;
    std::vector<char> checked(plan.kinds, 0);  // one probe per kind: its first phase long enough
    for (size_t h = 0; h < plan.phases.size(); ++h) {
        const SamplePhase& ph = plan.phases[h];
        if (!ph.sampled || checked[ph.kind]) continue;
        const size_t end = ph.first + ph.count;
        size_t first = ph.first + 1;  // the first unit whose warm-up starts after the phase's first unit
        while (first < end && refs_between(plan, ph.first + 1, first - 1) < plan.warmup) ++first;
        size_t last = first;
        while (last < end && refs_between(plan, first, last) < span) ++last;
        if (last >= end) continue;  // the phase is too short to probe
        checked[ph.kind] = 1;
        const size_t w = warmup_start(plan, first, run_ahead(params));
        StartCheck c;
        c.phase = h;
        c.first = first;
        c.last = last;
        const size_t to = cool_down_end(plan, last, run_ahead(params));
        c.from_phase_start = span_cycles(s, plan, ph.first, first, last, to, buffers, params, profile, options);
        c.from_warmup = span_cycles(s, plan, w, first, last, to, buffers, params, profile, options);
        c.runs = 2;
        c.detail_references = refs_between(plan, ph.first, to) + refs_between(plan, w, to);
        out.push_back(c);
        if (c.relative() > tolerance)
            throw SampleRefused(fmt::format(
                "{}: the rate depends on where the simulation starts: units {}-{} of phase {} take {:.0f} cycles "
                "simulated from the phase's first unit (as the full run reaches them) and {:.0f} from a sample's "
                "warm-up start, {:.2f} % apart (over {:.1f} %): a state the draw's start sets persists, which samples "
                "starting elsewhere do not see (docs/sampling.md, \"The draw's start\"); run it in full",
                s.name, first, last, h, c.from_phase_start, c.from_warmup, 100 * c.relative(), 100 * tolerance));
    }
    return out;
}

SampleResult run_sampled(scene::Scene& s, const SamplePlan& plan, const ParamSet& params,
                         const vs::Profile& profile, const sc::RunOptions& given, double z) {
    const auto t0 = std::chrono::steady_clock::now();
    const sc::RunOptions options = sharing_programs(given);
    SampleResult r;
    r.plan = plan;
    r.z = z;
    r.clock_mhz = sc::PipelineParams::from(params).clock_mhz;
    std::vector<std::string> order;
    std::map<std::string, scene::Buffer> buffers;  // the scene's, lent to each run and given back
    buffers.swap(s.buffers);
    const SwapBack restore{s.buffers, buffers};
    // Per block: the cycles and statistics of its units, from the run of its warm-up and its units
    // after the mark where the warm-up's last reference leaves.
    std::vector<Measured> marginal;
    const uint64_t ahead = run_ahead(params);
    for (const SampleBlock& b : plan.blocks) {
        const size_t w = warmup_start(plan, b.first, ahead);
        const size_t to = cool_down_end(plan, b.last, ahead);
        marginal.push_back(measure_units(s, plan, w, b.first, b.last, to, buffers, params, profile, options, order));
        ++r.runs;
        r.detail_references += refs_between(plan, w, to);
    }
    // The estimates: blocks simulated whole are exact; sampled phases are strata.
    auto estimate = [&](auto value) {
        double exact = 0;
        std::vector<Stratum> strata(plan.stratum_units.size());  // two per kind (choose_blocks)
        for (size_t k = 0; k < strata.size(); ++k) {
            strata[k].units = plan.stratum_units[k];
            strata[k].aux_total = double(plan.stratum_shaded[k]);
        }
        for (size_t i = 0; i < plan.blocks.size(); ++i) {
            const double v = value(marginal[i]);
            if (plan.blocks[i].sampled) {
                Stratum& h = strata[plan.blocks[i].stratum];
                h.values.push_back(v);
                h.aux.push_back(double(block_shaded(plan, plan.blocks[i])));
            } else
                exact += v;
        }
        return stratified_estimate(exact, strata, z, plan.bias);
    };
    r.cycles = estimate([](const Measured& m) { return m.cycles; });
    for (const Measured& m : marginal) r.block_cycles.push_back(m.cycles);
    for (const std::string& key : order) {
        auto stat = [&key](const Measured& m) { return m.stats.count(key) ? m.stats.at(key) : 0.0; };
        SampledStat st;
        const size_t tab = key.find('\t');
        st.unit = key.substr(0, tab);
        st.reason = key.substr(tab + 1);
        st.cycles = estimate(stat);
        // The share: a ratio estimate, its error from the residuals x - R c (linearisation).
        const double ratio = r.cycles.value > 0 ? st.cycles.value / r.cycles.value : 0;
        const Estimate resid = estimate([&](const Measured& m) { return stat(m) - ratio * m.cycles; });
        st.share = {ratio, r.cycles.value > 0 ? resid.half_width / r.cycles.value : 0};
        r.stats.push_back(std::move(st));
    }
    r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

namespace {

std::string digits(double v) {
    std::string s = fmt::format("{:.0f}", v), out;
    const size_t lead = s[0] == '-' ? 1 : 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i > lead && (s.size() - i) % 3 == 0) out += ',';
        out += s[i];
    }
    return out;
}

double confidence(double z) { return std::erf(z / std::sqrt(2.0)); }

}  // namespace

std::string sample_text(const std::string& scene, const SampleResult& r) {
    const SamplePlan& p = r.plan;
    std::string s = fmt::format("vpsim run --sample: {}\n", scene);
    auto row = [&](const std::string& k, const std::string& v) { s += fmt::format("  {:<28} {}\n", k, v); };
    row("sampling units", fmt::format("{} units of about {} references in {} phase(s) of {} kind(s); one unit in every "
                                      "{} of a kind in detail, at a random position, after {} references of warm-up",
                                      p.units.size(), p.unit_refs, p.phases.size(), p.kinds, p.period, p.warmup));
    row("seed", std::to_string(p.seed));
    row("samples", fmt::format("{} units measured; {} units of rare kinds simulated whole", p.samples, p.whole_units));
    const double rel = r.cycles.value > 0 ? 100 * r.cycles.half_width / r.cycles.value : 0;
    row("cycles (estimate)", fmt::format("{} ± {} (± {:.2f} %, z = {:g}: {:.1f} % confidence)", digits(r.cycles.value),
                                         digits(r.cycles.half_width), rel, r.z, 100 * confidence(r.z)));
    row("interval", fmt::format("[{}, {}]", digits(r.cycles.value - r.cycles.half_width),
                                digits(r.cycles.value + r.cycles.half_width)));
    row("simulated in detail", fmt::format("{:.1f} % of the references ({} of {}, warm-up included)",
                                           p.references ? 100.0 * double(r.detail_references) / double(p.references) : 0,
                                           digits(double(r.detail_references)), digits(double(p.references))));
    bool first = true;
    for (const SampledStat& st : r.stats) {
        if (st.reason != "busy") continue;
        row(first ? "busy share per unit" : "",
            fmt::format("{:<20} {:5.1f} % ± {:.1f}", st.unit, 100 * st.share.value, 100 * st.share.half_width));
        first = false;
    }
    std::vector<const SampledStat*> stalls;
    for (const SampledStat& st : r.stats)
        if (st.reason != "busy" && st.share.value >= 0.0005) stalls.push_back(&st);
    std::stable_sort(stalls.begin(), stalls.end(),
                     [](const SampledStat* a, const SampledStat* b) { return a->share.value > b->share.value; });
    for (size_t i = 0; i < stalls.size() && i < 3; ++i)
        row(i == 0 ? "top stalls" : "", fmt::format("{}.{:<20} {:5.1f} % ± {:.1f}", stalls[i]->unit, stalls[i]->reason,
                                                    100 * stalls[i]->share.value, 100 * stalls[i]->share.half_width));
    for (const StartCheck& k : r.start_checks)
        row(&k == &r.start_checks.front() ? "start check" : "",
            fmt::format("phase {} units {}-{}: {} cycles from the phase's start, {} from a sample's warm-up start "
                        "({:.2f} % apart)", k.phase, k.first, k.last, digits(k.from_phase_start), digits(k.from_warmup),
                        100 * k.relative()));
    row("simulation", fmt::format("{:.2f} host s, {} timing-model runs", r.host_seconds, r.runs));
    if (rel > 3.0) {
        s += fmt::format("  warning: the interval is wider than ± 3 %: a smaller --sample-period (now {}) narrows it\n",
                         p.period);
    }
    return s;
}

nlohmann::ordered_json sample_json(const std::string& scene, const SampleResult& r) {
    const SamplePlan& p = r.plan;
    nlohmann::ordered_json j;
    j["schema"] = "vpsim-sample-1";
    j["scene"] = scene;
    j["units"] = p.units.size();
    j["unit_references"] = p.unit_refs;
    j["phases"] = p.phases.size();
    j["kinds"] = p.kinds;
    j["bias"] = p.bias;
    j["strata"] = uint64_t(std::count_if(p.stratum_units.begin(), p.stratum_units.end(), [](uint64_t n) { return n > 0; }));
    j["period"] = p.period;
    j["warmup"] = p.warmup;
    j["seed"] = p.seed;
    j["samples"] = p.samples;
    j["whole_units"] = p.whole_units;
    j["z"] = r.z;
    j["confidence"] = confidence(r.z);
    j["cycles"] = {{"estimate", r.cycles.value},
                   {"half_width", r.cycles.half_width},
                   {"low", r.cycles.value - r.cycles.half_width},
                   {"high", r.cycles.value + r.cycles.half_width},
                   {"relative", r.cycles.value > 0 ? r.cycles.half_width / r.cycles.value : 0.0}};
    j["references"] = p.references;
    j["detail_references"] = r.detail_references;
    j["detail_share"] = p.references ? double(r.detail_references) / double(p.references) : 0.0;
    nlohmann::ordered_json units = nlohmann::ordered_json::array();
    for (const SampledStat& st : r.stats)
        units.push_back({{"unit", st.unit},
                         {"reason", st.reason},
                         {"cycles", st.cycles.value},
                         {"cycles_half_width", st.cycles.half_width},
                         {"share", st.share.value},
                         {"share_half_width", st.share.half_width}});
    j["stats"] = units;
    nlohmann::ordered_json checks = nlohmann::ordered_json::array();
    for (const StartCheck& k : r.start_checks)
        checks.push_back({{"phase", k.phase},
                          {"first_unit", k.first},
                          {"last_unit", k.last},
                          {"from_phase_start", k.from_phase_start},
                          {"from_warmup", k.from_warmup},
                          {"relative", k.relative()}});
    j["start_checks"] = checks;
    j["runs"] = r.runs;
    j["host_seconds"] = r.host_seconds;
    return j;
}

}  // namespace vpsim::study
