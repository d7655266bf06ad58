// vertex_fetch_props: the vertex fetch's pin contract (docs/vertex-fetch-rtl.md, "Ports", "Memory
// protocol", "Cycle behaviour") as properties for `vpsim formal --unit vertex_fetch` (docs/formal.md).
//
// A wrapper read by yosys with -formal around the design under test (`DUT`, default vertex_fetch),
// on its pins only. Inputs are free except what the contract asks of the environment (assumed):
// a reset in the first cycle, lay_count <= MAX_ELEMS, and memory responses only for words requested
// at an earlier edge and not yet answered (responses in request order, any latency >= 1, any gaps).
// One vertex is tracked: its sequence number `track` is chosen by the solver (anyconst), its index
// and expected loaded mask are recorded at its handshake and checked when it leaves.
`ifndef DUT
`define DUT vertex_fetch
`endif

module vertex_fetch_props #(
    parameter int MAX_ELEMS  = 2,
    parameter int ELEM_DEPTH = 4,
    parameter int RESP_DEPTH = 4
) (
    input logic                    clk,
    input logic                    rst,
    input logic                    idx_valid,
    input logic [31:0]             idx_index,
    input logic                    idx_flush,
    input logic [5:0]              lay_count,
    input logic [MAX_ELEMS*32-1:0] lay_elems,
    input logic [511:0]            str_base,
    input logic [511:0]            str_stride,
    input logic                    mem_req_ready,
    input logic                    mem_resp_valid,
    input logic [127:0]            mem_resp_data,
    input logic                    out_ready
);
  logic          idx_ready, mem_req_valid, out_valid;
  logic [31:0]   mem_req_addr, out_index;
  logic [1:0]    mem_req_words;
  logic [15:0]   out_loaded;
  logic [2047:0] out_regs;

  `DUT #(.MAX_ELEMS(MAX_ELEMS), .ELEM_DEPTH(ELEM_DEPTH), .RESP_DEPTH(RESP_DEPTH)) dut (
      .clk(clk), .rst(rst), .idx_valid(idx_valid), .idx_ready(idx_ready), .idx_index(idx_index),
      .idx_flush(idx_flush), .lay_count(lay_count), .lay_elems(lay_elems), .str_base(str_base),
      .str_stride(str_stride), .mem_req_valid(mem_req_valid), .mem_req_ready(mem_req_ready),
      .mem_req_addr(mem_req_addr), .mem_req_words(mem_req_words), .mem_resp_valid(mem_resp_valid),
      .mem_resp_data(mem_resp_data), .out_valid(out_valid), .out_ready(out_ready),
      .out_index(out_index), .out_loaded(out_loaded), .out_regs(out_regs));

  (* anyconst *) logic [3:0] track;   // the tracked vertex: the track-th accepted after reset

  logic take, req_fire, out_fire;
  assign take     = idx_valid && idx_ready;
  assign req_fire = mem_req_valid && mem_req_ready;
  assign out_fire = out_valid && out_ready;

  // The registers an element of the layout loads (16..31 are fetched and dropped).
  logic [15:0] lay_mask;
  always_comb begin
    lay_mask = 16'd0;
    for (int k = 0; k < MAX_ELEMS; k++)
      if (6'(k) < lay_count && !lay_elems[32*k + 7]) lay_mask = lay_mask | (16'd1 << lay_elems[32*k + 3 +: 4]);
  end

  logic         started_q, p_ok;
  logic [7:0]   owed_q;               // words requested, not yet answered
  logic [4:0]   in_q, outn_q;         // vertices accepted / out since the reset
  logic         rec_q;                // the tracked vertex was accepted
  logic [31:0]  rec_index_q;
  logic [15:0]  rec_mask_q;
  logic         p_hold;               // out_valid && !out_ready in the previous cycle
  logic [31:0]  p_index;
  logic [15:0]  p_loaded;
  logic [2047:0] p_regs;
  initial begin
    started_q = 1'b0;
    p_ok      = 1'b0;
  end

  always_comb if ($initstate) assume (rst);
  // The memory answers only words it was asked for at an earlier edge.
  always_comb if (!rst && started_q) assume (!mem_resp_valid || owed_q != 8'd0);
  always_comb if (idx_valid) assume (lay_count <= 6'(MAX_ELEMS));

  always_ff @(posedge clk) begin
    started_q <= started_q || rst;
    p_ok      <= (started_q || rst) && !rst;
    p_hold    <= out_valid && !out_ready;
    p_index   <= out_index;
    p_loaded  <= out_loaded;
    p_regs    <= out_regs;
    if (rst) begin
      owed_q <= 8'd0;
      in_q   <= 5'd0;
      outn_q <= 5'd0;
      rec_q  <= 1'b0;
    end else begin
      owed_q <= owed_q + (req_fire ? 8'(mem_req_words) : 8'd0) - (mem_resp_valid ? 8'd1 : 8'd0);
      if (take && in_q != 5'd31) in_q <= in_q + 5'd1;
      if (out_fire && outn_q != 5'd31) outn_q <= outn_q + 5'd1;
      if (take && in_q == {1'b0, track}) begin
        rec_q       <= 1'b1;
        rec_index_q <= idx_index;
        rec_mask_q  <= lay_mask;
      end
    end
  end

  logic chk;
  assign chk = started_q && !rst;
  logic unloaded_ok;
  always_comb begin
    unloaded_ok = 1'b1;
    for (int r = 0; r < 16; r++)
      if (!out_loaded[r] && out_regs[128*r +: 128] != 128'd0) unloaded_ok = 1'b0;
  end
  always_comb begin
    if (chk) begin
      // A request reads 1 or 2 whole 16-byte words.
      request_form: assert (!mem_req_valid || ((mem_req_words == 2'd1 || mem_req_words == 2'd2) &&
                                               mem_req_addr[3:0] == 4'd0));
      // Never more words requested and not answered than the response FIFO holds (a response
      // always has a slot): the credit bound.
      credit_bound: assert (owed_q + (req_fire ? 8'(mem_req_words) : 8'd0) <= 8'(RESP_DEPTH));
      // No vertex out that was not accepted (none twice).
      no_vertex_from_nothing: assert (!out_fire || outn_q < in_q);
      // The tracked vertex leaves in its turn, with its index and the registers its layout loads.
      vertex_in_order: assert (!(out_fire && outn_q == {1'b0, track}) ||
                               (rec_q && out_index == rec_index_q && out_loaded == rec_mask_q));
      // Registers no element loaded are 0.
      unloaded_zero: assert (!out_valid || unloaded_ok);
    end
    if (chk && p_ok) begin
      // A vertex held by back-pressure stays, unchanged, until it is taken.
      held_vertex_stable: assert (!p_hold || (out_valid && out_index == p_index &&
                                              out_loaded == p_loaded && out_regs == p_regs));
    end
  end
endmodule
