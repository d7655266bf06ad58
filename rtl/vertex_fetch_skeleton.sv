// A port skeleton for your own vertex fetch unit: the ports of the contract in
// docs/vertex-fetch-rtl.md, every output tied off. Fill in the body, then check it with
//   vpsim xcheck --unit vertex_fetch --rtl my_vertex_fetch.sv
// (the ports are checked before anything is compiled; this skeleton as it is fails the
// cross-check: it never takes a vertex index).
module vertex_fetch_skeleton (
    input  logic          clk,
    input  logic          rst,             // synchronous, active high

    input  logic          idx_valid,
    output logic          idx_ready,
    input  logic [31:0]   idx_index,
    input  logic          idx_flush,
    input  logic [5:0]    lay_count,
    input  logic [639:0]  lay_elems,       // 20 x {offset[31:12], stream[11:8], register[7:3], type[2:0]}
    input  logic [511:0]  str_base,
    input  logic [511:0]  str_stride,

    output logic          mem_req_valid,
    input  logic          mem_req_ready,
    output logic [31:0]   mem_req_addr,
    output logic [1:0]    mem_req_words,
    input  logic          mem_resp_valid,
    input  logic [127:0]  mem_resp_data,

    output logic          out_valid,
    input  logic          out_ready,
    output logic [31:0]   out_index,
    output logic [15:0]   out_loaded,
    output logic [2047:0] out_regs
);
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{clk, rst, idx_valid, idx_index, idx_flush, lay_count, lay_elems, str_base, str_stride,
                    mem_req_ready, mem_resp_valid, mem_resp_data, out_ready};
  /* verilator lint_on UNUSEDSIGNAL */

  assign idx_ready     = 1'b0;
  assign mem_req_valid = 1'b0;
  assign mem_req_addr  = 32'd0;
  assign mem_req_words = 2'd0;
  assign out_valid     = 1'b0;
  assign out_index     = 32'd0;
  assign out_loaded    = 16'd0;
  assign out_regs      = 2048'd0;
endmodule
