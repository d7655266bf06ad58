// Packing a fixed-function program into instruction words (ff_schedule.h).
#include "model/ff/ff_schedule.h"

#include <array>
#include <cstdint>
#include <stdexcept>

namespace vpsim::ff {

namespace {

// What one operation reads and writes, per register and component.
struct Use {
    std::string reg;
    uint8_t mask = 0;  // bit 0 = x .. bit 3 = w
};
struct OpInfo {
    bool scalar = false;
    bool pairable = true;  // exp, log, frc (macro chains) take words of their own
    uint32_t slots = 1;
    std::vector<Use> reads;
    Use write;
    std::string input, constant;  // the v and c registers read ("" none)
};

uint8_t comp(char c) {
    switch (c) {
        case 'x': case 'r': return 0;
        case 'y': case 'g': return 1;
        case 'z': case 'b': return 2;
        case 'w': case 'a': return 3;
        default: throw std::logic_error(std::string("ff_schedule: not a component: ") + c);
    }
}

// "-r7.wwww" -> register "r7", swizzle (4 components, D3D's padding with the last one).
void split(const std::string& operand, std::string& reg, std::array<uint8_t, 4>& swz, std::string& suffix) {
    std::string x = operand[0] == '-' ? operand.substr(1) : operand;
    const size_t bracket = x.find('[');
    const size_t dot = x.find('.', bracket == std::string::npos ? 0 : x.find(']'));
    reg = x.substr(0, dot);
    suffix = dot == std::string::npos ? "" : x.substr(dot + 1);
    swz = {0, 1, 2, 3};
    for (size_t i = 0; i < 4 && !suffix.empty(); ++i) swz[i] = comp(suffix[std::min(i, suffix.size() - 1)]);
}

uint32_t macro_rows(const std::string& n) {
    if (n == "m4x4" || n == "m3x4") return 4;
    if (n == "m4x3" || n == "m3x3") return 3;
    if (n == "m3x2") return 2;
    return 0;
}

OpInfo info(const AsmOp& op) {
    OpInfo r;
    const std::string& n = op.name;
    r.scalar = scalar_unit_op(n);
    const uint32_t rows = macro_rows(n);
    if (rows) r.slots = rows;
    if (n == "exp" || n == "log" || n == "frc") {
        r.pairable = false;
        r.slots = n == "frc" ? 3 : 12;
    }
    // destination
    {
        std::string reg, suffix;
        std::array<uint8_t, 4> swz{};
        split(op.dst, reg, swz, suffix);
        uint8_t mask = 0;
        for (char c : suffix) mask |= uint8_t(1u << comp(c));
        if (suffix.empty()) mask = rows == 3 ? 0x7 : rows == 2 ? 0x3 : 0xF;
        r.write = {reg, mask};
    }
    for (size_t k = 0; k < op.src.size(); ++k) {
        std::string reg, suffix;
        std::array<uint8_t, 4> swz{};
        split(op.src[k], reg, swz, suffix);
        uint8_t mask = 0;
        const auto take = [&](std::initializer_list<int> positions) {
            for (int p : positions) mask |= uint8_t(1u << swz[size_t(p)]);
        };
        if (rows && k == 1) {
            // the matrix: constant rows from reg on; its registers are constants
        } else if (rows) {
            if (n[1] == '4') take({0, 1, 2, 3});
            else take({0, 1, 2});
        } else if (n == "dp3") {
            take({0, 1, 2});
        } else if (n == "dp4") {
            take({0, 1, 2, 3});
        } else if (r.scalar && n != "lit") {
            mask = uint8_t(1u << (suffix.empty() ? 3 : swz[0]));
        } else if (n == "lit") {
            take({0, 1, 3});
        } else if (n == "dst") {
            if (k == 0) take({1, 2});
            else take({1, 3});
        } else {
            for (int p = 0; p < 4; ++p)
                if (r.write.mask >> p & 1u) take({p});
        }
        if (reg[0] == 'v') r.input = reg;
        if (reg[0] == 'c') {
            r.constant = reg;
            if (reg.find("a0") != std::string::npos) r.reads.push_back({"a0", 1});
            continue;
        }
        if (mask) r.reads.push_back({reg, mask});
    }
    return r;
}

bool overlaps(const std::vector<Use>& reads, const Use& w) {
    for (const Use& u : reads)
        if (u.reg == w.reg && (u.mask & w.mask)) return true;
    return false;
}

// Operation `late` may not pass operation `early` (RAW, WAR, WAW).
bool conflict(const OpInfo& early, const OpInfo& late) {
    if (overlaps(late.reads, early.write)) return true;
    if (overlaps(early.reads, late.write)) return true;
    return early.write.reg == late.write.reg && (early.write.mask & late.write.mask);
}

}  // namespace

bool scalar_unit_op(const std::string& n) {
    return n == "rcp" || n == "rsq" || n == "expp" || n == "logp" || n == "lit";
}

Packing pack(const std::vector<AsmOp>& ops) {
    const size_t n = ops.size();
    std::vector<OpInfo> in;
    in.reserve(n);
    for (const AsmOp& o : ops) in.push_back(info(o));
    std::vector<bool> placed(n, false);
    // A later operation may move up to this many operations ahead of its place (the driver's
    // look-ahead; enough for every generated program's pairs).
    constexpr size_t kLookAhead = 32;
    Packing p;
    size_t head = 0;
    while (true) {
        while (head < n && placed[head]) ++head;
        if (head == n) break;
        const OpInfo& h = in[head];
        placed[head] = true;
        p.order.push_back(head);
        p.joins.push_back(false);
        uint32_t words = h.slots;
        if (h.pairable) {
            for (size_t j = head + 1; j < n && j <= head + kLookAhead; ++j) {
                if (placed[j]) continue;
                const OpInfo& c = in[j];
                if (c.scalar == h.scalar || !c.pairable || (c.slots > 1 && h.slots > 1)) continue;
                if ((!c.input.empty() && !h.input.empty() && c.input != h.input) ||
                    (!c.constant.empty() && !h.constant.empty() && c.constant != h.constant))
                    continue;
                bool free = !conflict(h, c);
                for (size_t i = head + 1; free && i < j; ++i)
                    if (!placed[i] && conflict(in[i], c)) free = false;
                if (!free) continue;
                placed[j] = true;
                p.order.push_back(j);
                p.joins.push_back(true);
                words = std::max(words, c.slots);
                ++p.pairs;
                break;
            }
        }
        p.words += words;
    }
    return p;
}

}  // namespace vpsim::ff
