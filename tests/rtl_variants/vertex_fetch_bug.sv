// A planted bug for the vertex fetch cross-check tests: D3DCOLOR byte 200 is one ULP low (0x3F48C8C8
// instead of 200 / 255.0f = 0x3F48C8C9), a one-entry typo in the normalisation table.
// vertex_fetch: the D3D8 vertex fetch unit. Per vertex index: one element request per declared
// element (address = base[stream] + stride[stream] * index + offset) through a memory read port,
// the element's bytes extracted across 16-byte memory words and expanded to float32 x 4 by its
// type (the eight D3DVSDT_ types), and the vertex's input registers v0..v15 out at once.
//
// Contract: docs/vertex-fetch-rtl.md (ports, layout bus, memory protocol, cycle behaviour).
// Golden model: vs::fetch_vertex / vs::expand_element (model/vs/vs_fetch.cpp), bit for bit.
//
// Structure
//   1. Issue stage. A vertex is accepted (idx_valid && idx_ready) with its layout (lay_count,
//      lay_elems) and its streams (str_base, str_stride), all sampled at that handshake; the
//      first element issues in the same cycle, one element per cycle after. An element needs
//      the 16-byte words first..last of its bytes (1 or 2). A one-word tag remembers the last
//      word the previous element ended in: when this element starts in it (a "hit"), that word
//      is not read again. The remaining words go out as one memory request (address of the
//      first word to read, 1 or 2 words). An element issues when the element FIFO has room
//      and, when it reads memory, the port is ready and the response FIFO has room for its
//      words (responses cannot be refused: every outstanding word has a slot). A vertex with
//      no element issues one marker entry (its registers are all zero).
//   2. Element FIFO (ELEM_DEPTH entries): register, type, byte offset in its first word, span
//      (1 or 2 words), hit, last-of-vertex, vertex index.
//   3. Response FIFO (RESP_DEPTH words): every response beat is written here.
//   4. Data stage. The head element, once its words are in the response FIFO: 32 bytes
//      {word1, word0} (word0 = the held word on a hit), shifted down by the byte offset,
//      converted by type and written into the assembly registers. The last word it used is
//      held for the next element's hit. The last element of a vertex moves the assembly into
//      the output registers (when they are free) in the same step.
//   5. Output: out_valid/out_ready, the vertex index, the loaded mask and v0..v15.
//   6. Assertions and cover properties (simulation only).

module vertex_fetch #(
    parameter int MAX_ELEMS  = 20,  // layout entries (lay_elems holds MAX_ELEMS x 32 bits)
    parameter int ELEM_DEPTH = 64,  // element FIFO entries (elements issued, not yet converted)
    parameter int RESP_DEPTH = 32   // response FIFO words = most words requested and not yet used
) (
    input  logic                    clk,
    input  logic                    rst,          // synchronous, active high

    // Vertex index, with its layout and streams (sampled at the handshake).
    input  logic                    idx_valid,
    output logic                    idx_ready,
    input  logic [31:0]             idx_index,
    input  logic                    idx_flush,    // do not reuse the held word (memory changed)
    input  logic [5:0]              lay_count,    // elements in lay_elems (0 .. MAX_ELEMS)
    input  logic [MAX_ELEMS*32-1:0] lay_elems,    // element k at [32k+31:32k]: [2:0] type,
                                                  // [7:3] register (16..31: fetched, dropped),
                                                  // [11:8] stream, [31:12] byte offset
    input  logic [511:0]            str_base,     // stream s: byte address at [32s+31:32s]
    input  logic [511:0]            str_stride,   // stream s: stride in bytes at [32s+31:32s]

    // Memory read port: 16-byte words, responses in request order, any latency >= 1 cycle.
    output logic                    mem_req_valid,
    input  logic                    mem_req_ready,
    output logic [31:0]             mem_req_addr,   // byte address of the first word (16-aligned)
    output logic [1:0]              mem_req_words,  // 1 or 2 consecutive words
    input  logic                    mem_resp_valid,
    input  logic [127:0]            mem_resp_data,  // byte i of the word at [8i+7:8i]

    // The vertex's input registers.
    output logic                    out_valid,
    input  logic                    out_ready,
    output logic [31:0]             out_index,
    output logic [15:0]             out_loaded,     // registers loaded by an element
    output logic [2047:0]           out_regs        // v_r at [128r+127:128r]: x [31:0] .. w [127:96]
);

  // ------------------------------------------------------------------------------------
  // Constants and conversions
  // ------------------------------------------------------------------------------------

  localparam logic [2:0] DT_FLOAT1 = 3'd0, DT_FLOAT2 = 3'd1, DT_FLOAT3 = 3'd2, DT_FLOAT4 = 3'd3,
                         DT_COLOR  = 3'd4, DT_UBYTE4 = 3'd5, DT_SHORT2 = 3'd6, DT_SHORT4 = 3'd7;
  localparam logic [31:0] F_ONE = 32'h3F80_0000;  // 1.0f

  localparam int EW = $clog2(MAX_ELEMS + 1);  // element counter
  localparam int QW = $clog2(ELEM_DEPTH);     // element FIFO pointer
  localparam int RW = $clog2(RESP_DEPTH);     // response FIFO pointer

  // Bytes an element of the type spans, minus one.
  function automatic logic [3:0] size_m1(input logic [2:0] t);
    case (t)
      DT_FLOAT2, DT_SHORT4: size_m1 = 4'd7;
      DT_FLOAT3:            size_m1 = 4'd11;
      DT_FLOAT4:            size_m1 = 4'd15;
      default:              size_m1 = 4'd3;   // FLOAT1, D3DCOLOR, UBYTE4, SHORT2
    endcase
  endfunction

  // float(v) of a 16-bit signed integer: exact (|v| <= 2^15 < 2^24).
  function automatic logic [31:0] s16_to_f32(input logic [15:0] v);
    logic [15:0] m;
    logic [3:0]  p;
    logic [22:0] frac;  // m below its leading one, aligned to the 23-bit fraction
    m = v[15] ? 16'(-v) : v;
    p = 4'd0;
    for (int i = 0; i < 16; i++) if (m[i]) p = 4'(i);
    frac = 23'({7'd0, m} << (5'd23 - {1'b0, p}));
    s16_to_f32 = (m == 16'd0) ? 32'd0 : {v[15], 8'(8'd127 + {4'd0, p}), frac};
  endfunction

  // float(b) of an unsigned byte: exact.
  function automatic logic [31:0] u8_to_f32(input logic [7:0] b);
    logic [2:0]  p;
    logic [22:0] frac;
    p = 3'd0;
    for (int i = 0; i < 8; i++) if (b[i]) p = 3'(i);
    frac = 23'({15'd0, b} << (5'd23 - {2'b00, p}));
    u8_to_f32 = (b == 8'd0) ? 32'd0 : {1'b0, 8'(8'd127 + {5'd0, p}), frac};
  endfunction

  // D3DCOLOR's normalisation: float(b) / 255.0f, correctly rounded (IEEE division, round to
  // nearest even), as a table. Generated by scripts/vertex-fetch-unorm-table.sh; every entry is
  // checked against the golden model by `vpsim xcheck --unit vertex_fetch` (all 256 bytes).
  function automatic logic [31:0] unorm8(input logic [7:0] b);
    case (b)
      8'd0: unorm8 = 32'h00000000;
      8'd1: unorm8 = 32'h3B808081;
      8'd2: unorm8 = 32'h3C008081;
      8'd3: unorm8 = 32'h3C40C0C1;
      8'd4: unorm8 = 32'h3C808081;
      8'd5: unorm8 = 32'h3CA0A0A1;
      8'd6: unorm8 = 32'h3CC0C0C1;
      8'd7: unorm8 = 32'h3CE0E0E1;
      8'd8: unorm8 = 32'h3D008081;
      8'd9: unorm8 = 32'h3D109091;
      8'd10: unorm8 = 32'h3D20A0A1;
      8'd11: unorm8 = 32'h3D30B0B1;
      8'd12: unorm8 = 32'h3D40C0C1;
      8'd13: unorm8 = 32'h3D50D0D1;
      8'd14: unorm8 = 32'h3D60E0E1;
      8'd15: unorm8 = 32'h3D70F0F1;
      8'd16: unorm8 = 32'h3D808081;
      8'd17: unorm8 = 32'h3D888889;
      8'd18: unorm8 = 32'h3D909091;
      8'd19: unorm8 = 32'h3D989899;
      8'd20: unorm8 = 32'h3DA0A0A1;
      8'd21: unorm8 = 32'h3DA8A8A9;
      8'd22: unorm8 = 32'h3DB0B0B1;
      8'd23: unorm8 = 32'h3DB8B8B9;
      8'd24: unorm8 = 32'h3DC0C0C1;
      8'd25: unorm8 = 32'h3DC8C8C9;
      8'd26: unorm8 = 32'h3DD0D0D1;
      8'd27: unorm8 = 32'h3DD8D8D9;
      8'd28: unorm8 = 32'h3DE0E0E1;
      8'd29: unorm8 = 32'h3DE8E8E9;
      8'd30: unorm8 = 32'h3DF0F0F1;
      8'd31: unorm8 = 32'h3DF8F8F9;
      8'd32: unorm8 = 32'h3E008081;
      8'd33: unorm8 = 32'h3E048485;
      8'd34: unorm8 = 32'h3E088889;
      8'd35: unorm8 = 32'h3E0C8C8D;
      8'd36: unorm8 = 32'h3E109091;
      8'd37: unorm8 = 32'h3E149495;
      8'd38: unorm8 = 32'h3E189899;
      8'd39: unorm8 = 32'h3E1C9C9D;
      8'd40: unorm8 = 32'h3E20A0A1;
      8'd41: unorm8 = 32'h3E24A4A5;
      8'd42: unorm8 = 32'h3E28A8A9;
      8'd43: unorm8 = 32'h3E2CACAD;
      8'd44: unorm8 = 32'h3E30B0B1;
      8'd45: unorm8 = 32'h3E34B4B5;
      8'd46: unorm8 = 32'h3E38B8B9;
      8'd47: unorm8 = 32'h3E3CBCBD;
      8'd48: unorm8 = 32'h3E40C0C1;
      8'd49: unorm8 = 32'h3E44C4C5;
      8'd50: unorm8 = 32'h3E48C8C9;
      8'd51: unorm8 = 32'h3E4CCCCD;
      8'd52: unorm8 = 32'h3E50D0D1;
      8'd53: unorm8 = 32'h3E54D4D5;
      8'd54: unorm8 = 32'h3E58D8D9;
      8'd55: unorm8 = 32'h3E5CDCDD;
      8'd56: unorm8 = 32'h3E60E0E1;
      8'd57: unorm8 = 32'h3E64E4E5;
      8'd58: unorm8 = 32'h3E68E8E9;
      8'd59: unorm8 = 32'h3E6CECED;
      8'd60: unorm8 = 32'h3E70F0F1;
      8'd61: unorm8 = 32'h3E74F4F5;
      8'd62: unorm8 = 32'h3E78F8F9;
      8'd63: unorm8 = 32'h3E7CFCFD;
      8'd64: unorm8 = 32'h3E808081;
      8'd65: unorm8 = 32'h3E828283;
      8'd66: unorm8 = 32'h3E848485;
      8'd67: unorm8 = 32'h3E868687;
      8'd68: unorm8 = 32'h3E888889;
      8'd69: unorm8 = 32'h3E8A8A8B;
      8'd70: unorm8 = 32'h3E8C8C8D;
      8'd71: unorm8 = 32'h3E8E8E8F;
      8'd72: unorm8 = 32'h3E909091;
      8'd73: unorm8 = 32'h3E929293;
      8'd74: unorm8 = 32'h3E949495;
      8'd75: unorm8 = 32'h3E969697;
      8'd76: unorm8 = 32'h3E989899;
      8'd77: unorm8 = 32'h3E9A9A9B;
      8'd78: unorm8 = 32'h3E9C9C9D;
      8'd79: unorm8 = 32'h3E9E9E9F;
      8'd80: unorm8 = 32'h3EA0A0A1;
      8'd81: unorm8 = 32'h3EA2A2A3;
      8'd82: unorm8 = 32'h3EA4A4A5;
      8'd83: unorm8 = 32'h3EA6A6A7;
      8'd84: unorm8 = 32'h3EA8A8A9;
      8'd85: unorm8 = 32'h3EAAAAAB;
      8'd86: unorm8 = 32'h3EACACAD;
      8'd87: unorm8 = 32'h3EAEAEAF;
      8'd88: unorm8 = 32'h3EB0B0B1;
      8'd89: unorm8 = 32'h3EB2B2B3;
      8'd90: unorm8 = 32'h3EB4B4B5;
      8'd91: unorm8 = 32'h3EB6B6B7;
      8'd92: unorm8 = 32'h3EB8B8B9;
      8'd93: unorm8 = 32'h3EBABABB;
      8'd94: unorm8 = 32'h3EBCBCBD;
      8'd95: unorm8 = 32'h3EBEBEBF;
      8'd96: unorm8 = 32'h3EC0C0C1;
      8'd97: unorm8 = 32'h3EC2C2C3;
      8'd98: unorm8 = 32'h3EC4C4C5;
      8'd99: unorm8 = 32'h3EC6C6C7;
      8'd100: unorm8 = 32'h3EC8C8C9;
      8'd101: unorm8 = 32'h3ECACACB;
      8'd102: unorm8 = 32'h3ECCCCCD;
      8'd103: unorm8 = 32'h3ECECECF;
      8'd104: unorm8 = 32'h3ED0D0D1;
      8'd105: unorm8 = 32'h3ED2D2D3;
      8'd106: unorm8 = 32'h3ED4D4D5;
      8'd107: unorm8 = 32'h3ED6D6D7;
      8'd108: unorm8 = 32'h3ED8D8D9;
      8'd109: unorm8 = 32'h3EDADADB;
      8'd110: unorm8 = 32'h3EDCDCDD;
      8'd111: unorm8 = 32'h3EDEDEDF;
      8'd112: unorm8 = 32'h3EE0E0E1;
      8'd113: unorm8 = 32'h3EE2E2E3;
      8'd114: unorm8 = 32'h3EE4E4E5;
      8'd115: unorm8 = 32'h3EE6E6E7;
      8'd116: unorm8 = 32'h3EE8E8E9;
      8'd117: unorm8 = 32'h3EEAEAEB;
      8'd118: unorm8 = 32'h3EECECED;
      8'd119: unorm8 = 32'h3EEEEEEF;
      8'd120: unorm8 = 32'h3EF0F0F1;
      8'd121: unorm8 = 32'h3EF2F2F3;
      8'd122: unorm8 = 32'h3EF4F4F5;
      8'd123: unorm8 = 32'h3EF6F6F7;
      8'd124: unorm8 = 32'h3EF8F8F9;
      8'd125: unorm8 = 32'h3EFAFAFB;
      8'd126: unorm8 = 32'h3EFCFCFD;
      8'd127: unorm8 = 32'h3EFEFEFF;
      8'd128: unorm8 = 32'h3F008081;
      8'd129: unorm8 = 32'h3F018182;
      8'd130: unorm8 = 32'h3F028283;
      8'd131: unorm8 = 32'h3F038384;
      8'd132: unorm8 = 32'h3F048485;
      8'd133: unorm8 = 32'h3F058586;
      8'd134: unorm8 = 32'h3F068687;
      8'd135: unorm8 = 32'h3F078788;
      8'd136: unorm8 = 32'h3F088889;
      8'd137: unorm8 = 32'h3F09898A;
      8'd138: unorm8 = 32'h3F0A8A8B;
      8'd139: unorm8 = 32'h3F0B8B8C;
      8'd140: unorm8 = 32'h3F0C8C8D;
      8'd141: unorm8 = 32'h3F0D8D8E;
      8'd142: unorm8 = 32'h3F0E8E8F;
      8'd143: unorm8 = 32'h3F0F8F90;
      8'd144: unorm8 = 32'h3F109091;
      8'd145: unorm8 = 32'h3F119192;
      8'd146: unorm8 = 32'h3F129293;
      8'd147: unorm8 = 32'h3F139394;
      8'd148: unorm8 = 32'h3F149495;
      8'd149: unorm8 = 32'h3F159596;
      8'd150: unorm8 = 32'h3F169697;
      8'd151: unorm8 = 32'h3F179798;
      8'd152: unorm8 = 32'h3F189899;
      8'd153: unorm8 = 32'h3F19999A;
      8'd154: unorm8 = 32'h3F1A9A9B;
      8'd155: unorm8 = 32'h3F1B9B9C;
      8'd156: unorm8 = 32'h3F1C9C9D;
      8'd157: unorm8 = 32'h3F1D9D9E;
      8'd158: unorm8 = 32'h3F1E9E9F;
      8'd159: unorm8 = 32'h3F1F9FA0;
      8'd160: unorm8 = 32'h3F20A0A1;
      8'd161: unorm8 = 32'h3F21A1A2;
      8'd162: unorm8 = 32'h3F22A2A3;
      8'd163: unorm8 = 32'h3F23A3A4;
      8'd164: unorm8 = 32'h3F24A4A5;
      8'd165: unorm8 = 32'h3F25A5A6;
      8'd166: unorm8 = 32'h3F26A6A7;
      8'd167: unorm8 = 32'h3F27A7A8;
      8'd168: unorm8 = 32'h3F28A8A9;
      8'd169: unorm8 = 32'h3F29A9AA;
      8'd170: unorm8 = 32'h3F2AAAAB;
      8'd171: unorm8 = 32'h3F2BABAC;
      8'd172: unorm8 = 32'h3F2CACAD;
      8'd173: unorm8 = 32'h3F2DADAE;
      8'd174: unorm8 = 32'h3F2EAEAF;
      8'd175: unorm8 = 32'h3F2FAFB0;
      8'd176: unorm8 = 32'h3F30B0B1;
      8'd177: unorm8 = 32'h3F31B1B2;
      8'd178: unorm8 = 32'h3F32B2B3;
      8'd179: unorm8 = 32'h3F33B3B4;
      8'd180: unorm8 = 32'h3F34B4B5;
      8'd181: unorm8 = 32'h3F35B5B6;
      8'd182: unorm8 = 32'h3F36B6B7;
      8'd183: unorm8 = 32'h3F37B7B8;
      8'd184: unorm8 = 32'h3F38B8B9;
      8'd185: unorm8 = 32'h3F39B9BA;
      8'd186: unorm8 = 32'h3F3ABABB;
      8'd187: unorm8 = 32'h3F3BBBBC;
      8'd188: unorm8 = 32'h3F3CBCBD;
      8'd189: unorm8 = 32'h3F3DBDBE;
      8'd190: unorm8 = 32'h3F3EBEBF;
      8'd191: unorm8 = 32'h3F3FBFC0;
      8'd192: unorm8 = 32'h3F40C0C1;
      8'd193: unorm8 = 32'h3F41C1C2;
      8'd194: unorm8 = 32'h3F42C2C3;
      8'd195: unorm8 = 32'h3F43C3C4;
      8'd196: unorm8 = 32'h3F44C4C5;
      8'd197: unorm8 = 32'h3F45C5C6;
      8'd198: unorm8 = 32'h3F46C6C7;
      8'd199: unorm8 = 32'h3F47C7C8;
      8'd200: unorm8 = 32'h3F48C8C8;
      8'd201: unorm8 = 32'h3F49C9CA;
      8'd202: unorm8 = 32'h3F4ACACB;
      8'd203: unorm8 = 32'h3F4BCBCC;
      8'd204: unorm8 = 32'h3F4CCCCD;
      8'd205: unorm8 = 32'h3F4DCDCE;
      8'd206: unorm8 = 32'h3F4ECECF;
      8'd207: unorm8 = 32'h3F4FCFD0;
      8'd208: unorm8 = 32'h3F50D0D1;
      8'd209: unorm8 = 32'h3F51D1D2;
      8'd210: unorm8 = 32'h3F52D2D3;
      8'd211: unorm8 = 32'h3F53D3D4;
      8'd212: unorm8 = 32'h3F54D4D5;
      8'd213: unorm8 = 32'h3F55D5D6;
      8'd214: unorm8 = 32'h3F56D6D7;
      8'd215: unorm8 = 32'h3F57D7D8;
      8'd216: unorm8 = 32'h3F58D8D9;
      8'd217: unorm8 = 32'h3F59D9DA;
      8'd218: unorm8 = 32'h3F5ADADB;
      8'd219: unorm8 = 32'h3F5BDBDC;
      8'd220: unorm8 = 32'h3F5CDCDD;
      8'd221: unorm8 = 32'h3F5DDDDE;
      8'd222: unorm8 = 32'h3F5EDEDF;
      8'd223: unorm8 = 32'h3F5FDFE0;
      8'd224: unorm8 = 32'h3F60E0E1;
      8'd225: unorm8 = 32'h3F61E1E2;
      8'd226: unorm8 = 32'h3F62E2E3;
      8'd227: unorm8 = 32'h3F63E3E4;
      8'd228: unorm8 = 32'h3F64E4E5;
      8'd229: unorm8 = 32'h3F65E5E6;
      8'd230: unorm8 = 32'h3F66E6E7;
      8'd231: unorm8 = 32'h3F67E7E8;
      8'd232: unorm8 = 32'h3F68E8E9;
      8'd233: unorm8 = 32'h3F69E9EA;
      8'd234: unorm8 = 32'h3F6AEAEB;
      8'd235: unorm8 = 32'h3F6BEBEC;
      8'd236: unorm8 = 32'h3F6CECED;
      8'd237: unorm8 = 32'h3F6DEDEE;
      8'd238: unorm8 = 32'h3F6EEEEF;
      8'd239: unorm8 = 32'h3F6FEFF0;
      8'd240: unorm8 = 32'h3F70F0F1;
      8'd241: unorm8 = 32'h3F71F1F2;
      8'd242: unorm8 = 32'h3F72F2F3;
      8'd243: unorm8 = 32'h3F73F3F4;
      8'd244: unorm8 = 32'h3F74F4F5;
      8'd245: unorm8 = 32'h3F75F5F6;
      8'd246: unorm8 = 32'h3F76F6F7;
      8'd247: unorm8 = 32'h3F77F7F8;
      8'd248: unorm8 = 32'h3F78F8F9;
      8'd249: unorm8 = 32'h3F79F9FA;
      8'd250: unorm8 = 32'h3F7AFAFB;
      8'd251: unorm8 = 32'h3F7BFBFC;
      8'd252: unorm8 = 32'h3F7CFCFD;
      8'd253: unorm8 = 32'h3F7DFDFE;
      8'd254: unorm8 = 32'h3F7EFEFF;
      8'd255: unorm8 = 32'h3F800000;
      default: unorm8 = 32'h00000000;
    endcase
  endfunction

  // The eight types: 16 element bytes (byte i at [8i+7:8i]) to x [31:0], y, z, w [127:96].
  function automatic logic [127:0] expand(input logic [2:0] t, input logic [127:0] b);
    case (t)
      DT_FLOAT1: expand = {F_ONE, 32'd0, 32'd0, b[31:0]};
      DT_FLOAT2: expand = {F_ONE, 32'd0, b[63:0]};
      DT_FLOAT3: expand = {F_ONE, b[95:0]};
      DT_FLOAT4: expand = b;
      // A little-endian ARGB DWORD: the bytes in memory are B, G, R, A.
      DT_COLOR:  expand = {unorm8(b[31:24]), unorm8(b[7:0]), unorm8(b[15:8]), unorm8(b[23:16])};
      DT_UBYTE4: expand = {u8_to_f32(b[31:24]), u8_to_f32(b[23:16]), u8_to_f32(b[15:8]), u8_to_f32(b[7:0])};
      DT_SHORT2: expand = {F_ONE, 32'd0, s16_to_f32(b[31:16]), s16_to_f32(b[15:0])};
      default:   expand = {s16_to_f32(b[63:48]), s16_to_f32(b[47:32]), s16_to_f32(b[31:16]),
                           s16_to_f32(b[15:0])};  // SHORT4
    endcase
  endfunction

  // ------------------------------------------------------------------------------------
  // 1. Issue stage
  // ------------------------------------------------------------------------------------

  // The vertex being issued.
  logic                    cur_valid_q;
  logic [31:0]             cur_index_q;
  logic                    cur_flush_q;
  logic [5:0]              cur_count_q;
  logic [MAX_ELEMS*32-1:0] cur_elems_q;
  logic [511:0]            cur_base_q, cur_stride_q;
  logic [EW-1:0]           cur_e_q;        // next element to issue
  // The word the last issued element ended in.
  logic                    tag_valid_q;
  logic [27:0]             tag_q;
  // Words requested and not yet used by the data stage (the response FIFO's reservations).
  logic [RW:0]             owed_q;

  logic take;  // a vertex is accepted this cycle
  assign idx_ready = !cur_valid_q;
  assign take      = idx_valid && idx_ready;

  // The element to issue: from the pins in the cycle a vertex is accepted, else the registers.
  logic [31:0]   s_index;
  logic          s_flush;
  logic [5:0]    s_count;
  logic [EW-1:0] s_e;
  logic [31:0]   s_elem;
  logic [31:0]   s_base, s_stride;
  assign s_index  = take ? idx_index : cur_index_q;
  assign s_flush  = take ? idx_flush : cur_flush_q;
  assign s_count  = take ? lay_count : cur_count_q;
  assign s_e      = take ? '0 : cur_e_q;
  assign s_elem   = take ? lay_elems[32*s_e +: 32] : cur_elems_q[32*s_e +: 32];

  logic [2:0]  e_type;
  logic [4:0]  e_reg;
  logic [3:0]  e_stream;
  logic [19:0] e_off;
  assign e_type   = s_elem[2:0];
  assign e_reg    = s_elem[7:3];
  assign e_stream = s_elem[11:8];
  assign e_off    = s_elem[31:12];
  assign s_base   = take ? str_base[32*e_stream +: 32]   : cur_base_q[32*e_stream +: 32];
  assign s_stride = take ? str_stride[32*e_stream +: 32] : cur_stride_q[32*e_stream +: 32];

  logic        active;     // a vertex to issue this cycle
  logic        has_elem;   // ... with an element (else its marker)
  logic        last_step;  // the vertex's last element (or its marker)
  logic [31:0] addr;
  logic [27:0] w_first, w_last;
  logic        span2, hit;
  logic [1:0]  nwords;     // words to read from memory: 0, 1 or 2
  assign active    = take || cur_valid_q;
  assign has_elem  = s_count != 6'd0;
  assign last_step = !has_elem || ({{(6 - EW > 0 ? 6 - EW : 0){1'b0}}, s_e} + 6'd1 == s_count);
  assign addr      = s_base + s_stride * s_index + {12'd0, e_off};
  assign w_first   = addr[31:4];
  assign w_last    = w_first + 28'({1'b0, addr[3:0]} + {1'b0, size_m1(e_type)} > 5'd15);
  assign span2     = w_first != w_last;
  assign hit       = tag_valid_q && !(s_flush && s_e == '0) && tag_q == w_first;
  assign nwords    = has_elem ? (span2 ? (hit ? 2'd1 : 2'd2) : (hit ? 2'd0 : 2'd1)) : 2'd0;

  logic eq_full;
  logic credit_ok;
  logic issue;
  assign credit_ok     = ({{(RW - 1){1'b0}}, nwords} + owed_q) <= (RW + 1)'(RESP_DEPTH);
  assign mem_req_valid = active && nwords != 2'd0 && !eq_full && credit_ok;
  assign mem_req_addr  = {hit ? w_first + 28'd1 : w_first, 4'd0};
  assign mem_req_words = nwords;
  assign issue         = active && !eq_full && (nwords == 2'd0 || (credit_ok && mem_req_ready));

  always_ff @(posedge clk) begin
    if (rst) begin
      cur_valid_q  <= 1'b0;
      cur_index_q  <= 32'd0;
      cur_flush_q  <= 1'b0;
      cur_count_q  <= 6'd0;
      cur_elems_q  <= '0;
      cur_base_q   <= 512'd0;
      cur_stride_q <= 512'd0;
      cur_e_q      <= '0;
      tag_valid_q  <= 1'b0;
      tag_q        <= 28'd0;
    end else begin
      if (take) begin
        cur_index_q  <= idx_index;
        cur_flush_q  <= idx_flush;
        cur_count_q  <= lay_count;
        cur_elems_q  <= lay_elems;
        cur_base_q   <= str_base;
        cur_stride_q <= str_stride;
      end
      if (issue) begin
        cur_valid_q <= !last_step;
        cur_e_q     <= s_e + EW'(1);
        if (has_elem) begin
          tag_valid_q <= 1'b1;
          tag_q       <= w_last;
        end
      end else if (take) begin
        cur_valid_q <= 1'b1;
        cur_e_q     <= '0;
      end
    end
  end

  // ------------------------------------------------------------------------------------
  // 2. Element FIFO
  // ------------------------------------------------------------------------------------

  localparam int QE = 48;  // entry: {index[31:0], has, last, reg[4:0], type[2:0], boff[3:0], span2, hit}
  logic [QE-1:0] eq_mem [ELEM_DEPTH];
  logic [QW-1:0] eq_wr_q, eq_rd_q;
  logic [QW:0]   eq_cnt_q;
  logic          eq_pop;
  assign eq_full = eq_cnt_q == (QW + 1)'(ELEM_DEPTH);

  always_ff @(posedge clk) begin
    if (issue) eq_mem[eq_wr_q] <= {s_index, has_elem, last_step, e_reg, e_type, addr[3:0], span2, hit};
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      eq_wr_q  <= '0;
      eq_rd_q  <= '0;
      eq_cnt_q <= '0;
    end else begin
      if (issue)  eq_wr_q <= eq_wr_q + QW'(1);
      if (eq_pop) eq_rd_q <= eq_rd_q + QW'(1);
      eq_cnt_q <= eq_cnt_q + (QW + 1)'(issue) - (QW + 1)'(eq_pop);
    end
  end

  // ------------------------------------------------------------------------------------
  // 3. Response FIFO
  // ------------------------------------------------------------------------------------

  logic [127:0]  rf_mem [RESP_DEPTH];
  logic [RW-1:0] rf_wr_q, rf_rd_q;
  logic [RW:0]   rf_cnt_q;
  logic [1:0]    d_used;    // words the data stage takes this cycle
  logic [1:0]    req_fire;  // words requested this cycle
  assign req_fire = (mem_req_valid && mem_req_ready) ? nwords : 2'd0;

  always_ff @(posedge clk) begin
    if (mem_resp_valid) rf_mem[rf_wr_q] <= mem_resp_data;
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      rf_wr_q  <= '0;
      rf_rd_q  <= '0;
      rf_cnt_q <= '0;
      owed_q   <= '0;
    end else begin
      if (mem_resp_valid) rf_wr_q <= rf_wr_q + RW'(1);
      rf_rd_q  <= rf_rd_q + RW'(d_used);
      rf_cnt_q <= rf_cnt_q + (RW + 1)'(mem_resp_valid) - (RW + 1)'(d_used);
      owed_q   <= owed_q + (RW + 1)'(req_fire) - (RW + 1)'(d_used);
    end
  end

  // ------------------------------------------------------------------------------------
  // 4. Data stage
  // ------------------------------------------------------------------------------------

  logic [QE-1:0] d_entry;
  logic [31:0]   d_index;
  logic          d_has, d_last, d_span2, d_hit;
  logic [4:0]    d_reg;
  logic [2:0]    d_type;
  logic [3:0]    d_boff;
  assign d_entry = eq_mem[eq_rd_q];
  assign {d_index, d_has, d_last, d_reg, d_type, d_boff, d_span2, d_hit} = d_entry;

  logic [1:0]   d_need;   // words it needs from the response FIFO
  logic [127:0] held_q;   // the last word the data stage used
  logic [127:0] w0, w1;
  logic [127:0] d_bytes, d_value;
  assign d_need  = d_has ? (d_span2 ? (d_hit ? 2'd1 : 2'd2) : (d_hit ? 2'd0 : 2'd1)) : 2'd0;
  assign w0      = d_hit ? held_q : rf_mem[rf_rd_q];
  assign w1      = d_hit ? rf_mem[rf_rd_q] : rf_mem[rf_rd_q + RW'(1)];
  assign d_bytes = 128'({w1, w0} >> {d_boff, 3'b000});
  assign d_value = expand(d_type, d_bytes);

  logic out_valid_q;
  logic out_free;
  logic d_go;      // the head element is converted this cycle
  assign out_free = !out_valid_q || out_ready;
  assign d_go     = eq_cnt_q != '0 && rf_cnt_q >= {{(RW - 1){1'b0}}, d_need} && (!d_last || out_free);
  assign eq_pop   = d_go;
  assign d_used   = d_go ? d_need : 2'd0;

  // Assembly of the vertex whose elements are being converted.
  logic [2047:0] asm_q;
  logic [15:0]   asm_loaded_q;
  logic [2047:0] asm_next;
  logic [15:0]   loaded_next;
  always_comb begin
    asm_next    = asm_q;
    loaded_next = asm_loaded_q;
    if (d_has && !d_reg[4]) begin
      asm_next[128*d_reg[3:0] +: 128] = d_value;
      loaded_next[d_reg[3:0]]         = 1'b1;
    end
  end

  logic [31:0]   out_index_q;
  logic [15:0]   out_loaded_q;
  logic [2047:0] out_regs_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      held_q       <= 128'd0;
      asm_q        <= 2048'd0;
      asm_loaded_q <= 16'd0;
      out_valid_q  <= 1'b0;
      out_index_q  <= 32'd0;
      out_loaded_q <= 16'd0;
      out_regs_q   <= 2048'd0;
    end else begin
      if (d_go && d_has) held_q <= d_span2 ? w1 : w0;
      if (d_go && d_last) begin
        asm_q        <= 2048'd0;
        asm_loaded_q <= 16'd0;
        out_valid_q  <= 1'b1;
        out_index_q  <= d_index;
        out_loaded_q <= loaded_next;
        out_regs_q   <= asm_next;
      end else begin
        if (d_go) begin
          asm_q        <= asm_next;
          asm_loaded_q <= loaded_next;
        end
        if (out_ready) out_valid_q <= 1'b0;
      end
    end
  end

  // ------------------------------------------------------------------------------------
  // 5. Output
  // ------------------------------------------------------------------------------------

  assign out_valid  = out_valid_q;
  assign out_index  = out_index_q;
  assign out_loaded = out_loaded_q;
  assign out_regs   = out_regs_q;

  // ------------------------------------------------------------------------------------
  // 6. Assertions and cover properties (simulation only)
  // ------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  initial begin
    assert (MAX_ELEMS >= 1 && MAX_ELEMS <= 63)
      else $fatal(1, "vertex_fetch: MAX_ELEMS must be in 1 .. 63");
    assert (ELEM_DEPTH >= 2 && (ELEM_DEPTH & (ELEM_DEPTH - 1)) == 0)
      else $fatal(1, "vertex_fetch: ELEM_DEPTH must be a power of two >= 2");
    assert (RESP_DEPTH >= 2 && (RESP_DEPTH & (RESP_DEPTH - 1)) == 0)
      else $fatal(1, "vertex_fetch: RESP_DEPTH must be a power of two >= 2");
  end

  always_ff @(posedge clk) begin
    if (!rst) begin
      assert (!take || lay_count <= 6'(MAX_ELEMS))
        else $error("lay_count %0d is more than MAX_ELEMS %0d", lay_count, MAX_ELEMS);
      assert (!mem_resp_valid || owed_q > (RW + 1)'(rf_cnt_q))
        else $error("memory response without an outstanding request");
      assert (rf_cnt_q <= owed_q)
        else $error("response FIFO holds more words than were requested");
      assert (owed_q <= (RW + 1)'(RESP_DEPTH))
        else $error("more words outstanding than RESP_DEPTH");
      assert (eq_cnt_q <= (QW + 1)'(ELEM_DEPTH))
        else $error("element FIFO overflow");
      assert (!cur_valid_q || cur_e_q < EW'(cur_count_q) || (cur_count_q == 6'd0 && cur_e_q == '0))
        else $error("element counter past the layout");
      assert (!mem_req_valid || mem_req_words != 2'd0)
        else $error("memory request for no word");
    end
  end

  cover property (@(posedge clk) disable iff (rst) issue && hit && span2);            // hit, then one more word
  cover property (@(posedge clk) disable iff (rst) issue && hit && !span2);           // element from the held word
  cover property (@(posedge clk) disable iff (rst) issue && !hit && span2);           // two-word request
  cover property (@(posedge clk) disable iff (rst) mem_req_valid && !mem_req_ready);  // memory back-pressure
  cover property (@(posedge clk) disable iff (rst) active && has_elem && !credit_ok); // response FIFO reservations full
  cover property (@(posedge clk) disable iff (rst) active && eq_full);                // element FIFO full
  cover property (@(posedge clk) disable iff (rst) take && issue && last_step);       // vertex accepted and done in one cycle
  cover property (@(posedge clk) disable iff (rst) take && !has_elem);                // vertex without elements
  cover property (@(posedge clk) disable iff (rst) out_valid_q && !out_ready && eq_cnt_q != '0);  // output back-pressure
  cover property (@(posedge clk) disable iff (rst) d_go && d_last && out_valid_q && out_ready);   // output refilled as it drains
  cover property (@(posedge clk) disable iff (rst) mem_resp_valid && d_go && d_need != 2'd0);      // response and use in one cycle
  cover property (@(posedge clk) disable iff (rst) issue && has_elem && d_has && d_reg[4]);        // dropped register converted
`endif

endmodule
