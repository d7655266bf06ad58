// decl_decoder_props: the declaration decoder's pin contract (docs/decl-decoder.md, "Events" and
// "The cycle contract") as properties for `vpsim formal --unit decl_decoder` (docs/formal.md).
//
// A wrapper, read by yosys with -formal: it instantiates the design under test (`DUT`, default
// decl_decoder; `vpsim formal --top T` defines it) with the wrapper's parameters, leaves every
// input free (yosys-smtbmc chooses them each cycle: any token, any `last`, any back-pressure, any
// reset) and checks the contract with immediate assertions on the pins only, so it applies to any
// design with the contract's ports. The only assumption is a reset in the first cycle.
//
// The monitor is registered: at cycle t it sees the inputs of cycle t-1 (p_*) and the output
// register of cycle t, which the edge between them loaded. Each assertion has a label; the labels
// are the property names in the report.
`ifndef DUT
`define DUT decl_decoder
`endif

module decl_decoder_props #(
    parameter int CONST_COUNT = 96,
    parameter int MAX_LENGTH  = 4096
) (
    input logic        clk,
    input logic        rst,
    input logic        in_valid,
    input logic [31:0] in_token,
    input logic        in_last,
    input logic        lenient,
    input logic        out_ready
);
  logic         in_ready, out_valid;
  logic [2:0]   out_kind;
  logic [4:0]   out_stream;
  logic [23:0]  out_value;
  logic [4:0]   out_code;
  logic [7:0]   out_reg;
  logic [127:0] out_data;

  `DUT #(.CONST_COUNT(CONST_COUNT), .MAX_LENGTH(MAX_LENGTH)) dut (
      .clk(clk), .rst(rst), .in_valid(in_valid), .in_ready(in_ready), .in_token(in_token),
      .in_last(in_last), .lenient(lenient), .out_valid(out_valid), .out_ready(out_ready),
      .out_kind(out_kind), .out_stream(out_stream), .out_value(out_value), .out_code(out_code),
      .out_reg(out_reg), .out_data(out_data));

  localparam logic [2:0] K_STREAM = 3'd0, K_ELEMENT = 3'd1, K_SKIP = 3'd2, K_TESS = 3'd3,
                         K_CONST = 3'd4, K_EXT = 3'd5, K_END = 3'd6, K_ERROR = 3'd7;

  // Assumption: the design starts from a reset (the first cycle has rst high).
  always_comb if ($initstate) assume (rst);

  logic out_free, accept, term;
  assign out_free = !out_valid || out_ready;
  assign accept   = in_valid && in_ready;
  assign term     = out_kind == K_END || out_kind == K_ERROR;

  // ---------------------------------------------------------------------------------------------
  // Monitor state
  // ---------------------------------------------------------------------------------------------
  logic         started_q;   // a reset edge has happened: the pins follow the contract from here
  logic         p_ok;        // the previous cycle was checked and had no reset
  logic         p_accept, p_last, p_free, p_valid, p_ready;
  logic [2:0]   p_kind;
  logic [4:0]   p_stream;
  logic [23:0]  p_value;
  logic [4:0]   p_code;
  logic [7:0]   p_reg;
  logic [127:0] p_data;
  logic         pend_q;      // the last token was accepted and its array's END/ERROR is owed
  logic         term_q;      // the array being read has had its END or ERROR (discarding to `last`)
  logic [15:0]  idx_q;       // tokens of the array being read accepted before the previous cycle's
  logic [15:0]  n_q;         // the length of the array whose END/ERROR is owed (pend_q)
  logic [4:0]   cur_q;       // the current stream of the event stream (0 before any STREAM)
  logic [23:0]  off_q;       // the byte offset the next ELEMENT/SKIP must report

  // The previous cycle's pins.
  always_ff @(posedge clk) begin
    started_q <= started_q || rst;
    p_ok      <= (started_q || rst) && !rst;
    p_accept  <= accept;
    p_last    <= in_last;
    p_free    <= out_free;
    p_valid   <= out_valid;
    p_ready   <= out_ready;
    p_kind    <= out_kind;
    p_stream  <= out_stream;
    p_value   <= out_value;
    p_code    <= out_code;
    p_reg     <= out_reg;
    p_data    <= out_data;
  end
  initial begin
    started_q = 1'b0;
    p_ok      = 1'b0;
  end

  // An event entered the output register at the last edge (it was empty or fired).
  logic entered;
  assign entered = p_ok && p_free && out_valid;

  // Size in bytes of an ELEMENT's data type (its code), as the contract's offsets grow.
  function automatic logic [23:0] type_size(input logic [4:0] t);
    case (t[2:0])
      3'd1, 3'd7: type_size = 24'd8;
      3'd2:       type_size = 24'd12;
      3'd3:       type_size = 24'd16;
      default:    type_size = 24'd4;
    endcase
  endfunction

  // Next monitor state from the last edge (the events and tokens it moved).
  logic        pend_n, term_n;
  logic        term_mid;   // the array's END/ERROR has entered, counting the last edge's event
  logic [15:0] idx_n, n_n;
  logic [4:0]  cur_n;
  logic [23:0] off_n;
  always_comb begin
    pend_n = pend_q;
    term_n = term_q;
    idx_n  = idx_q;
    n_n    = n_q;
    cur_n  = cur_q;
    off_n  = off_q;
    if (entered) begin
      if (pend_q) pend_n = 1'b0;         // the owed END/ERROR drained (checked below)
      else if (term) term_n = 1'b1;      // this array's END/ERROR
      if (term) begin
        cur_n = 5'd0;
        off_n = 24'd0;
      end else if (out_kind == K_STREAM) begin
        cur_n = out_stream;
        off_n = 24'd0;
      end else if (out_kind == K_ELEMENT) begin
        off_n = off_q + type_size(out_code);
      end else if (out_kind == K_SKIP) begin
        off_n = off_q + {17'd0, out_code, 2'b00};
      end
    end
    term_mid = term_n;
    if (p_ok && p_accept) begin
      idx_n = idx_q + 16'd1;
      if (p_last) begin
        idx_n  = 16'd0;
        if (!term_mid) begin
          pend_n = 1'b1;                 // the END/ERROR comes from the pending slot
          n_n    = idx_q + 16'd1;
        end
        term_n = 1'b0;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      pend_q <= 1'b0;
      term_q <= 1'b0;
      idx_q  <= 16'd0;
      n_q    <= 16'd0;
      cur_q  <= 5'd0;
      off_q  <= 24'd0;
    end else begin
      pend_q <= pend_n;
      term_q <= term_n;
      idx_q  <= idx_n;
      n_q    <= n_n;
      cur_q  <= cur_n;
      off_q  <= off_n;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Properties
  // ---------------------------------------------------------------------------------------------
  logic chk;      // this cycle's pins are checked
  assign chk = started_q && !rst;

  always_comb begin
    if (chk) begin
      // in_ready never accepts a token the output register could not take.
      ready_needs_room: assert (!in_ready || out_free);
      // ... and refuses one only while the pending slot holds an array's END/ERROR:
      // in_ready = !pending && (!out_valid || out_ready).
      ready_when_room: assert (in_ready || !out_free || pend_n);
      // While out_valid is low the event fields are 0.
      idle_fields_zero: assert (out_valid || (out_kind == 3'd0 && out_stream == 5'd0 &&
                               out_value == 24'd0 && out_code == 5'd0 && out_reg == 8'd0 &&
                               out_data == 128'd0));
      // Each kind's fields in range, the fields it does not use 0.
      event_form: assert (!out_valid || (
          (out_kind == K_CONST || out_data == 128'd0) &&
          (out_kind != K_STREAM  || (out_stream <= 5'd16 && out_value == 24'd0 && out_code == 5'd0 && out_reg == 8'd0)) &&
          (out_kind != K_ELEMENT || (out_stream <= 5'd15 && out_code <= 5'd7 && out_reg <= 8'd16)) &&
          (out_kind != K_SKIP    || (out_stream <= 5'd15 && out_code <= 5'd15 && out_reg == 8'd0)) &&
          (out_kind != K_TESS    || (out_stream == 5'd16 && out_code <= 5'd1 && out_reg <= 8'd15)) &&
          (out_kind != K_CONST   || (out_stream == 5'd0 && out_value == 24'd0 && out_code == 5'd0)) &&
          (out_kind != K_EXT     || (out_stream == 5'd0 && out_reg == 8'd0)) &&
          (out_kind != K_END     || (out_stream == 5'd0 && out_code == 5'd0 && out_reg == 8'd0)) &&
          (out_kind != K_ERROR   || (out_stream == 5'd0 && out_reg == 8'd0 &&
                                     out_code >= 5'd1 && out_code <= 5'd14))));
    end
    if (chk && p_ok) begin
      // An event held by back-pressure stays, unchanged, until it is taken.
      held_event_stable: assert (!(p_valid && !p_ready) || (out_valid && out_kind == p_kind &&
          out_stream == p_stream && out_value == p_value && out_code == p_code &&
          out_reg == p_reg && out_data == p_data));
      // An event enters the output register only from a token accepted at that edge or from
      // the pending slot (no event from nothing, none twice).
      no_event_from_nothing: assert (!entered || p_accept || pend_q);
      // The pending slot drains at the first edge the output is free, as a rule 13/14 ERROR at
      // the array's length (14) or its header's index (13), and no token goes in meanwhile.
      pending_drains: assert (!pend_q || ((!p_free || (entered && out_kind == K_ERROR &&
          ((out_code == 5'd14 && out_value == 24'(n_q)) ||
           (out_code == 5'd13 && out_value < 24'(n_q))))) && !p_accept));
      // Every array has exactly one END or ERROR, and no event after it: a token after END or
      // an error (up to `last`) gives none, and the token marked `last` of an array without one
      // gives it (at once, or after its own event through the pending slot).
      one_end_per_array: assert (!(entered && !pend_q && term_q) &&
          !(p_accept && p_last && !term_mid && !pend_q && !(entered && !term)));
      // END reports the array's token count; an ERROR the index of the token that broke the
      // rule (rule 14 at `last`: the length, rule 13: an earlier header's index).
      event_index: assert (!(entered && !pend_q) ||
          (out_kind == K_END   ? out_value == 24'(idx_q) + 24'd1 :
           out_kind == K_ERROR ? (out_code == 5'd14 ? (out_value == 24'(idx_q) || (p_last && out_value == 24'(idx_q) + 24'd1)) :
                                  out_code == 5'd13 ? (p_last && out_value <= 24'(idx_q)) :
                                  out_value == 24'(idx_q)) :
           1'b1));
      // Byte offsets restart at 0 at every STREAM and grow by the type size (ELEMENT) or 4 x
      // count (SKIP); an ELEMENT/SKIP is on the current stream (stream 0 before any STREAM).
      stream_offsets: assert (!(entered && (out_kind == K_ELEMENT || out_kind == K_SKIP)) ||
          (out_stream == cur_q && out_value == off_q));
    end
  end
endmodule
