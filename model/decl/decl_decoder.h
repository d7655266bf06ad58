// The golden model of the D3D8 vertex shader declaration decoder.
//
// DeclStepper is the token-at-a-time state machine that the SystemC model and the RTL
// cross-check are built on; decode() runs it over a whole array and builds a Declaration.
// The event record, the rule order and every choice the spec leaves open are in
// docs/decl-decoder.md.
#pragma once

#include "model/decl/decl_tokens.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vpsim::decl {

enum class EventKind : uint8_t { Stream = 0, Element = 1, Skip = 2, Tess = 3, Const = 4, Ext = 5, End = 6, Error = 7 };
inline constexpr unsigned kNumEventKinds = 8;
const char* event_kind_name(EventKind k);

inline constexpr uint32_t kTessStreamId = 16;  // STREAM event's stream for STREAM_TESS

// One decoded event; unused fields are zero (docs/decl-decoder.md, "Events").
struct Event {
    EventKind kind = EventKind::Stream;
    uint8_t stream = 0;   // 0..15, 16 = tessellator
    uint32_t value = 0;   // offset / tess input / EXT info / END total / ERROR index
    uint8_t code = 0;     // data type / skip count / tess kind / EXT count / rule
    uint16_t reg = 0;     // vertex or constant register
    std::array<uint32_t, 4> data{};  // CONST x, y, z, w bits

    bool operator==(const Event& o) const {
        // data word by word, not std::array's ==: that is a call to memcmp, for every event the
        // cross-check compares.
        return kind == o.kind && stream == o.stream && value == o.value && code == o.code && reg == o.reg &&
               ((data[0] ^ o.data[0]) | (data[1] ^ o.data[1]) | (data[2] ^ o.data[2]) | (data[3] ^ o.data[3])) == 0;
    }
    bool operator!=(const Event& o) const { return !(*this == o); }
};
std::string to_string(const Event& e);

// Rules 1..17 of the spec. Ids are stable: "D<n>", with a short name.
inline constexpr int kNumRules = 17;
const char* rule_name(int rule);  // "reserved-bits" ...
std::string rule_id(int rule);    // "D4"

enum class Severity : uint8_t { Warning, Error };

struct Diagnostic {
    Severity severity = Severity::Error;
    int rule = 0;
    uint32_t index = 0;       // token index (for rule 14: the array length or max length)
    bool has_token = false;   // false when the index is past the array
    uint32_t token = 0;
    std::string message;
};
std::string to_string(const Diagnostic& d);  // "error D4 [3] 0x40021003: ..."

struct DecoderOptions {
    bool lenient = false;
    uint32_t const_count = 96;   // device constant registers (rule 12)
    uint32_t max_length = 4096;  // DWORDs within which END must appear (rule 14)
    bool diagnostics = true;     // false: events only (fast path of the cross-check)
};

// Token-at-a-time decoder. step() returns 0, 1 or 2 events (2 only for the token marked
// `last` that has an event of its own and ends the array badly). After `last` the stepper
// is reset for the next array.
class DeclStepper {
public:
    explicit DeclStepper(const DecoderOptions& opt = {});
    int step(uint32_t token, bool last, Event out[2]);
    void reset();

    bool finished() const { return done_; }  // END or an error seen in this array
    const std::vector<Diagnostic>& diagnostics() const { return diags_; }
    void clear_diagnostics() { diags_.clear(); }
    const DecoderOptions& options() const { return opt_; }
    void set_lenient(bool lenient) { opt_.lenient = lenient; }  // the RTL samples it per token

private:
    // Returns true when the token may go on being decoded (rule passed or lenient).
    bool check(bool broken, int rule, bool lenient_rule, uint32_t token, const char* why);
    void warn(int rule, uint32_t token, const char* why);
    void fail(int rule, uint32_t index, uint32_t token, bool has_token, const char* why);
    void decode_token(uint32_t token);
    void decode_stream(uint32_t token);
    void decode_reg(uint32_t token);
    void decode_skip(uint32_t token);
    void decode_tess(uint32_t token);
    void decode_const(uint32_t token);
    void decode_ext(uint32_t token);
    void select_implicit_stream0();
    void emit(const Event& e);

    DecoderOptions opt_;
    std::vector<Diagnostic> diags_;
    Event* out_ = nullptr;
    int n_out_ = 0;

    uint32_t index_ = 0;
    bool done_ = false;
    bool have_stream_ = false;
    bool in_tess_ = false;
    uint32_t stream_ = 0;
    bool sel_open_ = false;
    uint32_t offset_ = 0;
    uint32_t selected_ = 0;    // bit per stream, bit 16 = tessellator
    uint32_t loaded_ = 0;      // bit per register 0..16
    uint32_t mem_loaded_ = 0;  // registers loaded by REG (for TESSNORMAL's input)
    uint32_t payload_left_ = 0;
    bool payload_const_ = false;
    uint32_t payload_header_ = 0;        // index of the CONST/EXT header (rule 13)
    uint32_t payload_header_token_ = 0;
    uint32_t word_ = 0;
    uint32_t const_reg_ = 0;
    std::array<uint32_t, 4> words_{};
};

// ---- The decoded declaration ----
struct ElementDecl {
    uint32_t reg = 0, type = 0, offset = 0, size = 0;
    uint32_t token_index = 0;
};
struct SkipDecl {
    uint32_t offset = 0, dwords = 0;
};
struct StreamDecl {
    uint32_t stream = 0;  // 0..15 (0 for the tessellator stream)
    bool tess = false;
    uint32_t size = 0;    // declared vertex size in bytes
    std::vector<ElementDecl> elements;
    std::vector<SkipDecl> skips;
};
enum class TessKind : uint8_t { UV = 0, Normal = 1 };
struct TessBinding {
    TessKind kind = TessKind::UV;
    uint32_t reg = 0;    // output register
    uint32_t input = 0;  // TESSNORMAL's input register
};
struct ConstWrite {
    uint32_t reg = 0;
    std::array<uint32_t, 4> bits{};
};

struct Declaration {
    std::vector<Event> events;          // the decoded form, identical to the RTL's
    std::vector<Diagnostic> diagnostics;
    bool valid = false;          // no error
    uint32_t length = 0;         // tokens up to and including END
    std::vector<StreamDecl> streams;
    std::vector<TessBinding> tess;
    std::vector<ConstWrite> constants;  // in declaration order
    uint32_t loaded_mask = 0;           // bit r: v[r] loaded (r = 0..16)
    uint32_t memory_mask = 0;           // bit r: v[r] loaded from a memory stream
    std::vector<uint32_t> event_index;  // token index that produced each event

    bool loads(uint32_t reg) const { return reg < 32 && (loaded_mask >> reg & 1u); }
    const StreamDecl* find_stream(uint32_t stream) const;
    const ElementDecl* last_element(uint32_t reg) const;  // the REG that wins for v[reg]
};

Declaration decode(const std::vector<uint32_t>& tokens, const DecoderOptions& opt = {});

// Rules 16-17 (CreateVertexShader): `shader_reads` = nullopt for fixed function, else the
// bit set of input registers v0..v15 the shader reads. Returns the new diagnostics and
// appends them to decl.diagnostics (clearing decl.valid on an error).
std::vector<Diagnostic> check_shader_binding(Declaration& decl, std::optional<uint32_t> shader_reads);

}  // namespace vpsim::decl
