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

  // b shifted left until its leading one is bit 7, and that one's position in b: {p, n}. Three
  // steps of a binary search, each deciding one bit of the leading zero count z (p = 7 - z = ~z);
  // b = 0 gives 0, 0 (the callers treat 0 apart).
  function automatic logic [10:0] norm8(input logic [7:0] b);
    logic [7:0] n;
    logic [2:0] z;
    n    = b;
    z[2] = n[7:4] == 4'd0;
    n    = z[2] ? n << 4 : n;
    z[1] = n[7:6] == 2'd0;
    n    = z[1] ? n << 2 : n;
    z[0] = !n[7];
    n    = z[0] ? n << 1 : n;
    norm8 = {~z, n};
  endfunction

  // The same for 16 bits: {p, n}, n's leading one at bit 15.
  function automatic logic [19:0] norm16(input logic [15:0] m);
    logic [15:0] n;
    logic [3:0]  z;
    n    = m;
    z[3] = n[15:8] == 8'd0;
    n    = z[3] ? n << 8 : n;
    z[2] = n[15:12] == 4'd0;
    n    = z[2] ? n << 4 : n;
    z[1] = n[15:14] == 2'd0;
    n    = z[1] ? n << 2 : n;
    z[0] = !n[15];
    n    = z[0] ? n << 1 : n;
    norm16 = {~z, n};
  endfunction

  // float(v) of a 16-bit signed integer: exact (|v| <= 2^15 < 2^24).
  function automatic logic [31:0] s16_to_f32(input logic [15:0] v);
    logic [15:0] m;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [15:0] n;  // n[15], the leading one, is the float's hidden bit
    /* verilator lint_on UNUSEDSIGNAL */
    logic [3:0]  p;
    m = v[15] ? 16'(-v) : v;
    {p, n} = norm16(m);
    s16_to_f32 = (m == 16'd0) ? 32'd0 : {v[15], 8'(8'd127 + {4'd0, p}), n[14:0], 8'd0};
  endfunction

  // A byte's two conversions from one normalisation: {b / 255.0f (D3DCOLOR), float(b) (UBYTE4)}.
  // float(b) is exact. b / 255, correctly rounded (IEEE division, round to nearest even): in
  // binary b / 255 = 0.bbbbbbbb bbbbbbbb ... (b's eight bits repeated), so with b's leading one
  // at bit p the significand is n n n ... where n is b shifted left by 7 - p (its leading one at
  // the top, the bits above p are 0); 24 bits of it are {n, n, n}, the next bit is n[7] = 1 and
  // the rest is not zero, so rounding always goes up: {n, n, n} + 1 (no carry out: n = 0xFF only
  // for b = 255, which is exactly 1.0). The exponent is 127 - (8 - p). Every byte is checked
  // against the golden model by `vpsim xcheck --unit vertex_fetch` (directed "D3DCOLOR all bytes").
  function automatic logic [63:0] byte_to_f32(input logic [7:0] b);
    logic [7:0]  n;
    logic [2:0]  p;
    logic [22:0] m;
    logic [31:0] unorm, fl;
    {p, n} = norm8(b);
    m = {n[6:0], n, n} + 23'd1;  // the hidden bit n[7] dropped
    fl    = {1'b0, 8'(8'd127 + {5'd0, p}), n[6:0], 16'd0};
    unorm = {1'b0, 8'(8'd119 + {5'd0, p}), m};
    if (b == 8'hFF) unorm = F_ONE;  // exactly 1.0
    if (b == 8'd0) begin
      fl    = 32'd0;
      unorm = 32'd0;
    end
    byte_to_f32 = {unorm, fl};
  endfunction

  // The eight types: 16 element bytes (byte i at [8i+7:8i]) to x [31:0], y, z, w [127:96]. Every
  // conversion is made (the four bytes' and the four shorts' once each, shared by the types that
  // use them) and the type selects one, as the hardware would: no value is left undefined for
  // the types that do not use it.
  function automatic logic [127:0] expand(input logic [2:0] t, input logic [127:0] b);
    logic [63:0] c0, c1, c2, c3;  // bytes 0..3: {b / 255, float(b)}
    logic [31:0] s0, s1, s2, s3;  // shorts 0..3
    c0 = byte_to_f32(b[7:0]);
    c1 = byte_to_f32(b[15:8]);
    c2 = byte_to_f32(b[23:16]);
    c3 = byte_to_f32(b[31:24]);
    s0 = s16_to_f32(b[15:0]);
    s1 = s16_to_f32(b[31:16]);
    s2 = s16_to_f32(b[47:32]);
    s3 = s16_to_f32(b[63:48]);
    case (t)
      DT_FLOAT1: expand = {F_ONE, 32'd0, 32'd0, b[31:0]};
      DT_FLOAT2: expand = {F_ONE, 32'd0, b[63:0]};
      DT_FLOAT3: expand = {F_ONE, b[95:0]};
      DT_FLOAT4: expand = b;
      // A little-endian ARGB DWORD: the bytes in memory are B, G, R, A.
      DT_COLOR:  expand = {c3[63:32], c0[63:32], c1[63:32], c2[63:32]};
      DT_UBYTE4: expand = {c3[31:0], c2[31:0], c1[31:0], c0[31:0]};
      DT_SHORT2: expand = {F_ONE, 32'd0, s1, s0};
      default:   expand = {s3, s2, s1, s0};  // SHORT4
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

  // The layout entry and the stream's base and stride: multiplexers, one comparison a word (no
  // index arithmetic that could select past the end). A vertex taken this cycle issues its first
  // element, from the pins.
  logic [31:0] cur_elem;  // the accepted vertex's entry cur_e_q
  always_comb begin
    cur_elem = cur_elems_q[31:0];
    for (int k = 1; k < MAX_ELEMS; k++)
      if (cur_e_q == EW'(k)) cur_elem = cur_elems_q[32*k +: 32];
  end
  assign s_elem = take ? lay_elems[31:0] : cur_elem;

  logic [2:0]  e_type;
  logic [4:0]  e_reg;
  logic [3:0]  e_stream;
  logic [19:0] e_off;
  assign e_type   = s_elem[2:0];
  assign e_reg    = s_elem[7:3];
  assign e_stream = s_elem[11:8];
  assign e_off    = s_elem[31:12];
  always_comb begin
    s_base   = take ? str_base[31:0] : cur_base_q[31:0];
    s_stride = take ? str_stride[31:0] : cur_stride_q[31:0];
    for (int k = 1; k < 16; k++)
      if (e_stream == 4'(k)) begin
        s_base   = take ? str_base[32*k +: 32] : cur_base_q[32*k +: 32];
        s_stride = take ? str_stride[32*k +: 32] : cur_stride_q[32*k +: 32];
      end
  end

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
  assign span2     = {1'b0, addr[3:0]} + {1'b0, size_m1(e_type)} > 5'd15;  // its bytes cross into the next word
  assign w_last    = span2 ? w_first + 28'd1 : w_first;
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
      cur_valid_q <= 1'b0;
      cur_e_q     <= '0;
      tag_valid_q <= 1'b0;
    end else begin
      if (issue) begin
        cur_valid_q <= !last_step;
        cur_e_q     <= s_e + EW'(1);
        if (has_elem)
          tag_valid_q <= 1'b1;
        else if (s_flush)
          tag_valid_q <= 1'b0;  // a flushed vertex without elements: memory changed, forget the word
      end else if (take) begin
        cur_valid_q <= 1'b1;
        cur_e_q     <= '0;
      end
    end
  end
  // Data registers have no reset: the vertex's while cur_valid_q says it is there, the tag's while
  // tag_valid_q does.
  always_ff @(posedge clk) begin
    if (take) begin
      cur_index_q  <= idx_index;
      cur_flush_q  <= idx_flush;
      cur_count_q  <= lay_count;
      cur_elems_q  <= lay_elems;
      cur_base_q   <= str_base;
      cur_stride_q <= str_stride;
    end
    if (issue && has_elem) tag_q <= w_last;
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

  // Assembly of the vertex whose elements are being converted: a 128-bit register per input
  // register, written by the element that loads it. asm_loaded_q says which hold this vertex's
  // values; the others keep an earlier vertex's and are read as 0, so they need no reset.
  logic [127:0] asm_q [16];
  logic [15:0]  asm_loaded_q;
  logic         d_write;      // the head element loads one of v0..v15 this cycle
  logic [15:0]  d_onehot;     // ... that one
  logic [15:0]  loaded_next;
  assign d_write     = d_go && d_has && !d_reg[4];
  assign d_onehot    = d_write ? 16'd1 << d_reg[3:0] : 16'd0;
  assign loaded_next = asm_loaded_q | d_onehot;

  always_ff @(posedge clk) begin
    if (d_write) asm_q[d_reg[3:0]] <= d_value;
  end

  logic [31:0]   out_index_q;
  logic [15:0]   out_loaded_q;
  logic [2047:0] out_regs_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      asm_loaded_q <= 16'd0;
      out_valid_q  <= 1'b0;
    end else if (d_go && d_last) begin
      asm_loaded_q <= 16'd0;
      out_valid_q  <= 1'b1;
    end else begin
      if (d_go) asm_loaded_q <= loaded_next;
      if (out_ready) out_valid_q <= 1'b0;
    end
  end
  // Data registers have no reset: held_q is read by a hit, after the element before it wrote it;
  // the output's while out_valid_q says they are there.
  always_ff @(posedge clk) begin
    if (d_go && d_has) held_q <= d_span2 ? w1 : w0;
    if (d_go && d_last) begin
      // The vertex's last element: the assembly, with this element's register, to the output.
      out_index_q  <= d_index;
      out_loaded_q <= loaded_next;
      for (int r = 0; r < 16; r++)
        out_regs_q[128*r +: 128] <= d_onehot[r] ? d_value : (asm_loaded_q[r] ? asm_q[r] : 128'd0);
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
