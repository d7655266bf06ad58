// Layout: offsets, sizes and the decoded form, including the header's example.
#include "tests/decl_test_util.h"

using namespace vpsim::decl;

TEST_CASE("The header's example: v3 at 0, v4 at 12, v7 at 32, vertex size 40") {
    const std::vector<uint32_t> t = {D3DVSD_STREAM(0), D3DVSD_REG(3, D3DVSDT_FLOAT3), D3DVSD_REG(4, D3DVSDT_FLOAT3),
                                     D3DVSD_SKIP(2), D3DVSD_REG(7, D3DVSDT_FLOAT2), D3DVSD_END()};
    CHECK(t == std::vector<uint32_t>{0x20000000u, 0x40020003u, 0x40020004u, 0x50020000u, 0x40010007u, 0xFFFFFFFFu});
    const auto d = strict(t);
    REQUIRE(d.valid);
    const std::vector<Event> expected = {
        {EventKind::Stream, 0, 0, 0, 0, {}},  {EventKind::Element, 0, 0, 2, 3, {}},
        {EventKind::Element, 0, 12, 2, 4, {}}, {EventKind::Skip, 0, 24, 2, 0, {}},
        {EventKind::Element, 0, 32, 1, 7, {}}, {EventKind::End, 0, 6, 0, 0, {}},
    };
    CHECK(d.events == expected);
    REQUIRE(d.streams.size() == 1);
    CHECK(d.streams[0].size == 40);
    REQUIRE(d.streams[0].elements.size() == 3);
    CHECK(d.streams[0].elements[2].offset == 32);
    CHECK(d.streams[0].elements[2].token_index == 4);
    CHECK(d.loaded_mask == ((1u << 3) | (1u << 4) | (1u << 7)));
}

TEST_CASE("Every data type has its D3D8 size") {
    const uint32_t sizes[8] = {4, 8, 12, 16, 4, 4, 4, 8};
    const char* names[8] = {"FLOAT1", "FLOAT2", "FLOAT3", "FLOAT4", "D3DCOLOR", "UBYTE4", "SHORT2", "SHORT4"};
    for (uint32_t type = 0; type < 8; ++type) {
        const auto d = strict({D3DVSD_STREAM(2), D3DVSD_REG(1, type), D3DVSD_REG(2, D3DVSDT_FLOAT1), D3DVSD_END()});
        REQUIRE(d.valid);
        CHECK(data_type_size(type) == sizes[type]);
        CHECK(std::string(data_type_name(type)) == names[type]);
        CHECK(data_type_from_name(names[type]) == type);
        CHECK(d.events[2].value == sizes[type]);  // v2's offset
        CHECK(d.streams[0].size == sizes[type] + 4);
    }
    CHECK(data_type_size(8) == 0);
    CHECK(data_type_name(8) == nullptr);
}

TEST_CASE("Offsets restart at each stream and several streams are kept apart") {
    const auto d = strict({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_REG(3, D3DVSDT_FLOAT3),
                           D3DVSD_STREAM(1), D3DVSD_REG(5, D3DVSDT_D3DCOLOR), D3DVSD_SKIP(1),
                           D3DVSD_REG(7, D3DVSDT_SHORT2), D3DVSD_STREAM(15), D3DVSD_REG(8, D3DVSDT_SHORT4),
                           D3DVSD_END()});
    REQUIRE(d.valid);
    REQUIRE(d.streams.size() == 3);
    CHECK(d.streams[0].size == 24);
    CHECK(d.streams[1].stream == 1);
    CHECK(d.streams[1].size == 12);
    CHECK(d.streams[1].elements[1].offset == 8);
    CHECK(d.streams[2].stream == 15);
    CHECK(d.streams[2].size == 8);
    REQUIRE(d.find_stream(1));
    CHECK(d.find_stream(1)->elements[0].reg == 5);
    CHECK(d.find_stream(2) == nullptr);
}

TEST_CASE("Constant writes are kept in declaration order, one event per vec4") {
    const auto d = strict({D3DVSD_CONST(10, 2), float_bits(0.25f), float_bits(0.5f), float_bits(1.0f),
                           float_bits(2.0f), 1, 2, 3, 4, D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3),
                           D3DVSD_CONST(0, 1), 5, 6, 7, 8, D3DVSD_END()});
    REQUIRE(d.valid);
    REQUIRE(d.constants.size() == 3);
    CHECK(d.constants[0].reg == 10);
    CHECK(bits_float(d.constants[0].bits[0]) == 0.25f);
    CHECK(d.constants[1].reg == 11);
    CHECK(d.constants[2].reg == 0);
    CHECK(d.constants[2].bits == std::array<uint32_t, 4>{5, 6, 7, 8});
    CHECK(d.events[0].kind == EventKind::Const);
    CHECK(d.event_index[0] == 4);  // produced by the 4th payload DWORD
}

TEST_CASE("Tokens after END are not decoded") {
    const auto d = strict({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END(), 0xC0000000u, 0x12345678u});
    CHECK(d.valid);
    CHECK(d.length == 3);
    CHECK(d.events.size() == 3);
}

TEST_CASE("Encoders match the d3d8types.h macros") {
    CHECK(D3DVSD_STREAM_TESS() == 0x30000000u);
    CHECK(D3DVSD_TESSNORMAL(0, 3) == 0x60020003u);
    CHECK(D3DVSD_TESSUV(7) == 0x70010007u);
    CHECK(D3DVSD_CONST(0, 1) == 0x82000000u);
    CHECK(D3DVSD_CONST(95, 15) == 0x9E00005Fu);
    CHECK(D3DVSD_SKIP(15) == 0x500F0000u);
    CHECK(D3DVSD_REG(D3DVSDE_NORMAL2, D3DVSDT_SHORT4) == 0x40070010u);
    CHECK(D3DVSD_EXT(31, 0xABCDEF) == 0xBFABCDEFu);
    CHECK(D3DVSD_NOP() == 0u);
    CHECK(std::string(vertex_element_name(D3DVSDE_TEXCOORD7)) == "TEXCOORD7");
    CHECK(vertex_element_from_name("D3DVSDE_NORMAL2") == 16u);
}
