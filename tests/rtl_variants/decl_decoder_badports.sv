// decl_decoder_badports: a module whose ports break the decoder's port contract
// (docs/decl-decoder.md), for the test that `vpsim xcheck --rtl` refuses it before any
// simulation and lists the expected and found ports: out_value is 16 bits wide instead of 24,
// out_data is missing, out_ready is an output, and there is an extra port `busy`.
// (It is not a decoder: it only registers a little of its input, lint-clean.)
module decl_decoder_badports (
    input  logic        clk,
    input  logic        rst,
    input  logic        in_valid,
    output logic        in_ready,
    input  logic [31:0] in_token,
    input  logic        in_last,
    input  logic        lenient,
    output logic        out_valid,
    output logic        out_ready,
    output logic [2:0]  out_kind,
    output logic [4:0]  out_stream,
    output logic [15:0] out_value,
    output logic [4:0]  out_code,
    output logic [7:0]  out_reg,
    output logic        busy
);
  logic [31:0] tok_q;
  logic        v_q;
  always_ff @(posedge clk) begin
    if (rst) begin
      tok_q <= 32'd0;
      v_q   <= 1'b0;
    end else begin
      tok_q <= in_token ^ {30'd0, in_last, lenient};
      v_q   <= in_valid;
    end
  end
  assign in_ready   = 1'b1;
  assign out_valid  = v_q;
  assign out_ready  = 1'b0;
  assign out_kind   = tok_q[31:29];
  assign out_stream = tok_q[28:24];
  assign out_value  = tok_q[23:8];
  assign out_code   = tok_q[4:0];
  assign out_reg    = {tok_q[7:5], tok_q[4:0]};
  assign busy       = v_q;
endmodule
