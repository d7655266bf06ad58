// The declaration decoder's pins as C++ values, for anything whose members are named like the
// ports of rtl/decl_decoder.sv (docs/decl-decoder.md, "The cycle contract"): SystemC signals or
// ports (read()/write()), or the plain members of a Verilated C++ model. No SystemC here, so the
// C++-mode RTL side can use it too; model/sc/decl_decoder_pins.h is the SystemC signal bundle.
#pragma once

#include "model/decl/decl_decoder.h"

#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace vpsim::decl {

namespace pin_detail {
template <class T, class = void>
struct has_read : std::false_type {};
template <class T>
struct has_read<T, std::void_t<decltype(std::declval<const T&>().read())>> : std::true_type {};
template <class T, class V, class = void>
struct has_write : std::false_type {};
template <class T, class V>
struct has_write<T, V, std::void_t<decltype(std::declval<T&>().write(std::declval<V>()))>> : std::true_type {};
template <class T, class = void>
struct has_range : std::false_type {};
template <class T>
struct has_range<T, std::void_t<decltype(std::declval<const T&>().range(31, 0))>> : std::true_type {};
}  // namespace pin_detail

// The value on a pin: a signal's or port's read(), a plain member as it is.
template <class P>
auto pin_read(const P& p) {
    if constexpr (pin_detail::has_read<P>::value)
        return p.read();
    else
        return p;
}

// Drives a pin: a signal's write(), a plain member's assignment.
template <class P, class V>
void pin_write(P& p, V v) {
    if constexpr (pin_detail::has_write<P, V>::value)
        p.write(v);
    else
        p = v;
}

// out_data's 128 bits as x, y, z, w words: an sc_bv<128> (SystemC) or four words (VlWide<4>).
template <class D>
std::array<uint32_t, 4> data_words(const D& d) {
    std::array<uint32_t, 4> w{};
    for (int i = 0; i < 4; ++i) {
        if constexpr (pin_detail::has_range<D>::value)
            w[i] = uint32_t(d.range(32 * i + 31, 32 * i).to_uint());
        else
            w[i] = uint32_t(d[i]);
    }
    return w;
}

// The event on the output pins. `kind` is 3 bits wide, so every value names a kind; the other
// fields take decl::Event's types (reg is 16 bits there, 8 on the pins).
inline Event event_from_fields(uint32_t kind, uint32_t stream, uint32_t value, uint32_t code, uint32_t reg,
                               const std::array<uint32_t, 4>& data) {
    Event e;
    e.kind = EventKind(kind & 7u);
    e.stream = uint8_t(stream);
    e.value = value;
    e.code = uint8_t(code);
    e.reg = uint16_t(reg);
    e.data = data;
    return e;
}

// The event on `o`'s out_kind, out_stream, out_value, out_code, out_reg and out_data.
template <class Outputs>
Event event_from_outputs(const Outputs& o) {
    return event_from_fields(uint32_t(pin_read(o.out_kind)), uint32_t(pin_read(o.out_stream)),
                             uint32_t(pin_read(o.out_value)), uint32_t(pin_read(o.out_code)),
                             uint32_t(pin_read(o.out_reg)), data_words(pin_read(o.out_data)));
}

// Drives `i`'s inputs for the next clock edge (clk and rst are the caller's).
template <class Inputs>
void drive_inputs(Inputs& i, bool in_valid, uint32_t token, bool last, bool lenient, bool out_ready) {
    pin_write(i.in_valid, in_valid);
    pin_write(i.in_token, token);
    pin_write(i.in_last, last);
    pin_write(i.lenient, lenient);
    pin_write(i.out_ready, out_ready);
}

}  // namespace vpsim::decl
