// Declaration tokens (model/decl): strict and lenient decoding, the token-at-a-time stepper
// against the batch decoder, and every text form of the array parsing back to the same tokens.
//
// Input: 1 option byte (bit 0 lenient first, bits 1-2 the device's constant count, bits 3-5 a
// short maximum length for rule 14 or the default 4096), then the tokens as little-endian DWORDs.
#include "fuzz_util.h"

#include "model/decl/decl_decoder.h"
#include "model/decl/decl_io.h"
#include "model/decl/decl_text.h"

using namespace vpsim;
using namespace vpsim::decl;

namespace {

void same_diagnostics(const std::vector<Diagnostic>& a, const std::vector<Diagnostic>& b, const char* what) {
    FUZZ_CHECK(a.size() == b.size(), "%s: %zu vs %zu diagnostics", what, a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
        FUZZ_CHECK(a[i].severity == b[i].severity && a[i].rule == b[i].rule && a[i].index == b[i].index &&
                       a[i].has_token == b[i].has_token && a[i].token == b[i].token && a[i].message == b[i].message,
                   "%s: diagnostic %zu differs: '%s' vs '%s'", what, i, to_string(a[i]).c_str(),
                   to_string(b[i]).c_str());
}

// The stepper fed every token (also those after END or an error: it must ignore them) gives the
// batch decoder's events and diagnostics; then it has reset itself for the next array.
void check_stepper(DeclStepper& st, const std::vector<uint32_t>& t, const Declaration& d, const char* what) {
    std::vector<Event> events;
    std::vector<uint32_t> index;
    Event ev[2];
    st.clear_diagnostics();
    for (size_t i = 0; i < t.size(); ++i) {
        const int n = st.step(t[i], i + 1 == t.size(), ev);
        FUZZ_CHECK(n >= 0 && n <= 2, "%s: step returned %d", what, n);
        for (int k = 0; k < n; ++k) events.push_back(ev[k]), index.push_back(uint32_t(i));
    }
    FUZZ_CHECK(events == d.events, "%s: stepper gives %zu events, decode() %zu", what, events.size(),
               d.events.size());
    FUZZ_CHECK(index == d.event_index, "%s: event token indices differ", what);
    same_diagnostics(st.diagnostics(), d.diagnostics, what);
    FUZZ_CHECK(!st.finished(), "%s: the stepper did not reset after the last token", what);
}

void check_declaration(const std::vector<uint32_t>& t, const Declaration& d, const DecoderOptions& opt) {
    // Exactly one terminating event, the last one; END's length counts the tokens up to it.
    FUZZ_CHECK(!d.events.empty(), "no events");
    const Event& last = d.events.back();
    FUZZ_CHECK(last.kind == EventKind::End || last.kind == EventKind::Error, "last event is %s",
               to_string(last).c_str());
    for (size_t i = 0; i + 1 < d.events.size(); ++i)
        FUZZ_CHECK(d.events[i].kind != EventKind::End && d.events[i].kind != EventKind::Error,
                   "terminating event %zu before the last", i);
    FUZZ_CHECK(d.valid == (last.kind == EventKind::End), "valid=%d but last event %s", d.valid,
               to_string(last).c_str());
    FUZZ_CHECK(d.event_index.size() == d.events.size(), "event_index size");
    for (size_t i = 1; i < d.event_index.size(); ++i)
        FUZZ_CHECK(d.event_index[i - 1] <= d.event_index[i], "event indices not ascending");
    if (d.valid) {
        FUZZ_CHECK(d.length >= 1 && d.length <= t.size() && t[d.length - 1] == kEndToken,
                   "length %u of %zu tokens", d.length, t.size());
        FUZZ_CHECK(d.length <= opt.max_length, "length %u past max_length %u", d.length, opt.max_length);
        for (const Diagnostic& g : d.diagnostics) FUZZ_CHECK(g.severity == Severity::Warning, "error in a valid decl");
        // The layout: every element inside its stream's size, registers loaded once (strict).
        for (const StreamDecl& s : d.streams)
            for (const ElementDecl& e : s.elements) {
                FUZZ_CHECK(e.offset + e.size <= s.size, "element past its stream's size");
                FUZZ_CHECK(e.reg <= 16 && e.type < kNumDataTypes, "element v%u type %u", e.reg, e.type);
            }
        for (const ConstWrite& c : d.constants)
            FUZZ_CHECK(c.reg < opt.const_count, "constant c%u of %u", c.reg, opt.const_count);
    } else {
        FUZZ_CHECK(last.code >= 1 && last.code <= kNumRules, "error rule %u", last.code);
        bool found = false;
        for (const Diagnostic& g : d.diagnostics)
            if (g.severity == Severity::Error) {
                FUZZ_CHECK(!found, "two errors");
                found = true;
                FUZZ_CHECK(g.rule == last.code && g.index == last.value, "error diagnostic %s vs event %s",
                           to_string(g).c_str(), to_string(last).c_str());
            }
        FUZZ_CHECK(found, "invalid without an error diagnostic");
    }
}

void check_text_forms(const std::vector<uint32_t>& t) {
    const std::string text = to_text(t);
    const std::vector<uint32_t> back = parse_text(text, "to_text");
    FUZZ_CHECK(back == t, "parse_text(to_text(t)) != t: %s -> %s", fuzz::hex_words(t).c_str(), fuzz::hex_words(back).c_str());
    FUZZ_CHECK(to_text(back) == text, "to_text not stable");
    FUZZ_CHECK(parse_text(to_hex(t), "to_hex") == t, "parse_text(to_hex(t)) != t");
    FUZZ_CHECK(parse_hex(to_hex(t), "to_hex") == t, "parse_hex(to_hex(t)) != t");
    FUZZ_CHECK(parse_text(to_c_array(t), "to_c_array") == t, "parse_text(to_c_array(t)) != t");
    std::string bin(t.size() * 4, '\0');
    for (size_t i = 0; i < t.size(); ++i)
        for (int b = 0; b < 4; ++b) bin[4 * i + size_t(b)] = char(t[i] >> (8 * b));
    FUZZ_CHECK(parse_bin(bin, "bin") == t, "parse_bin of the bytes != t");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 4 * 4096 + 1) return fuzz::kReject;
    fuzz::Reader in(data, size);
    const uint8_t o = in.byte();
    const std::vector<uint32_t> t = in.dwords();

    DecoderOptions strict;
    static constexpr uint32_t kConstCounts[4] = {96, 192, 256, 16};
    strict.const_count = kConstCounts[(o >> 1) & 3];
    if (const uint32_t m = (o >> 3) & 7) strict.max_length = 1u << (2 * m);  // 4 .. 4096
    DecoderOptions lenient = strict;
    lenient.lenient = true;

    const Declaration ds = decode(t, strict);
    const Declaration dl = decode(t, lenient);
    check_declaration(t, ds, strict);
    check_declaration(t, dl, lenient);
    // Lenient only turns lenient-rule errors into warnings: a strictly valid array decodes the same.
    if (ds.valid) {
        FUZZ_CHECK(dl.valid && dl.events == ds.events, "strictly valid but lenient differs");
        same_diagnostics(dl.diagnostics, ds.diagnostics, "lenient vs strict");
    }
    // Events only (the cross-check's fast path) are the same events.
    DecoderOptions quiet = (o & 1) ? lenient : strict;
    quiet.diagnostics = false;
    const Declaration dq = decode(t, quiet);
    FUZZ_CHECK(dq.events == ((o & 1) ? dl : ds).events, "diagnostics=false changes events");
    // (decode() of an empty array reports its D14 diagnostic even with diagnostics=false.)
    FUZZ_CHECK(t.empty() || dq.diagnostics.empty(), "diagnostics=false still gives diagnostics");

    if (!t.empty()) {
        // One stepper over both arrays in turn: it resets after each `last`.
        DeclStepper st((o & 1) ? lenient : strict);
        check_stepper(st, t, (o & 1) ? dl : ds, "stepper (first array)");
        st.set_lenient(!(o & 1));
        check_stepper(st, t, (o & 1) ? ds : dl, "stepper (second array, other mode)");
    }
    check_text_forms(t);
    return 0;
}
