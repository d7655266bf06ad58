// decl_decoder_fsm_b2bbug: tests/rtl_variants/decl_decoder_fsm.sv with ONE planted bug that only
// arrays driven back to back show: in the cycle right after a token marked `last` was accepted,
// while that array's final event (END or ERROR) is still in the output register, in_ready is low,
// so the next array's first token cannot start "on the very next cycle" as the contract says
// (docs/decl-decoder.md). Every event is right; only the cycles differ. A bench that waits for an
// array's final event before it offers the next array never offers a token in that cycle
// (vpsim xcheck without --stream): there it passes; `--stream K` catches it.
module decl_decoder_fsm_b2bbug #(
    parameter int CONST_COUNT = 96,
    parameter int MAX_LENGTH  = 4096
) (
    input  logic         clk,
    input  logic         rst,
    input  logic         in_valid,
    output logic         in_ready,
    input  logic [31:0]  in_token,
    input  logic         in_last,
    input  logic         lenient,
    output logic         out_valid,
    input  logic         out_ready,
    output logic [2:0]   out_kind,
    output logic [4:0]   out_stream,
    output logic [23:0]  out_value,
    output logic [4:0]   out_code,
    output logic [7:0]   out_reg,
    output logic [127:0] out_data
);

  typedef enum logic [1:0] {S_TOKEN, S_CONST, S_EXT, S_DISCARD} mode_t;

  // The state of the array being decoded.
  typedef struct packed {
    mode_t       mode;
    logic [5:0]  cnt;      // payload DWORDs still to come
    logic [23:0] hdr;      // index of the payload's header
    logic [23:0] idx;      // index of the next token
    logic        have;     // a stream is current (explicit, or lenient rule 7's stream 0)
    logic [4:0]  cur;      // the current stream, 16 = tessellator
    logic        open;     // rule 8: a selector without its first data definition
    logic [23:0] off;      // byte offset in the current memory stream
    logic [16:0] sel;      // streams selected so far
    logic [16:0] loaded;   // registers loaded so far
    logic [15:0] frommem;  // registers loaded by REG
    logic [7:0]  creg;     // constant register of the vec4 in flight
    logic [95:0] xyz;      // CONST: the last three payload words, x in [31:0]
  } arr_t;

  // One event record.
  typedef struct packed {
    logic         valid;
    logic [2:0]   kind;
    logic [4:0]   stream;
    logic [23:0]  value;
    logic [4:0]   code;
    logic [7:0]   rg;
    logic [127:0] data;
  } ev_t;

  localparam arr_t ARR_RESET = '{mode: S_TOKEN, cnt: 6'd0, hdr: 24'd0, idx: 24'd0, have: 1'b0, cur: 5'd0,
                                 open: 1'b0, off: 24'd0, sel: 17'd0, loaded: 17'd0, frommem: 16'd0,
                                 creg: 8'd0, xyz: 96'd0};
  localparam logic [23:0] IDX_LIMIT = 24'(MAX_LENGTH);

  arr_t a_q, a_d;
  ev_t  o_q, o_d;           // output register
  logic p_q, p_d;           // pending slot: a rule 13/14 error, value and code kept
  logic [23:0] pv_q, pv_d;
  logic [4:0]  pc_q, pc_d;
  // The planted bug's condition: the cycle right after a `last` token was accepted, with the array's
  // final event (END or ERROR) still in the output register.
  logic        after_last_q, after_fin;

  // ---------------------------------------------------------------- process 1: registers
  always_ff @(posedge clk) begin
    if (rst) begin
      a_q  <= ARR_RESET;
      o_q  <= '0;
      p_q  <= 1'b0;
      pv_q <= 24'd0;
      pc_q <= 5'd0;
      after_last_q <= 1'b0;
    end else begin
      after_last_q <= in_valid && in_ready && in_last;
      a_q  <= a_d;
      o_q  <= o_d;
      p_q  <= p_d;
      pv_q <= pv_d;
      pc_q <= pc_d;
    end
  end

  assign out_valid  = o_q.valid;
  assign out_kind   = o_q.kind;
  assign out_stream = o_q.stream;
  assign out_value  = o_q.value;
  assign out_code   = o_q.code;
  assign out_reg    = o_q.rg;
  assign out_data   = o_q.data;

  // ---------------------------------------------------------------- process 2: next state
  logic        ready, acc, strict, in_tess;
  logic [2:0]  ty;
  logic        b28, is_reg, is_skip, is_tn, is_tuv, is_mem, is_tess;
  logic [4:0]  rule, tsel, mstream;
  logic [23:0] step;
  logic [5:0]  left;
  ev_t         own, first;
  logic        eoa, second;
  logic [23:0] eoa_value;
  logic [4:0]  eoa_code;

  assign after_fin = after_last_q && o_q.valid && o_q.kind >= 3'd6;

  always_comb begin
    a_d  = a_q;
    o_d  = o_q;
    p_d  = p_q;
    pv_d = pv_q;
    pc_d = pc_q;

    ready  = !p_q && (!o_q.valid || out_ready) && !after_fin;  // the planted bug
    acc    = in_valid && ready;
    strict = !lenient;

    ty      = in_token[31:29];
    b28     = in_token[28];
    is_reg  = ty == 3'd2 && !b28;
    is_skip = ty == 3'd2 && b28;
    is_tn   = ty == 3'd3 && !b28;
    is_tuv  = ty == 3'd3 && b28;
    is_mem  = is_reg || is_skip;
    is_tess = is_tn || is_tuv;
    in_tess = a_q.have && a_q.cur == 5'd16;
    tsel    = b28 ? 5'd16 : {1'b0, in_token[3:0]};
    mstream = a_q.have ? a_q.cur : 5'd0;

    own       = '0;
    first     = '0;
    eoa       = 1'b0;
    second    = 1'b0;
    eoa_value = 24'd0;
    eoa_code  = 5'd0;
    rule      = 5'd0;
    left      = 6'd0;
    step      = 24'd0;

    if (acc && a_q.mode != S_DISCARD) begin
      if (a_q.idx == IDX_LIMIT) begin
        // Rule 14: the token at MAX_LENGTH, reached before END; not decoded.
        own        = '{valid: 1'b1, kind: 3'd7, value: a_q.idx, code: 5'd14, default: '0};
        a_d.mode   = S_DISCARD;
      end else if (a_q.mode == S_CONST || a_q.mode == S_EXT) begin
        // A payload DWORD.
        a_d.cnt = a_q.cnt - 6'd1;
        a_d.idx = a_q.idx + 24'd1;
        if (a_d.cnt == 6'd0) a_d.mode = S_TOKEN;
        if (a_q.mode == S_CONST) begin
          a_d.xyz = {in_token, a_q.xyz[95:32]};
          if (a_q.cnt[1:0] == 2'b01) begin  // the w of a vec4
            own      = '{valid: 1'b1, kind: 3'd4, rg: a_q.creg, data: {in_token, a_q.xyz}, default: '0};
            a_d.creg = a_q.creg + 8'd1;
          end
        end
        eoa       = in_last;
        eoa_code  = a_d.cnt != 6'd0 ? 5'd13 : 5'd14;
        eoa_value = a_d.cnt != 6'd0 ? a_q.hdr : a_q.idx + 24'd1;
      end else begin
        // A token: the first rule it breaks, all rules in ascending number.
        if (ty == 3'd6)                                                   rule = 5'd1;
        else if (ty == 3'd7 && in_token != 32'hFFFF_FFFF)                 rule = 5'd2;
        else if (strict && ty == 3'd0 && in_token[28:0] != 29'd0)         rule = 5'd3;
        else if (strict && ty == 3'd1 && b28 && in_token[27:0] != 28'd0)  rule = 5'd4;
        else if (strict && ty == 3'd1 && !b28 && in_token[27:4] != 24'd0) rule = 5'd4;
        else if (strict && is_reg && (in_token[27:20] != 8'd0 || in_token[15:5] != 11'd0)) rule = 5'd4;
        else if (strict && is_skip && (in_token[27:20] != 8'd0 || in_token[15:0] != 16'd0)) rule = 5'd4;
        else if (strict && is_tess && (in_token[27:24] != 4'd0 || in_token[15:4] != 12'd0)) rule = 5'd4;
        else if (strict && is_tuv && in_token[23:20] != 4'd0)             rule = 5'd4;
        else if (strict && ty == 3'd4 && in_token[24:7] != 18'd0)         rule = 5'd4;
        else if (is_reg && in_token[19])                                  rule = 5'd5;
        else if (is_reg && in_token[4:0] > 5'd16)                         rule = 5'd6;
        else if (strict && is_mem && !a_q.have)                           rule = 5'd7;
        else if (strict && (ty == 3'd4 || ty == 3'd5) && a_q.open)        rule = 5'd8;
        else if (strict && ty == 3'd1 && a_q.sel[tsel])                   rule = 5'd9;
        else if (strict && is_reg && a_q.loaded[in_token[4:0]])           rule = 5'd10;
        else if (strict && is_tess && a_q.loaded[{1'b0, in_token[3:0]}])  rule = 5'd10;
        else if (is_mem && in_tess)                                       rule = 5'd11;
        else if (is_tess && !in_tess)                                     rule = 5'd11;
        else if (is_tn && in_token[19:16] != 4'd2)                        rule = 5'd11;
        else if (is_tuv && in_token[19:16] != 4'd1)                       rule = 5'd11;
        else if (is_tn && !a_q.frommem[in_token[23:20]])                  rule = 5'd11;
        else if (ty == 3'd4 && 32'(in_token[6:0]) + 32'(in_token[28:25]) > 32'(CONST_COUNT))
                                                                          rule = 5'd12;

        if (rule != 5'd0) begin
          own      = '{valid: 1'b1, kind: 3'd7, value: a_q.idx, code: rule, default: '0};
          a_d.mode = S_DISCARD;
        end else begin
          a_d.idx = a_q.idx + 24'd1;
          case (ty)
            3'd1: begin  // STREAM
              own       = '{valid: 1'b1, kind: 3'd0, stream: tsel, default: '0};
              a_d.have  = 1'b1;
              a_d.cur   = tsel;
              a_d.off   = 24'd0;
              a_d.open  = 1'b1;
              a_d.sel   = a_q.sel | (17'd1 << tsel);
            end
            3'd2: begin  // REG / SKIP
              if (is_skip) begin
                step = 24'({in_token[19:16], 2'b00});
                own  = '{valid: 1'b1, kind: 3'd2, stream: mstream, value: a_q.off, code: {1'b0, in_token[19:16]},
                         default: '0};
              end else begin
                case (in_token[18:16])
                  3'd1, 3'd7: step = 24'd8;
                  3'd2:       step = 24'd12;
                  3'd3:       step = 24'd16;
                  default:    step = 24'd4;
                endcase
                own = '{valid: 1'b1, kind: 3'd1, stream: mstream, value: a_q.off, code: {2'b00, in_token[18:16]},
                        rg: {3'b000, in_token[4:0]}, default: '0};
                a_d.loaded = a_q.loaded | (17'd1 << in_token[4:0]);
                if (!in_token[4]) a_d.frommem = a_q.frommem | (16'd1 << in_token[3:0]);
              end
              a_d.have = 1'b1;
              a_d.cur  = mstream;
              a_d.sel  = a_q.sel | (17'd1 << mstream);
              a_d.off  = a_q.off + step;
              a_d.open = 1'b0;
            end
            3'd3: begin  // TESSNORMAL / TESSUV
              own = '{valid: 1'b1, kind: 3'd3, stream: 5'd16, value: is_tn ? 24'(in_token[23:20]) : 24'd0,
                      code: is_tn ? 5'd1 : 5'd0, rg: {4'b0000, in_token[3:0]}, default: '0};
              a_d.loaded = a_q.loaded | (17'd1 << in_token[3:0]);
              a_d.open   = 1'b0;
            end
            3'd4: begin  // CONST header
              left     = {in_token[28:25], 2'b00};
              a_d.cnt  = left;
              a_d.hdr  = a_q.idx;
              a_d.creg = {1'b0, in_token[6:0]};
              a_d.mode = left != 6'd0 ? S_CONST : S_TOKEN;
            end
            3'd5: begin  // EXT
              left     = {1'b0, in_token[28:24]};
              own      = '{valid: 1'b1, kind: 3'd5, value: in_token[23:0], code: in_token[28:24], default: '0};
              a_d.cnt  = left;
              a_d.hdr  = a_q.idx;
              a_d.mode = left != 6'd0 ? S_EXT : S_TOKEN;
            end
            3'd7: begin  // END
              own      = '{valid: 1'b1, kind: 3'd6, value: a_q.idx + 24'd1, default: '0};
              a_d.mode = S_DISCARD;
            end
            default: ;   // NOP
          endcase
          eoa       = in_last && ty != 3'd7;
          eoa_code  = left != 6'd0 ? 5'd13 : 5'd14;
          eoa_value = left != 6'd0 ? a_q.idx : a_q.idx + 24'd1;
        end
      end
    end

    // The token's events: its own (or its error), then the end-of-array error.
    if (own.valid) begin
      first  = own;
      second = eoa;
    end else if (eoa) begin
      first = '{valid: 1'b1, kind: 3'd7, value: eoa_value, code: eoa_code, default: '0};
    end

    if (acc && in_last) a_d = ARR_RESET;

    if (!o_q.valid || out_ready) begin
      if (acc && first.valid) begin
        o_d  = first;
        p_d  = second;
        pv_d = second ? eoa_value : 24'd0;
        pc_d = second ? eoa_code : 5'd0;
      end else if (p_q) begin
        o_d  = '{valid: 1'b1, kind: 3'd7, value: pv_q, code: pc_q, default: '0};
        p_d  = 1'b0;
        pv_d = 24'd0;
        pc_d = 5'd0;
      end else begin
        o_d = '0;
      end
    end
  end

  assign in_ready = ready;

endmodule
