// Bring-your-own RTL: a user's declaration decoder sources, Verilated at run time into a shared
// object (a C ABI wrapper around the Verilated C++ model), cached by a hash of everything that
// goes into the build, and loaded with dlopen. Two rooms drive what it loads: the cross-check
// (tb/user_rtl_dut.h, an RtlDut exactly like the built-in rtl/decl_decoder.sv) and the pipeline
// (`vpsim run --rtl decl_decoder=FILE`, model/sc/user_decl_decoder.h). docs/xcheck.md, "Your own
// RTL". No Verilated header here: the design's own code lives in the shared object.
#pragma once

#include "model/rtl/verilator_xml.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace vpsim::rtl {

// Any failure to build or load the user's design: unreadable source, bad -G, Verilator's own
// error (its message, with file:line), a port list that breaks the contract, a compiler error.
struct RtlBuildError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct UserRtlSpec {
    std::vector<std::string> sources;                         // .sv/.v files, in order
    std::string top;                                          // top module ("" = Verilator's choice)
    std::vector<std::pair<std::string, std::string>> params;  // -G NAME=VALUE
    std::string cache_dir;          // "" = default_rtl_cache_dir()
    std::string vpsim_version;      // part of the cache key
    bool coverage = false;          // verilator --coverage (line, toggle, user cover properties)
    bool trace = false;             // verilator --trace-fst (waveforms of replays)
    bool trace_vcd = false;         // with trace: verilator --trace (VCD) of the design itself, without the
                                    // decoder's harness (another unit's wrapper opens the file)
    bool verbose = false;           // say on stderr whether the build was cached
    bool show_warnings = true;      // print Verilator's warnings (mutants: yosys netlists are noisy)
    // Another unit's design (model/rtl/user_vertex_fetch.cpp): its C ABI wrapper source (part of the cache
    // key), its port contract and the contract's name for the error text. Null: the decoder's.
    // With a wrapper, the decoder's entry points are not looked up: use UserRtl::symbol.
    const char* wrapper = nullptr;
    const std::vector<PortInfo>* contract = nullptr;
    std::string contract_name;
};


const std::vector<PortInfo>& contract_ports();

// Compares a design's ports with the contract: "" when they match, else a listing of the
// expected and the found ports with every difference marked.
std::string check_ports(const std::vector<PortInfo>& found, const std::string& top);
// The same against another contract; `what` names it ("the vertex fetch unit's port contract (docs/...)").
std::string check_ports(const std::vector<PortInfo>& found, const std::string& top, const std::vector<PortInfo>& contract,
                        const std::string& what);


// $VPSIM_RTL_CACHE, else $XDG_CACHE_HOME/vpsim/rtl, else $HOME/.cache/vpsim/rtl.
std::string default_rtl_cache_dir();

// A -G argument "NAME=VALUE" checked and split; throws RtlBuildError naming the rule.
std::pair<std::string, std::string> parse_param(const std::string& arg);

// One instance of a loaded design evaluated pin by pin, as a SystemC process drives it (vpsim run
// --rtl decl_decoder=FILE, model/sc/user_decl_decoder.h). Used by the thread that made it.
class RtlPinInstance {
public:
    virtual ~RtlPinInstance() = default;
    // Every input, clk and rst included, then one evaluation; returns in_ready | out_valid << 1.
    virtual unsigned eval(bool clk, bool rst, bool in_valid, uint32_t token, bool last, bool lenient, bool out_ready) = 0;
    // The event outputs: kind, stream, value, code, reg, data x, y, z, w.
    virtual void outputs(uint32_t f[9]) const = 0;
    virtual bool assertion_failed() const = 0;  // an immediate assertion of the design failed
};

class UserRtl {
public:
    ~UserRtl();
    UserRtl(const UserRtl&) = delete;
    UserRtl& operator=(const UserRtl&) = delete;

    // A new instance for pin-level evaluation (its own Verilated context; not reset).
    std::unique_ptr<RtlPinInstance> make_pin_instance() const;
    const std::string& dir() const { return dir_; }   // the cache entry
    void* symbol(const char* name) const;             // an entry point of the loaded object (null: none)
    const std::string& top() const { return top_; }
    bool was_cached() const { return cached_; }
    bool coverage() const { return coverage_; }
    bool trace() const { return trace_; }
    // The design's parameter values as given with -G (the golden model must use the same
    // CONST_COUNT and MAX_LENGTH).
    const std::vector<std::pair<std::string, std::string>>& params() const { return params_; }

    // The decoder's entry points in the shared object (model/rtl/user_rtl_wrapper.cpp, C ABI 2),
    // each call on one instance made with `make` (its own Verilated context).
    struct Api {
        int (*abi)();
        int (*features)();
        void* (*make)();
        void (*destroy)(void*);
        void (*reset)(void*);
        unsigned (*inputs)(void*, unsigned, uint32_t, unsigned, unsigned, unsigned);
        void (*event)(void*, uint32_t*);
        void (*clock)(void*);
        int (*error)(void*, int);
        int (*coverage_write)(void*, const char*);
        int (*trace_open)(void*, const char*);
        void (*trace_close)(void*);
        unsigned (*pins)(void*, unsigned, unsigned, unsigned, uint32_t, unsigned, unsigned, unsigned);
        int (*golden)(void*, unsigned, unsigned, const uint32_t*);
    };
    // The decoder's entry points; throws std::logic_error for a design built with another unit's
    // wrapper (UserRtlSpec::wrapper: use symbol()).
    const Api& api() const;

private:
    friend std::shared_ptr<UserRtl> build_user_rtl(const UserRtlSpec& spec);
    UserRtl() = default;
    void* handle_ = nullptr;
    std::unique_ptr<Api> api_;
    std::string dir_, top_;
    bool cached_ = false, coverage_ = false, trace_ = false;
    std::vector<std::pair<std::string, std::string>> params_;
};


// Verilates (or finds in the cache) and loads the design; throws RtlBuildError.
std::shared_ptr<UserRtl> build_user_rtl(const UserRtlSpec& spec);

}  // namespace vpsim::rtl
