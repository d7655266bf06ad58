#include "model/decl/decl_decoder.h"

#include <fmt/format.h>

#include <algorithm>

namespace vpsim::decl {

namespace {

constexpr const char* kRuleNames[kNumRules + 1] = {
    "",
    "reserved-token-type",    // 1
    "bad-end-token",          // 2
    "nop-bits-set",           // 3
    "reserved-bits-set",      // 4
    "bad-data-type",          // 5
    "bad-register",           // 6
    "data-before-stream",     // 7
    "selector-without-data",  // 8
    "stream-selected-twice",  // 9
    "register-loaded-twice",  // 10
    "tessellator-misuse",     // 11
    "constant-out-of-range",  // 12
    "payload-truncated",      // 13
    "missing-end",            // 14
    "extension-skipped",      // 15
    "fixed-function-normal",  // 16
    "input-not-loaded",       // 17
};

constexpr const char* kKindNames[kNumEventKinds] = {"STREAM", "ELEMENT", "SKIP", "TESS",
                                                     "CONST",  "EXT",     "END",  "ERROR"};

Event make(EventKind k, uint32_t stream, uint32_t value, uint32_t code, uint32_t reg) {
    Event e;
    e.kind = k;
    e.stream = uint8_t(stream);
    e.value = value;
    e.code = uint8_t(code);
    e.reg = uint16_t(reg);
    return e;
}

}  // namespace

const char* event_kind_name(EventKind k) { return kKindNames[unsigned(k) & 7u]; }
const char* rule_name(int rule) { return rule >= 1 && rule <= kNumRules ? kRuleNames[rule] : "unknown"; }
std::string rule_id(int rule) { return fmt::format("D{}", rule); }

std::string to_string(const Event& e) {
    switch (e.kind) {
    case EventKind::Stream:
        return e.stream == kTessStreamId ? "STREAM tess" : fmt::format("STREAM {}", e.stream);
    case EventKind::Element:
        return fmt::format("ELEMENT stream={} offset={} type={} v{}", e.stream, e.value,
                           data_type_name(e.code) ? data_type_name(e.code) : "?", e.reg);
    case EventKind::Skip: return fmt::format("SKIP stream={} offset={} dwords={}", e.stream, e.value, e.code);
    case EventKind::Tess:
        return e.code ? fmt::format("TESS normal v{} <- v{}", e.reg, e.value) : fmt::format("TESS uv v{}", e.reg);
    case EventKind::Const:
        return fmt::format("CONST c{} = {:#010x} {:#010x} {:#010x} {:#010x}", e.reg, e.data[0], e.data[1],
                           e.data[2], e.data[3]);
    case EventKind::Ext: return fmt::format("EXT info={:#08x} dwords={}", e.value, e.code);
    case EventKind::End: return fmt::format("END tokens={}", e.value);
    case EventKind::Error: return fmt::format("ERROR index={} rule={}", e.value, rule_id(e.code));
    }
    return "?";
}

std::string to_string(const Diagnostic& d) {
    std::string where = d.has_token ? fmt::format("[{}] {:#010x}", d.index, d.token) : fmt::format("[{}]", d.index);
    return fmt::format("{} {} ({}) at token {}: {}", d.severity == Severity::Error ? "error" : "warning",
                       rule_id(d.rule), rule_name(d.rule), where, d.message);
}

// ---------------------------------------------------------------------------------------
DeclStepper::DeclStepper(const DecoderOptions& opt) : opt_(opt) { reset(); }

void DeclStepper::reset() {
    index_ = 0;
    done_ = false;
    have_stream_ = in_tess_ = sel_open_ = false;
    stream_ = offset_ = selected_ = loaded_ = mem_loaded_ = 0;
    payload_left_ = payload_header_ = word_ = const_reg_ = 0;
    payload_const_ = false;
    words_ = {};
}

void DeclStepper::emit(const Event& e) { out_[n_out_++] = e; }

void DeclStepper::warn(int rule, uint32_t token, const char* why) {
    if (!opt_.diagnostics) return;
    diags_.push_back({Severity::Warning, rule, index_, true, token, why});
}

void DeclStepper::fail(int rule, uint32_t index, uint32_t token, bool has_token, const char* why) {
    emit(make(EventKind::Error, 0, index, uint32_t(rule), 0));
    done_ = true;
    if (opt_.diagnostics) diags_.push_back({Severity::Error, rule, index, has_token, token, why});
}

bool DeclStepper::check(bool broken, int rule, bool lenient_rule, uint32_t token, const char* why) {
    if (!broken) return true;
    if (lenient_rule && opt_.lenient) {
        warn(rule, token, why);
        return true;
    }
    fail(rule, index_, token, true, why);
    return false;
}

int DeclStepper::step(uint32_t token, bool last, Event out[2]) {
    out_ = out;
    n_out_ = 0;
    if (!done_) {
        if (index_ >= opt_.max_length) {
            fail(14, opt_.max_length, token, true,
                 "no END within the maximum declaration length; the array is too long or END is missing");
        } else if (payload_left_ > 0) {
            if (payload_const_) {
                words_[word_++] = token;
                if (word_ == 4) {
                    Event e = make(EventKind::Const, 0, 0, 0, const_reg_++);
                    e.data = words_;
                    emit(e);
                    word_ = 0;
                }
            }
            --payload_left_;
        } else {
            decode_token(token);
        }
        if (last && !done_) {
            if (payload_left_ > 0)
                fail(13, payload_header_, payload_header_token_, true,
                     payload_const_ ? "the array ends inside this CONST token's payload (4 DWORDs per constant)"
                                    : "the array ends inside this EXT token's payload");
            else
                fail(14, index_ + 1, 0, false, "the array ends without D3DVSD_END()");
        }
        ++index_;
    }
    if (last) reset();
    return n_out_;
}

// D3DVSD_STREAM() / D3DVSD_STREAM_TESS(): selects the stream the next data definitions read.
void DeclStepper::decode_stream(uint32_t t) {
    const bool lenient_rule = true;
    const bool tess = t & kStreamTessBit;
    if (!check(t & (tess ? kReservedStreamTess : kReservedStream), 4, lenient_rule, t,
               tess ? "reserved bits set in D3DVSD_STREAM_TESS(); only bits 31:28 may be set"
                    : "reserved bits set in D3DVSD_STREAM(); bits 27:4 must be 0"))
        return;
    const uint32_t id = tess ? kTessStreamId : (t & kStreamNumberMask);
    if (!check(selected_ >> id & 1u, 9, lenient_rule, t,
               "this stream was already selected; declare each stream's data in one place"))
        return;
    if (sel_open_) warn(8, t, "the previous stream selector has no data definition after it");
    have_stream_ = true;
    in_tess_ = tess;
    stream_ = tess ? 0 : id;
    offset_ = 0;
    sel_open_ = true;
    selected_ |= 1u << id;
    emit(make(EventKind::Stream, id, 0, 0, 0));
}

// Lenient mode: data before any stream selector reads stream 0.
void DeclStepper::select_implicit_stream0() {
    have_stream_ = true;
    stream_ = 0;
    offset_ = 0;
    selected_ |= 1u;
}

// D3DVSD_REG(): a register loaded from the selected stream at the running offset.
void DeclStepper::decode_reg(uint32_t t) {
    const bool lenient_rule = true;
    const uint32_t type = (t & kDataTypeMask) >> kDataTypeShift;
    const uint32_t reg = t & kVertexRegMask;
    if (!check(t & kReservedReg, 4, lenient_rule, t,
               "reserved bits set in D3DVSD_REG(); bits 27:20 and 15:5 must be 0"))
        return;
    if (!check(type >= kNumDataTypes, 5, false, t,
               "data type is not a D3DVSDT_ type (valid: 0..7, FLOAT1..SHORT4)"))
        return;
    if (!check(reg > 16, 6, false, t, "register number above 16 (v0..v15, 16 = NORMAL2 for fixed function)"))
        return;
    if (!check(!have_stream_, 7, lenient_rule, t, "D3DVSD_REG() before any D3DVSD_STREAM(); select a stream first"))
        return;
    if (!have_stream_) select_implicit_stream0();  // lenient: no selector before the data
    if (!check(loaded_ >> reg & 1u, 10, lenient_rule, t, "this register is already loaded by the declaration"))
        return;
    if (!check(in_tess_, 11, false, t,
               "D3DVSD_REG() inside the tessellator stream; only TESSUV/TESSNORMAL belong there"))
        return;
    emit(make(EventKind::Element, stream_, offset_, type, reg));
    offset_ += data_type_size(type);
    loaded_ |= 1u << reg;
    mem_loaded_ |= 1u << reg;
    sel_open_ = false;
}

// D3DVSD_SKIP(): DWORDs of the selected stream that are not read.
void DeclStepper::decode_skip(uint32_t t) {
    const bool lenient_rule = true;
    const uint32_t count = (t & kSkipCountMask) >> kSkipCountShift;
    if (!check(t & kReservedSkip, 4, lenient_rule, t,
               "reserved bits set in D3DVSD_SKIP(); bits 27:20 and 15:0 must be 0"))
        return;
    if (!check(!have_stream_, 7, lenient_rule, t, "D3DVSD_SKIP() before any D3DVSD_STREAM(); select a stream first"))
        return;
    if (!have_stream_) select_implicit_stream0();
    if (!check(in_tess_, 11, false, t, "D3DVSD_SKIP() inside the tessellator stream"))
        return;
    emit(make(EventKind::Skip, stream_, offset_, count, 0));
    offset_ += 4 * count;
    sel_open_ = false;
}

// D3DVSD_TESSUV() / D3DVSD_TESSNORMAL(): a register the tessellator writes.
void DeclStepper::decode_tess(uint32_t t) {
    const bool lenient_rule = true;
    const bool uv = t & kDataLoadTypeBit;
    const uint32_t out = t & kTessRegOutMask;
    const uint32_t in = uv ? 0 : (t & kVertexRegInMask) >> kVertexRegInShift;
    const uint32_t type = (t & kDataTypeMask) >> kDataTypeShift;
    if (!check(t & (uv ? kReservedTessUV : kReservedTessNormal), 4, lenient_rule, t,
               uv ? "reserved bits set in D3DVSD_TESSUV(); bits 27:20 and 15:4 must be 0"
                  : "reserved bits set in D3DVSD_TESSNORMAL(); bits 27:24 and 15:4 must be 0"))
        return;
    if (!check(loaded_ >> out & 1u, 10, lenient_rule, t, "this register is already loaded by the declaration"))
        return;
    if (!check(!have_stream_ || !in_tess_, 11, false, t,
               uv ? "D3DVSD_TESSUV() outside a tessellator stream; put D3DVSD_STREAM_TESS() before it"
                  : "D3DVSD_TESSNORMAL() outside a tessellator stream; put D3DVSD_STREAM_TESS() before it"))
        return;
    if (!check(type != (uv ? D3DVSDT_FLOAT2 : D3DVSDT_FLOAT3), 11, false, t,
               uv ? "D3DVSD_TESSUV() must have data type FLOAT2" : "D3DVSD_TESSNORMAL() must have data type FLOAT3"))
        return;
    if (!uv && !check(!(mem_loaded_ >> in & 1u), 11, false, t,
                      "D3DVSD_TESSNORMAL()'s input register is not loaded from a memory stream before it"))
        return;
    emit(make(EventKind::Tess, kTessStreamId, in, uv ? 0 : 1, out));
    loaded_ |= 1u << out;
    sel_open_ = false;
}

// D3DVSD_CONST(): the header of 4 × count payload DWORDs loaded into constant memory.
void DeclStepper::decode_const(uint32_t t) {
    const bool lenient_rule = true;
    const uint32_t count = (t & kConstCountMask) >> kConstCountShift;
    const uint32_t addr = t & kConstAddressMask;
    if (!check(t & kReservedConst, 4, lenient_rule, t,
               "reserved bits set in D3DVSD_CONST(); bits 24:7 must be 0"))
        return;
    if (!check(sel_open_, 8, lenient_rule, t,
               "D3DVSD_CONST() between a stream selector and its first data definition"))
        return;
    if (!check(addr + count > opt_.const_count, 12, false, t,
               "constant address + count exceeds the device's constant registers"))
        return;
    if (count == 0) warn(12, t, "D3DVSD_CONST() with count 0 writes nothing");
    payload_left_ = 4 * count;
    payload_const_ = true;
    payload_header_ = index_;
    payload_header_token_ = t;
    word_ = 0;
    const_reg_ = addr;
}

// An extension token: its payload is skipped.
void DeclStepper::decode_ext(uint32_t t) {
    const bool lenient_rule = true;
    const uint32_t count = (t & kExtCountMask) >> kExtCountShift;
    if (!check(sel_open_, 8, lenient_rule, t, "extension token between a stream selector and its first data definition"))
        return;
    warn(15, t, "extension token: its payload is skipped (extensions are not modelled)");
    emit(make(EventKind::Ext, 0, t & kExtInfoMask, count, 0));
    payload_left_ = count;
    payload_const_ = false;
    payload_header_ = index_;
    payload_header_token_ = t;
}

void DeclStepper::decode_token(uint32_t t) {
    switch (token_type(t)) {
    case TokenType::Nop:
        check(t != 0, 3, true, t, "NOP token with bits set; a NOP must be 0x00000000");
        return;
    case TokenType::StreamSelector:
        return decode_stream(t);
    case TokenType::StreamData:
        return t & kDataLoadTypeBit ? decode_skip(t) : decode_reg(t);
    case TokenType::TessellatorData:
        return decode_tess(t);
    case TokenType::ConstMem:
        return decode_const(t);
    case TokenType::Ext:
        return decode_ext(t);
    case TokenType::Reserved0:
        check(true, 1, false, t, "token type 6 is reserved");
        return;
    case TokenType::End:
        if (!check(t != kEndToken, 2, false, t, "token type 7 must be exactly 0xFFFFFFFF (D3DVSD_END())")) return;
        if (sel_open_) warn(8, t, "the last stream selector has no data definition after it");
        emit(make(EventKind::End, 0, index_ + 1, 0, 0));
        done_ = true;
        return;
    }
}

// ---------------------------------------------------------------------------------------
const StreamDecl* Declaration::find_stream(uint32_t stream) const {
    for (const auto& s : streams)
        if (!s.tess && s.stream == stream) return &s;
    return nullptr;
}

Declaration decode(const std::vector<uint32_t>& tokens, const DecoderOptions& opt) {
    Declaration d;
    if (tokens.empty()) {
        d.events.push_back(make(EventKind::Error, 0, 0, 14, 0));
        d.event_index.push_back(0);
        d.diagnostics.push_back({Severity::Error, 14, 0, false, 0, "the declaration is empty; it needs D3DVSD_END()"});
        return d;
    }
    DeclStepper st(opt);
    Event ev[2];
    for (size_t i = 0; i < tokens.size(); ++i) {
        const bool last = i + 1 == tokens.size();
        const int n = st.step(tokens[i], last, ev);
        for (int k = 0; k < n; ++k) {
            d.events.push_back(ev[k]);
            d.event_index.push_back(uint32_t(i));
        }
        if (st.finished()) break;  // the rest of the array is discarded
    }
    d.diagnostics = st.diagnostics();

    d.valid = true;
    StreamDecl* cur = nullptr;
    auto stream_entry = [&](uint32_t id) -> StreamDecl* {
        const bool tess = id == kTessStreamId;
        for (auto& s : d.streams)
            if (s.tess == tess && (tess || s.stream == id)) return &s;
        StreamDecl s;
        s.tess = tess;
        s.stream = tess ? 0 : id;
        d.streams.push_back(s);
        return &d.streams.back();
    };
    for (size_t k = 0; k < d.events.size(); ++k) {
        const Event& e = d.events[k];
        const uint32_t ti = d.event_index[k];
        switch (e.kind) {
        case EventKind::Stream: cur = stream_entry(e.stream); break;
        case EventKind::Element: {
            if (!cur || cur->tess || cur->stream != e.stream) cur = stream_entry(e.stream);  // lenient stream 0
            const ElementDecl el{e.reg, e.code, e.value, data_type_size(e.code), ti};
            cur->elements.push_back(el);
            cur->size = std::max(cur->size, e.value + el.size);
            d.loaded_mask |= 1u << e.reg;
            d.memory_mask |= 1u << e.reg;
            break;
        }
        case EventKind::Skip:
            if (!cur || cur->tess || cur->stream != e.stream) cur = stream_entry(e.stream);
            cur->skips.push_back({e.value, e.code});
            cur->size = std::max(cur->size, e.value + 4u * e.code);
            break;
        case EventKind::Tess:
            d.tess.push_back({e.code ? TessKind::Normal : TessKind::UV, e.reg, e.value});
            d.loaded_mask |= 1u << e.reg;
            break;
        case EventKind::Const: d.constants.push_back({e.reg, e.data}); break;
        case EventKind::Ext: break;
        case EventKind::End: d.length = e.value; break;
        case EventKind::Error: d.valid = false; break;
        }
    }
    return d;
}

const ElementDecl* Declaration::last_element(uint32_t reg) const {
    const ElementDecl* found = nullptr;
    for (const auto& s : streams)
        for (const auto& el : s.elements)
            if (el.reg == reg && (!found || el.token_index > found->token_index)) found = &el;
    return found;
}

std::vector<Diagnostic> check_shader_binding(Declaration& decl, std::optional<uint32_t> shader_reads) {
    std::vector<Diagnostic> out;
    if (!shader_reads) {
        const ElementDecl* n = decl.last_element(D3DVSDE_NORMAL);
        if (n && n->type != D3DVSDT_FLOAT3)
            out.push_back({Severity::Error, 16, n->token_index, true, D3DVSD_REG(D3DVSDE_NORMAL, n->type),
                           fmt::format("fixed function needs D3DVSDE_NORMAL as FLOAT3, the declaration loads {}",
                                       data_type_name(n->type))});
    } else {
        if (const ElementDecl* r16 = decl.last_element(16))
            out.push_back({Severity::Error, 6, r16->token_index, true, D3DVSD_REG(16, r16->type),
                           "register 16 (D3DVSDE_NORMAL2) is only for fixed function; a shader has v0..v15"});
        for (uint32_t r = 0; r < 16; ++r)
            if ((*shader_reads >> r & 1u) && !decl.loads(r))
                out.push_back({Severity::Error, 17, decl.length, false, 0,
                               fmt::format("the shader reads v{} but the declaration does not load it", r)});
    }
    for (auto& d : out) {
        decl.diagnostics.push_back(d);
        if (d.severity == Severity::Error) decl.valid = false;
    }
    return out;
}

}  // namespace vpsim::decl
