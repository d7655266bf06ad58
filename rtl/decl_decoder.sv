// decl_decoder: D3D8 vertex shader declaration token decoder (rules 1-14).
//
// Contract: docs/decl-decoder.md (event record, rule order per token, cycle behaviour).
// Token formats and rules: docs/spec/declaration.md. Field positions and the
// reserved-bit masks follow model/decl/decl_tokens.h.
//
// Structure
//   1. Handshake. One token is accepted per cycle (`accept`) whenever the output slot can
//      take its event: in_ready = !pend_valid && (!out_valid || out_ready).
//   2. Classification. The accepted token is either discarded (after END or an error,
//      `done_q`), the token at index MAX_LENGTH (rule 14, not decoded), a payload DWORD of a
//      CONST/EXT (never decoded as a token), or a token of one of the eight types.
//   3. Rule check. For a token, the first rule it breaks in ascending rule number
//      (`err_rule`, 0 = none); with `lenient` the (L) rules 3,4,7,8,9,10 are skipped (the
//      golden model warns, the RTL decodes on). `ok_*` = a token of that form without error.
//   4. Events. The token's own event (`tok_ev_*`) or its error; for the token marked `last`
//      that leaves the array unfinished, the end-of-array error (`eoa_*`): rule 13 at the
//      header's index when it ends inside a CONST/EXT payload, else rule 14 at index n
//      (= last index + 1). A token gives 0, 1 or 2 events: the first goes to the output
//      register, a second one (only ever that end-of-array error) to the pending slot,
//      which drains into the output register on the next free cycle. Output fields are
//      zero while out_valid is low. CONST data go straight from the three captured words
//      and the incoming w to the output register.
//   5. Array state. Token index, current stream (none / 0..15 / 16 = tessellator), rule-8
//      "selector open" flag, 24-bit byte offset, selected-streams mask (bit 16 =
//      tessellator), loaded-registers mask (0..16), loaded-from-memory mask (0..15, for
//      TESSNORMAL's input register, rule 11), payload state (DWORDs remaining, CONST vs
//      EXT, header index, vec4 word counter, current constant register, captured x,y,z)
//      and the done flag. Only a token decoded without error changes it; all of it returns
//      to the reset values when the token marked `last` is accepted.
//   6. Assertions (simulation only, `ifndef SYNTHESIS`): internal invariants, active
//      when the model is built with --assert.

module decl_decoder #(
    parameter int CONST_COUNT = 96,   // number of constant registers (rule 12)
    parameter int MAX_LENGTH  = 4096  // maximum array length in DWORDs (rule 14)
) (
    input  logic         clk,
    input  logic         rst,         // synchronous, active high

    input  logic         in_valid,
    output logic         in_ready,
    input  logic [31:0]  in_token,
    input  logic         in_last,     // this token is the last of the array
    input  logic         lenient,     // lenient mode, sampled with each token

    output logic         out_valid,
    input  logic         out_ready,
    output logic [2:0]   out_kind,
    output logic [4:0]   out_stream,
    output logic [23:0]  out_value,
    output logic [4:0]   out_code,
    output logic [7:0]   out_reg,
    output logic [127:0] out_data     // x [31:0], y [63:32], z [95:64], w [127:96]
);

  // ------------------------------------------------------------------------------------
  // Constants
  // ------------------------------------------------------------------------------------

  // Token types, bits 31:29.
  localparam logic [2:0] T_NOP     = 3'd0;
  localparam logic [2:0] T_STREAM  = 3'd1;
  localparam logic [2:0] T_DATA    = 3'd2;  // REG ([28]=0) / SKIP ([28]=1)
  localparam logic [2:0] T_TESS    = 3'd3;  // TESSNORMAL ([28]=0) / TESSUV ([28]=1)
  localparam logic [2:0] T_CONST   = 3'd4;
  localparam logic [2:0] T_EXT     = 3'd5;
  localparam logic [2:0] T_RESERVD = 3'd6;
  localparam logic [2:0] T_END     = 3'd7;

  localparam logic [31:0] END_TOKEN = 32'hFFFF_FFFF;

  // Event kinds (out_kind).
  localparam logic [2:0] K_STREAM  = 3'd0;
  localparam logic [2:0] K_ELEMENT = 3'd1;
  localparam logic [2:0] K_SKIP    = 3'd2;
  localparam logic [2:0] K_TESS    = 3'd3;
  localparam logic [2:0] K_CONST   = 3'd4;
  localparam logic [2:0] K_EXT     = 3'd5;
  localparam logic [2:0] K_END     = 3'd6;
  localparam logic [2:0] K_ERROR   = 3'd7;

  // Rule numbers (out_code of an ERROR event).
  localparam logic [4:0] R_TYPE6       = 5'd1;   // token type 6
  localparam logic [4:0] R_END_FORM    = 5'd2;   // type 7 but not 0xFFFFFFFF
  localparam logic [4:0] R_NOP_BITS    = 5'd3;   // (L) NOP with bits set
  localparam logic [4:0] R_RESERVED    = 5'd4;   // (L) reserved field non-zero
  localparam logic [4:0] R_DATA_TYPE   = 5'd5;   // REG data type 8..15
  localparam logic [4:0] R_REGISTER    = 5'd6;   // REG register > 16
  localparam logic [4:0] R_NO_STREAM   = 5'd7;   // (L) REG/SKIP before any STREAM
  localparam logic [4:0] R_SELECTOR    = 5'd8;   // (L) CONST/EXT between selector and data
  localparam logic [4:0] R_STREAM_TWICE= 5'd9;   // (L) stream selected twice
  localparam logic [4:0] R_REG_TWICE   = 5'd10;  // (L) register loaded twice
  localparam logic [4:0] R_TESS        = 5'd11;  // tessellator stream misuse
  localparam logic [4:0] R_CONST_RANGE = 5'd12;  // CONST address + count > CONST_COUNT
  localparam logic [4:0] R_PAYLOAD     = 5'd13;  // array ends inside a CONST/EXT payload
  localparam logic [4:0] R_NO_END      = 5'd14;  // no END within the array / MAX_LENGTH

  // Data types used by the TESS checks (rule 11).
  localparam logic [3:0] DT_FLOAT2 = 4'd1;
  localparam logic [3:0] DT_FLOAT3 = 4'd2;

  // Stream number of the tessellator stream.
  localparam logic [4:0] TESS_STREAM = 5'd16;

  // Reserved (must-be-zero) bits per token form (rule 4; decl_tokens.h kReserved*).
  localparam logic [31:0] RSV_STREAM      = 32'h0FFF_FFF0;  // [27:4]
  localparam logic [31:0] RSV_STREAM_TESS = 32'h0FFF_FFFF;  // [27:0]
  localparam logic [31:0] RSV_REG         = 32'h0FF0_FFE0;  // [27:20], [15:5]
  localparam logic [31:0] RSV_SKIP        = 32'h0FF0_FFFF;  // [27:20], [15:0]
  localparam logic [31:0] RSV_TESSNORMAL  = 32'h0F00_FFF0;  // [27:24], [15:4]
  localparam logic [31:0] RSV_TESSUV      = 32'h0FF0_FFF0;  // [27:24], [23:20], [15:4]
  localparam logic [31:0] RSV_CONST       = 32'h01FF_FF80;  // [24:7]

  // Token index: 0 .. MAX_LENGTH.
  localparam int IDX_W = $clog2(MAX_LENGTH + 1);
  localparam logic [IDX_W-1:0] IDX_MAX = IDX_W'(MAX_LENGTH);

  // Bytes a data type (0..7) occupies in a vertex stream.
  function automatic logic [4:0] type_size(input logic [2:0] t);
    case (t)
      3'd0:    type_size = 5'd4;   // FLOAT1
      3'd1:    type_size = 5'd8;   // FLOAT2
      3'd2:    type_size = 5'd12;  // FLOAT3
      3'd3:    type_size = 5'd16;  // FLOAT4
      3'd7:    type_size = 5'd8;   // SHORT4
      default: type_size = 5'd4;   // D3DCOLOR, UBYTE4, SHORT2
    endcase
  endfunction

  // ------------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------------

  // Array state (reset by rst and after the token marked `last`).
  logic [IDX_W-1:0] idx_q;          // index of the next token
  logic             no_stream_q;    // no stream selected yet (neither explicit nor implicit)
  logic [4:0]       stream_q;       // current stream 0..15, 16 = tessellator
  logic             sel_open_q;     // rule 8: selector seen, no data definition yet
  logic [23:0]      offset_q;       // running byte offset in the current memory stream
  logic [16:0]      sel_mask_q;     // streams selected so far (bit 16 = tessellator)
  logic [16:0]      reg_mask_q;     // registers loaded so far (REG, TESSUV, TESSNORMAL)
  logic [15:0]      mem_mask_q;     // registers loaded by REG (from a memory stream)
  logic [5:0]       pay_left_q;     // payload DWORDs still to come (CONST <= 60, EXT <= 31)
  logic             pay_const_q;    // the payload belongs to a CONST (1) or an EXT (0)
  logic [IDX_W-1:0] pay_hdr_q;      // index of the payload's header (rule 13)
  logic [1:0]       word_q;         // CONST: next word of the vec4 (0 = x .. 3 = w)
  logic [7:0]       creg_q;         // CONST: constant register of the current vec4
  logic [31:0]      cx_q, cy_q, cz_q;  // CONST: captured x, y, z (data only: reset by rst alone)
  logic             done_q;         // END or an error seen: discard until `last`

  // Output register and pending slot.
  logic         out_valid_q;
  logic [2:0]   out_kind_q;
  logic [4:0]   out_stream_q;
  logic [23:0]  out_value_q;
  logic [4:0]   out_code_q;
  logic [7:0]   out_reg_q;
  logic [127:0] out_data_q;

  // The pending slot only ever holds a rule 13/14 ERROR: kind, stream, reg and data are
  // implied (ERROR, 0, 0, 0), so only value and code are stored.
  logic         pend_valid_q;
  logic [23:0]  pend_value_q;
  logic [4:0]   pend_code_q;

  // ------------------------------------------------------------------------------------
  // 1. Handshake
  // ------------------------------------------------------------------------------------

  logic out_free;  // the output register can be loaded at this edge
  logic accept;    // a token is accepted at this edge

  assign out_free = !out_valid_q || out_ready;
  assign in_ready = !pend_valid_q && out_free;
  assign accept   = in_valid && in_ready;

  // ------------------------------------------------------------------------------------
  // 2. Classification of the token on in_token (meaningful when accepted)
  // ------------------------------------------------------------------------------------

  // Token fields.
  logic [2:0]  tok_type;
  logic        tok_b28;      // STREAM: tessellator; DATA: SKIP; TESS: TESSUV
  logic [3:0]  tok_f19_16;   // REG data type, SKIP count, TESS type
  logic [4:0]  tok_reg;      // REG register [4:0]
  logic [3:0]  tok_reg_in;   // TESSNORMAL input register [23:20]
  logic [3:0]  tok_reg_out;  // TESS output register / STREAM number [3:0]
  logic [3:0]  tok_ccount;   // CONST count [28:25]
  logic [6:0]  tok_caddr;    // CONST address [6:0]
  logic [4:0]  tok_ecount;   // EXT count [28:24]

  assign tok_type    = in_token[31:29];
  assign tok_b28     = in_token[28];
  assign tok_f19_16  = in_token[19:16];
  assign tok_reg     = in_token[4:0];
  assign tok_reg_in  = in_token[23:20];
  assign tok_reg_out = in_token[3:0];
  assign tok_ccount  = in_token[28:25];
  assign tok_caddr   = in_token[6:0];
  assign tok_ecount  = in_token[28:24];

  logic at_max;   // rule 14: the token at index MAX_LENGTH, reached before END
  logic is_pay;   // a payload DWORD of a CONST (pay_const_q) or EXT
  logic is_tok;   // a token to check and decode
  assign at_max = !done_q && (idx_q == IDX_MAX);
  assign is_pay = !done_q && !at_max && (pay_left_q != 6'd0);
  assign is_tok = !done_q && !at_max && (pay_left_q == 6'd0);

  // Index + 1: the next token's index, END's total and rule 14's array length n.
  logic [IDX_W-1:0] idx_inc;
  assign idx_inc = idx_q + IDX_W'(1);

  // Streams: the one a STREAM token selects, and the one REG/SKIP use (the current one,
  // or the implicit stream 0 of lenient rule 7).
  logic [4:0] sel_stream;
  logic [4:0] mem_stream;
  logic       in_tess;       // the current stream is the tessellator stream
  assign sel_stream = tok_b28 ? TESS_STREAM : {1'b0, tok_reg_out};
  assign mem_stream = no_stream_q ? 5'd0 : stream_q;
  assign in_tess    = !no_stream_q && (stream_q == TESS_STREAM);

  // Reserved fields (rule 4) of the token's form.
  logic [31:0] rsv_mask;
  always_comb begin
    case (tok_type)
      T_STREAM: rsv_mask = tok_b28 ? RSV_STREAM_TESS : RSV_STREAM;
      T_DATA:   rsv_mask = tok_b28 ? RSV_SKIP : RSV_REG;
      T_TESS:   rsv_mask = tok_b28 ? RSV_TESSUV : RSV_TESSNORMAL;
      T_CONST:  rsv_mask = RSV_CONST;
      default:  rsv_mask = 32'd0;   // NOP is checked whole (rule 3); EXT and END have none
    endcase
  end

  logic rsv_bits;     // rule 4 (L)
  logic const_range;  // rule 12: address + count > CONST_COUNT
  assign rsv_bits    = (in_token & rsv_mask) != 32'd0;
  assign const_range = 32'(tok_caddr) + 32'(tok_ccount) > 32'(CONST_COUNT);

  // ------------------------------------------------------------------------------------
  // 3. Rule check: the first rule the token breaks, in ascending rule number
  // ------------------------------------------------------------------------------------

  logic [4:0] err_rule;  // 0 = no rule broken
  logic       err;

  always_comb begin
    err_rule = 5'd0;
    if (at_max) begin
      err_rule = R_NO_END;
    end else if (is_tok) begin
      case (tok_type)
        T_NOP:
          if (in_token[28:0] != 29'd0 && !lenient)             err_rule = R_NOP_BITS;
        T_STREAM:
          if (rsv_bits && !lenient)                             err_rule = R_RESERVED;
          else if (sel_mask_q[sel_stream] && !lenient)          err_rule = R_STREAM_TWICE;
        T_DATA:
          if (!tok_b28) begin                                   // REG: 4, 5, 6, 7, 10, 11
            if (rsv_bits && !lenient)                           err_rule = R_RESERVED;
            else if (tok_f19_16[3])                             err_rule = R_DATA_TYPE;
            else if (tok_reg > 5'd16)                           err_rule = R_REGISTER;
            else if (no_stream_q && !lenient)                   err_rule = R_NO_STREAM;
            else if (reg_mask_q[tok_reg] && !lenient)           err_rule = R_REG_TWICE;
            else if (in_tess)                                   err_rule = R_TESS;
          end else begin                                        // SKIP: 4, 7, 11
            if (rsv_bits && !lenient)                           err_rule = R_RESERVED;
            else if (no_stream_q && !lenient)                   err_rule = R_NO_STREAM;
            else if (in_tess)                                   err_rule = R_TESS;
          end
        T_TESS:                                                 // TESSNORMAL/UV: 4, 10, 11
          if (rsv_bits && !lenient)                             err_rule = R_RESERVED;
          else if (reg_mask_q[{1'b0, tok_reg_out}] && !lenient) err_rule = R_REG_TWICE;
          // rule 11 in order: outside a tess stream; wrong type; TESSNORMAL input not from memory
          else if (!in_tess)                                    err_rule = R_TESS;
          else if (tok_f19_16 != (tok_b28 ? DT_FLOAT2 : DT_FLOAT3))
                                                                err_rule = R_TESS;
          else if (!tok_b28 && !mem_mask_q[tok_reg_in])         err_rule = R_TESS;
        T_CONST:                                                // 4, 8, 12
          if (rsv_bits && !lenient)                             err_rule = R_RESERVED;
          else if (sel_open_q && !lenient)                      err_rule = R_SELECTOR;
          else if (const_range)                                 err_rule = R_CONST_RANGE;
        T_EXT:                                                  // 8
          if (sel_open_q && !lenient)                           err_rule = R_SELECTOR;
        T_RESERVD:                                              err_rule = R_TYPE6;
        T_END:
          if (in_token != END_TOKEN)                            err_rule = R_END_FORM;
      endcase
    end
  end

  assign err = (err_rule != 5'd0);

  // Tokens decoded without error, by form.
  logic ok;
  logic ok_stream, ok_reg, ok_skip, ok_tess, ok_const, ok_ext, ok_end;
  logic const_ev;  // the payload DWORD completes a vec4 of a CONST
  assign ok        = is_tok && !err;
  assign ok_stream = ok && (tok_type == T_STREAM);
  assign ok_reg    = ok && (tok_type == T_DATA) && !tok_b28;
  assign ok_skip   = ok && (tok_type == T_DATA) && tok_b28;
  assign ok_tess   = ok && (tok_type == T_TESS);
  assign ok_const  = ok && (tok_type == T_CONST);
  assign ok_ext    = ok && (tok_type == T_EXT);
  assign ok_end    = ok && (tok_type == T_END);
  assign const_ev  = is_pay && pay_const_q && (word_q == 2'd3);

  // ------------------------------------------------------------------------------------
  // 4. Events
  // ------------------------------------------------------------------------------------

  // The token's own event (out_data is built separately: only CONST events carry data).
  logic        tok_ev_valid;
  logic [2:0]  tok_ev_kind;
  logic [4:0]  tok_ev_stream;
  logic [23:0] tok_ev_value;
  logic [4:0]  tok_ev_code;
  logic [7:0]  tok_ev_reg;

  always_comb begin
    tok_ev_valid  = 1'b1;
    tok_ev_kind   = 3'd0;
    tok_ev_stream = 5'd0;
    tok_ev_value  = 24'd0;
    tok_ev_code   = 5'd0;
    tok_ev_reg    = 8'd0;
    if (ok_stream) begin
      tok_ev_kind   = K_STREAM;
      tok_ev_stream = sel_stream;
    end else if (ok_reg) begin
      tok_ev_kind   = K_ELEMENT;
      tok_ev_stream = mem_stream;
      tok_ev_value  = offset_q;
      tok_ev_code   = {2'b00, tok_f19_16[2:0]};
      tok_ev_reg    = {3'b000, tok_reg};
    end else if (ok_skip) begin
      tok_ev_kind   = K_SKIP;
      tok_ev_stream = mem_stream;
      tok_ev_value  = offset_q;
      tok_ev_code   = {1'b0, tok_f19_16};
    end else if (ok_tess) begin
      tok_ev_kind   = K_TESS;
      tok_ev_stream = TESS_STREAM;
      tok_ev_value  = tok_b28 ? 24'd0 : 24'(tok_reg_in);  // UV: no input register
      tok_ev_code   = tok_b28 ? 5'd0 : 5'd1;
      tok_ev_reg    = {4'b0000, tok_reg_out};
    end else if (const_ev) begin
      tok_ev_kind   = K_CONST;
      tok_ev_reg    = creg_q;
    end else if (ok_ext) begin
      tok_ev_kind   = K_EXT;
      tok_ev_value  = in_token[23:0];
      tok_ev_code   = tok_ecount;
    end else if (ok_end) begin
      tok_ev_kind   = K_END;
      tok_ev_value  = 24'(idx_inc);
    end else begin
      tok_ev_valid  = 1'b0;  // NOP, CONST header, payload DWORD, error, discarded token
    end
  end

  // Payload state after this token (for rule 13 on the token marked `last`).
  logic [5:0]       left_after;
  logic [IDX_W-1:0] hdr_after;
  always_comb begin
    if (ok_const) begin
      left_after = {tok_ccount, 2'b00};
      hdr_after  = idx_q;
    end else if (ok_ext) begin
      left_after = {1'b0, tok_ecount};
      hdr_after  = idx_q;
    end else begin
      left_after = is_pay ? pay_left_q - 6'd1 : 6'd0;
      hdr_after  = pay_hdr_q;
    end
  end

  // End of array: the token marked `last` leaves the array unfinished (no END, no error).
  logic        eoa_valid;
  logic [23:0] eoa_value;
  logic [4:0]  eoa_code;
  assign eoa_valid = in_last && !done_q && !err && !ok_end;
  assign eoa_code  = (left_after != 6'd0) ? R_PAYLOAD : R_NO_END;
  assign eoa_value = (left_after != 6'd0) ? 24'(hdr_after) : 24'(idx_inc);

  // First event of the accepted token: its error, else its own event, else the end-of-array
  // error. The second event (pending slot) is the end-of-array error after an own event.
  logic        ev1_valid;
  logic [2:0]  ev1_kind;
  logic [4:0]  ev1_stream;
  logic [23:0] ev1_value;
  logic [4:0]  ev1_code;
  logic [7:0]  ev1_reg;
  logic        ev2_valid;

  always_comb begin
    ev1_valid  = 1'b1;
    ev1_kind   = K_ERROR;
    ev1_stream = 5'd0;
    ev1_value  = 24'd0;
    ev1_code   = 5'd0;
    ev1_reg    = 8'd0;
    if (err) begin
      ev1_value  = 24'(idx_q);  // at MAX_LENGTH this is MAX_LENGTH
      ev1_code   = err_rule;
    end else if (tok_ev_valid) begin
      ev1_kind   = tok_ev_kind;
      ev1_stream = tok_ev_stream;
      ev1_value  = tok_ev_value;
      ev1_code   = tok_ev_code;
      ev1_reg    = tok_ev_reg;
    end else if (eoa_valid) begin
      ev1_value  = eoa_value;
      ev1_code   = eoa_code;
    end else begin
      ev1_valid  = 1'b0;
      ev1_kind   = 3'd0;
    end
  end

  assign ev2_valid = tok_ev_valid && eoa_valid;

  // Output register and pending slot.
  always_ff @(posedge clk) begin
    if (rst) begin
      out_valid_q  <= 1'b0;
      out_kind_q   <= 3'd0;
      out_stream_q <= 5'd0;
      out_value_q  <= 24'd0;
      out_code_q   <= 5'd0;
      out_reg_q    <= 8'd0;
      out_data_q   <= 128'd0;
      pend_valid_q <= 1'b0;
      pend_value_q <= 24'd0;
      pend_code_q  <= 5'd0;
    end else if (out_free) begin
      if (accept && ev1_valid) begin
        out_valid_q  <= 1'b1;
        out_kind_q   <= ev1_kind;
        out_stream_q <= ev1_stream;
        out_value_q  <= ev1_value;
        out_code_q   <= ev1_code;
        out_reg_q    <= ev1_reg;
        out_data_q   <= const_ev ? {in_token, cz_q, cy_q, cx_q} : 128'd0;
        pend_valid_q <= ev2_valid;
        pend_value_q <= ev2_valid ? eoa_value : 24'd0;
        pend_code_q  <= ev2_valid ? eoa_code : 5'd0;
      end else if (pend_valid_q) begin
        // Drain the pending slot (no token is accepted while it is full).
        out_valid_q  <= 1'b1;
        out_kind_q   <= K_ERROR;
        out_stream_q <= 5'd0;
        out_value_q  <= pend_value_q;
        out_code_q   <= pend_code_q;
        out_reg_q    <= 8'd0;
        out_data_q   <= 128'd0;
        pend_valid_q <= 1'b0;
        pend_value_q <= 24'd0;
        pend_code_q  <= 5'd0;
      end else begin
        out_valid_q  <= 1'b0;
        out_kind_q   <= 3'd0;
        out_stream_q <= 5'd0;
        out_value_q  <= 24'd0;
        out_code_q   <= 5'd0;
        out_reg_q    <= 8'd0;
        out_data_q   <= 128'd0;
      end
    end
  end

  assign out_valid  = out_valid_q;
  assign out_kind   = out_kind_q;
  assign out_stream = out_stream_q;
  assign out_value  = out_value_q;
  assign out_code   = out_code_q;
  assign out_reg    = out_reg_q;
  assign out_data   = out_data_q;

  // ------------------------------------------------------------------------------------
  // 5. Array state
  // ------------------------------------------------------------------------------------

  // Offset step of a REG (type size) or SKIP (4 bytes per DWORD).
  logic [5:0] mem_step;
  assign mem_step = tok_b28 ? {tok_f19_16, 2'b00} : {1'b0, type_size(tok_f19_16[2:0])};

  always_ff @(posedge clk) begin
    if (rst || (accept && in_last)) begin
      idx_q       <= '0;
      no_stream_q <= 1'b1;
      stream_q    <= 5'd0;
      sel_open_q  <= 1'b0;
      offset_q    <= 24'd0;
      sel_mask_q  <= 17'd0;
      reg_mask_q  <= 17'd0;
      mem_mask_q  <= 16'd0;
      pay_left_q  <= 6'd0;
      pay_const_q <= 1'b0;
      pay_hdr_q   <= '0;
      word_q      <= 2'd0;
      creg_q      <= 8'd0;
      done_q      <= 1'b0;
    end else if (accept && !done_q) begin
      if (err || ok_end) begin
        done_q <= 1'b1;  // discard the rest; the other state is no longer needed
      end else begin
        idx_q <= idx_inc;
        if (ok_stream) begin
          no_stream_q <= 1'b0;
          stream_q    <= sel_stream;
          offset_q    <= 24'd0;
          sel_open_q  <= 1'b1;
          sel_mask_q  <= sel_mask_q | (17'd1 << sel_stream);
        end
        if (ok_reg || ok_skip) begin
          no_stream_q <= 1'b0;           // lenient rule 7: the implicit stream 0 ...
          stream_q    <= mem_stream;
          sel_mask_q  <= sel_mask_q | (17'd1 << mem_stream);  // ... counts as selected
          offset_q    <= offset_q + 24'(mem_step);
          sel_open_q  <= 1'b0;
        end
        if (ok_reg) begin
          reg_mask_q  <= reg_mask_q | (17'd1 << tok_reg);
          if (!tok_reg[4]) mem_mask_q <= mem_mask_q | (16'd1 << tok_reg[3:0]);
        end
        if (ok_tess) begin
          reg_mask_q  <= reg_mask_q | (17'd1 << tok_reg_out);
          sel_open_q  <= 1'b0;
        end
        if (ok_const || ok_ext) begin
          pay_left_q  <= left_after;
          pay_const_q <= ok_const;
          pay_hdr_q   <= idx_q;
          word_q      <= 2'd0;
          creg_q      <= {1'b0, tok_caddr};
        end
        if (is_pay) begin
          pay_left_q  <= pay_left_q - 6'd1;
          if (pay_const_q) begin
            word_q <= word_q + 2'd1;
            if (word_q == 2'd3) creg_q <= creg_q + 8'd1;
          end
        end
      end
    end
  end

  // CONST payload: capture x, y, z; w comes straight from in_token with the 4th DWORD.
  always_ff @(posedge clk) begin
    if (rst) begin
      cx_q <= 32'd0;
      cy_q <= 32'd0;
      cz_q <= 32'd0;
    end else if (accept && is_pay && pay_const_q) begin
      case (word_q)
        2'd0:    cx_q <= in_token;
        2'd1:    cy_q <= in_token;
        2'd2:    cz_q <= in_token;
        default: ;
      endcase
    end
  end

  // ------------------------------------------------------------------------------------
  // 6. Assertions (simulation only)
  // ------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  initial begin
    assert (MAX_LENGTH >= 1 && MAX_LENGTH < (1 << 24))
      else $fatal(1, "decl_decoder: MAX_LENGTH must be in 1 .. 2^24-1");
    assert (CONST_COUNT >= 1)
      else $fatal(1, "decl_decoder: CONST_COUNT must be >= 1");
  end

  always_ff @(posedge clk) begin
    if (!rst) begin
      // Output register and pending slot.
      assert (!pend_valid_q || out_valid_q)
        else $error("pending event valid while the output register is empty");
      assert (!pend_valid_q || pend_code_q == R_PAYLOAD || pend_code_q == R_NO_END)
        else $error("pending event is not a rule 13/14 error");
      assert (!(accept && ev2_valid) || in_last)
        else $error("second event for a token not marked last");
      assert (!out_valid_q || !(out_kind_q == K_ELEMENT || out_kind_q == K_SKIP)
              || out_stream_q < TESS_STREAM)
        else $error("ELEMENT/SKIP event on the tessellator stream");
      assert (!out_valid_q || out_kind_q == K_CONST || out_data_q == 128'd0)
        else $error("data on an event other than CONST");
      // Classification and decode.
      assert ($onehot0({at_max, is_pay, is_tok, done_q}) && (done_q || at_max || is_pay || is_tok))
        else $error("token classification not one-hot");
      assert ($onehot0({ok_stream, ok_reg, ok_skip, ok_tess, ok_const, ok_ext, ok_end, const_ev}))
        else $error("more than one decode form");
      assert (!(err && tok_ev_valid))
        else $error("token both broke a rule and decoded");
      assert (!(tok_ev_valid && (tok_ev_kind == K_ELEMENT || tok_ev_kind == K_SKIP))
              || tok_ev_stream < TESS_STREAM)
        else $error("ELEMENT/SKIP decoded on the tessellator stream");
      // Token index.
      assert (32'(idx_q) <= 32'(MAX_LENGTH))
        else $error("token index %0d beyond MAX_LENGTH", idx_q);
      // Payload bookkeeping.
      assert (pay_left_q != 6'd0 || word_q == 2'd0)
        else $error("vec4 word counter %0d outside a payload", word_q);
      assert (pay_left_q == 6'd0 || !pay_const_q
              || (pay_left_q <= 6'd60 && pay_left_q[1:0] == 2'(3'd4 - {1'b0, word_q})))
        else $error("CONST payload counter %0d inconsistent with word %0d", pay_left_q, word_q);
      assert (pay_left_q == 6'd0 || pay_const_q || (pay_left_q <= 6'd31 && word_q == 2'd0))
        else $error("EXT payload counter %0d inconsistent", pay_left_q);
      assert (pay_left_q == 6'd0 || pay_hdr_q < idx_q)
        else $error("payload header index not before the current index");
      // Stream state.
      assert (!no_stream_q || (offset_q == 24'd0 && !sel_open_q && sel_mask_q == 17'd0))
        else $error("stream state set while no stream is selected");
      assert (no_stream_q || stream_q <= TESS_STREAM)
        else $error("current stream %0d out of range", stream_q);
      assert (no_stream_q || sel_mask_q[stream_q])
        else $error("current stream not marked as selected");
      assert ((mem_mask_q & ~reg_mask_q[15:0]) == 16'd0)
        else $error("register loaded from memory but not marked loaded");
    end
  end

  // Cover properties (verilator --coverage, `vpsim xcheck --coverage`): the corner cases of
  // the cycle contract that the functional coverage of the testbench does not name.
  cover property (@(posedge clk) disable iff (rst) accept && ev2_valid);             // two events from one token
  cover property (@(posedge clk) disable iff (rst) pend_valid_q && !out_ready);       // pending slot held by back-pressure
  cover property (@(posedge clk) disable iff (rst) in_valid && !in_ready && !pend_valid_q);  // stall: output full
  cover property (@(posedge clk) disable iff (rst) accept && at_max);                 // rule 14 at MAX_LENGTH
  cover property (@(posedge clk) disable iff (rst) accept && in_last && is_pay);      // array ends in a payload
  cover property (@(posedge clk) disable iff (rst) accept && in_last && done_q);      // last token discarded
  cover property (@(posedge clk) disable iff (rst) accept && const_ev && in_last);    // CONST event, then rule 14
  cover property (@(posedge clk) disable iff (rst) ok_reg && no_stream_q);            // lenient implicit stream 0
  cover property (@(posedge clk) disable iff (rst) ok_const && tok_ccount == 4'd0);   // CONST with count 0
  cover property (@(posedge clk) disable iff (rst) accept && !out_valid_q && !ev1_valid);  // idle output, no event
`endif

endmodule
