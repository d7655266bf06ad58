// The cross-check's side of a user's declaration decoder (tb/user_rtl_dut.h).
#include "tb/user_rtl_dut.h"

#include "model/decl/decl_pin_fields.h"
#include "tb/drive.h"

namespace vpsim::tb {

namespace {

// One instance of a loaded design, driven by drive.h's loop through the C ABI.
class DynSide {
public:
    DynSide(const rtl::UserRtl::Api& api) : api_(api), p_(api.make()) { api_.reset(p_); }
    ~DynSide() { api_.destroy(p_); }
    DynSide(const DynSide&) = delete;
    DynSide& operator=(const DynSide&) = delete;
    void set_inputs(bool in_valid, uint32_t token, bool last, bool lenient, bool out_ready) {
        if (golden_) {  // the model's pins of this cycle into the harness (before the evaluation)
            CycleSample g;
            if (cycle_ < golden_->size()) g = (*golden_)[cycle_];
            const uint32_t f[9] = {unsigned(g.event.kind), g.event.stream, g.event.value, g.event.code, g.event.reg,
                                   g.event.data[0], g.event.data[1], g.event.data[2], g.event.data[3]};
            api_.golden(p_, g.in_ready, g.out_valid, f);
            ++cycle_;
        }
        outs_ = api_.inputs(p_, in_valid, token, last, lenient, out_ready);
    }
    void set_golden(const std::vector<CycleSample>* g) {
        golden_ = g;
        cycle_ = 0;
    }
    bool in_ready() const { return outs_ & 1u; }
    bool out_valid() const { return outs_ & 2u; }
    decl::Event event() const {
        uint32_t f[9];
        api_.event(p_, f);
        return decl::event_from_fields(f[0], f[1], f[2], f[3], f[4], {f[5], f[6], f[7], f[8]});
    }
    void clock() { api_.clock(p_); }
    void reset() { api_.reset(p_); }
    bool broken() const { return api_.error(p_, 0) != 0; }
    void clear_error() { api_.error(p_, 1); }
    void* handle() const { return p_; }

private:
    const rtl::UserRtl::Api& api_;
    void* p_;
    unsigned outs_ = 0;
    const std::vector<CycleSample>* golden_ = nullptr;
    size_t cycle_ = 0;
};

constexpr uint32_t kZeros[9] = {};

class DynDut : public RtlDut {
public:
    DynDut(const rtl::UserRtl::Api& api, bool coverage, bool trace) : api_(api), side_(api), coverage_(coverage), trace_(trace) {}
    void run_into(const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp,
                  SideResult& r) override {
        drive_array(side_, tokens, lenient, bp_seed, bp, r);
        if (r.timed_out || side_.broken()) {
            r.assertion_failed = side_.broken();
            side_.clear_error();
            side_.reset();
        }
    }
    void run_stream_into(const std::vector<StreamArray>& arrays, uint64_t bp_seed, const Backpressure& bp,
                         StreamResult& r) override {
        drive_stream(side_, arrays, bp_seed, bp, r);
        if (r.timed_out || side_.broken()) {
            r.assertion_failed = side_.broken();
            side_.clear_error();
            side_.reset();
        }
    }
    void reset() override { side_.reset(); }
    bool write_coverage(const std::string& file) override {
        return coverage_ && api_.coverage_write(side_.handle(), file.c_str()) != 0;
    }
    bool trace_open(const std::string& file) override {
        return trace_ && api_.trace_open(side_.handle(), file.c_str()) != 0;
    }
    void trace_close() override {
        if (trace_) api_.trace_close(side_.handle());
    }
    bool set_golden(const std::vector<CycleSample>* g) override {
        if (!trace_) return false;
        side_.set_golden(g);
        return g == nullptr || api_.golden(side_.handle(), 0, 0, kZeros) != 0;
    }

private:
    const rtl::UserRtl::Api& api_;
    DynSide side_;
    bool coverage_, trace_;
};

}  // namespace

std::unique_ptr<RtlDut> make_user_dut(const rtl::UserRtl& design) {
    return std::make_unique<DynDut>(design.api(), design.coverage(), design.trace());
}

}  // namespace vpsim::tb
