// A SystemVerilog testbench of the vertex fetch unit (rtl/vertex_fetch.sv) that takes its
// expectations from vpsim's golden model through the DPI-C package only (model/capi/vpsim_golden_pkg.sv,
// class fetch_model): random valid declarations (one to three streams, the eight types, SKIPs,
// strides not a multiple of 4) drawn here, their layout bus from the package, random vertex indices,
// random memory (with bytes 0xFF, NaN and -32768 patterns) served with random latency and
// back-pressure; every vertex's out_index, out_loaded and out_regs compared with the package's.
// +draws=N (300), +seed=N (1), +bug: the planted-bug unit vertex_fetch_bug (tests/rtl_variants/
// vertex_fetch_bug.patch, module renamed by the ctest) instead of rtl/vertex_fetch.sv.
// Exit status 0 when everything matched, else 1 ($fatal). Built by ctest "dpi: ..." (docs/dpi.md).
module vf_dpi_tb;
  import vpsim_golden_pkg::*;

  localparam int MAX_ELEMS = 20;
  localparam int MEM_WORDS = 256;  // 4 KiB: every address the draws make is below 4096

  logic                    clk = 1'b0, rst = 1'b1;
  logic                    idx_valid = 1'b0, idx_flush = 1'b0, mem_req_ready = 1'b0, mem_resp_valid = 1'b0;
  logic                    out_ready = 1'b0;
  logic [31:0]             idx_index = '0;
  logic [5:0]              lay_count = '0;
  logic [MAX_ELEMS*32-1:0] lay_elems = '0;
  logic [511:0]            str_base = '0, str_stride = '0;
  logic [127:0]            mem_resp_data = '0;
  bit                      use_bug;

  // The two units' outputs; the one not under test is held in reset.
  logic          idx_ready_a, idx_ready_b, mem_req_valid_a, mem_req_valid_b, out_valid_a, out_valid_b;
  logic [31:0]   mem_req_addr_a, mem_req_addr_b, out_index_a, out_index_b;
  logic [1:0]    mem_req_words_a, mem_req_words_b;
  logic [15:0]   out_loaded_a, out_loaded_b;
  logic [2047:0] out_regs_a, out_regs_b;

  vertex_fetch #(.MAX_ELEMS(MAX_ELEMS)) good (
      .clk, .rst(rst || use_bug), .idx_valid, .idx_ready(idx_ready_a), .idx_index, .idx_flush, .lay_count, .lay_elems,
      .str_base, .str_stride, .mem_req_valid(mem_req_valid_a), .mem_req_ready, .mem_req_addr(mem_req_addr_a),
      .mem_req_words(mem_req_words_a), .mem_resp_valid, .mem_resp_data, .out_valid(out_valid_a), .out_ready,
      .out_index(out_index_a), .out_loaded(out_loaded_a), .out_regs(out_regs_a));
  vertex_fetch_bug #(.MAX_ELEMS(MAX_ELEMS)) bad (
      .clk, .rst(rst || !use_bug), .idx_valid, .idx_ready(idx_ready_b), .idx_index, .idx_flush, .lay_count, .lay_elems,
      .str_base, .str_stride, .mem_req_valid(mem_req_valid_b), .mem_req_ready, .mem_req_addr(mem_req_addr_b),
      .mem_req_words(mem_req_words_b), .mem_resp_valid, .mem_resp_data, .out_valid(out_valid_b), .out_ready,
      .out_index(out_index_b), .out_loaded(out_loaded_b), .out_regs(out_regs_b));

  wire          idx_ready     = use_bug ? idx_ready_b : idx_ready_a;
  wire          mem_req_valid = use_bug ? mem_req_valid_b : mem_req_valid_a;
  wire [31:0]   mem_req_addr  = use_bug ? mem_req_addr_b : mem_req_addr_a;
  wire [1:0]    mem_req_words = use_bug ? mem_req_words_b : mem_req_words_a;
  wire          out_valid     = use_bug ? out_valid_b : out_valid_a;
  wire [31:0]   out_index     = use_bug ? out_index_b : out_index_a;
  wire [15:0]   out_loaded    = use_bug ? out_loaded_b : out_loaded_a;
  wire [2047:0] out_regs      = use_bug ? out_regs_b : out_regs_a;

  always #5 clk = ~clk;

  logic [127:0] mem[MEM_WORDS];
  typedef struct packed {
    logic [31:0]   index;
    logic [15:0]   loaded;
    logic [2047:0] regs;
  } vertex_t;

  function automatic int type_size(int t);
    case (t)
      1, 7: return 8;
      2: return 12;
      3: return 16;
      default: return 4;
    endcase
  endfunction

  // A random valid declaration and its streams' base and stride (every address below 4096).
  function automatic void draw_decl(output logic [31:0] tokens[$], output logic [31:0] base[16],
                                    output logic [31:0] stride[16]);
    bit [15:0] streams_used = '0, regs_used = '0;
    int nstreams = 1 + $urandom % 3;
    tokens.delete();
    for (int s = 0; s < 16; s++) begin
      base[s] = '0;
      stride[s] = '0;
    end
    for (int i = 0; i < nstreams; i++) begin
      int s, size = 0, n = 1 + $urandom % 4;
      do s = $urandom % 16; while (streams_used[s]);
      streams_used[s] = 1'b1;
      tokens.push_back(32'h2000_0000 | 32'(s));
      for (int k = 0; k < n; k++) begin
        int r, t;
        if (k > 0 && $urandom % 6 == 0) begin  // D3DVSD_SKIP(1..3)
          int c = 1 + $urandom % 3;
          tokens.push_back(32'h5000_0000 | 32'(c) << 16);
          size += 4 * c;
        end
        do r = $urandom % 16; while (regs_used[r]);
        regs_used[r] = 1'b1;
        t = $urandom % 8;
        tokens.push_back(32'h4000_0000 | 32'(t) << 16 | 32'(r));
        size += type_size(t);
      end
      stride[s] = 32'(size + ($urandom % 3 == 0 ? $urandom % 9 : 0));  // padding, not always a multiple of 4
      base[s] = 32'($urandom % 512);
    end
    tokens.push_back(32'hFFFF_FFFF);
  endfunction

  initial begin
    fetch_model gold;
    shader_model sh;
    logic [127:0] opos;
    logic [31:0] code[$];
    logic [31:0] add_code[6] = '{32'hFFFE_0101, 32'h0000_0002, 32'hC00F_0000, 32'h90E4_0000, 32'hA0E4_0001, 32'h0000_FFFF};
    vertex_t expected[$], e;
    logic [31:0] tokens[$], base[16], stride[16], bad_decl[$];
    logic [31:0] pend_addr[$];
    longint unsigned pend_ready[$], cycle, last_ready;
    logic [63*32-1:0] elems;
    logic [5:0] count;
    int draws, seed, draw, nvert, sent, matched, errors, vertices, guard, lat;
    bit fire;
    string unit;
    use_bug = $test$plusargs("bug");
    if (!$value$plusargs("draws=%d", draws)) draws = 300;
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    unit = use_bug ? "vertex_fetch_bug (planted bug)" : "vertex_fetch";
    $display("vf_dpi_tb: seed %0d (+seed=%0d replays it), %0d draws on %s", seed, seed, draws, unit);
    void'($urandom(seed));
    gold = new(MAX_ELEMS);

    // A malformed declaration is refused with the decoder's message.
    bad_decl = '{32'h2000_0000, 32'hDEAD_BEEF, 32'hFFFF_FFFF};
    if (gold.decl(bad_decl) != -1 || gold.error == "") $fatal(1, "vf_dpi_tb: a malformed declaration was not refused");
    $display("vf_dpi_tb: malformed declaration refused: %s", gold.error);

    // The vertex shader comes next in the pipeline: the package's shader_model on one vertex
    // (add oPos, v0, c1: (1, 2, 3, 4) + (10, 20, 30, 40)), and bytecode it refuses.
    sh = new();
    for (int i = 0; i < 6; i++) code.push_back(add_code[i]);
    if (sh.load(code) != 0)
      $fatal(1, "vf_dpi_tb: shader_model refused add oPos, v0, c1: %s", sh.error);
    sh.input_reg(0, {32'h4080_0000, 32'h4040_0000, 32'h4000_0000, 32'h3F80_0000});
    sh.constant(1, {32'h4220_0000, 32'h41F0_0000, 32'h41A0_0000, 32'h4120_0000});
    if (sh.run() != 0) $fatal(1, "vf_dpi_tb: shader_model.run: %s", sh.error);
    sh.out(0, opos);
    if (opos != {32'h4230_0000, 32'h4204_0000, 32'h41B0_0000, 32'h4130_0000})
      $fatal(1, "vf_dpi_tb: shader_model: oPos %h, expected (11, 22, 33, 44)", opos);
    code.delete();
    code.push_back(32'hFFFE_0101);
    code.push_back(32'hDEAD_BEEF);
    if (sh.load(code) != -1 || sh.error == "")
      $fatal(1, "vf_dpi_tb: shader_model accepted malformed bytecode");
    $display("vf_dpi_tb: shader_model: oPos = (11, 22, 33, 44); malformed bytecode refused: %s", sh.error);
    sh.free();

    // Memory: random DWORDs, one in eight a pattern (0xFFFFFFFF: color and ubyte 255; NaN; -32768 shorts).
    for (int w = 0; w < MEM_WORDS; w++)
      for (int d = 0; d < 4; d++) begin
        logic [31:0] v = $urandom;
        case ($urandom % 16)
          0: v = 32'hFFFF_FFFF;
          1: v = 32'h7FC0_0001;
          2: v = 32'h8000_8000;
          default: ;
        endcase
        mem[w][32*d +: 32] = v;
        gold.mem_write(32'(16 * w + 4 * d), v);
      end

    repeat (2) @(posedge clk);
    @(negedge clk) rst = 1'b0;
    cycle = 0;
    last_ready = 0;
    matched = 0;
    errors = 0;
    vertices = 0;
    draw = 0;
    nvert = 0;
    sent = 0;
    guard = 0;
    while (draw < draws || expected.size() != 0) begin
      // A new draw once the last one's vertices are all accepted: declaration, layout, streams.
      if (sent == nvert && draw < draws) begin
        draw_decl(tokens, base, stride);
        if (gold.decl(tokens) != 0) $fatal(1, "vf_dpi_tb: draw %0d: the package refused the declaration: %s", draw, gold.error);
        gold.layout(count, elems);
        lay_count = count;
        lay_elems = elems[MAX_ELEMS*32-1:0];
        for (int s = 0; s < 16; s++) begin
          gold.stream(s, base[s], stride[s]);
          str_base[32*s +: 32] = base[s];
          str_stride[32*s +: 32] = stride[s];
        end
        nvert = 1 + $urandom % 6;
        sent = 0;
        draw++;
      end
      // This cycle's inputs (after the falling edge).
      idx_valid = sent < nvert && $urandom % 100 < 80;
      idx_index = idx_valid ? 32'($urandom % 32) : '0;
      mem_req_ready = $urandom % 100 < 70;
      out_ready = $urandom % 100 < 70;
      mem_resp_valid = pend_addr.size() != 0 && pend_ready[0] <= cycle;
      mem_resp_data = mem_resp_valid ? mem[pend_addr[0][11:4]] : '0;
      #4;  // the pins just before the rising edge
      if (mem_resp_valid) begin
        void'(pend_addr.pop_front());
        void'(pend_ready.pop_front());
      end
      if (mem_req_valid && mem_req_ready) begin
        if (mem_req_addr >= 32'(16 * MEM_WORDS)) $fatal(1, "vf_dpi_tb: a request at 0x%h, past the memory", mem_req_addr);
        for (int k = 0; k < int'(mem_req_words); k++) begin
          lat = 1 + ($urandom % 4 == 0 ? $urandom % 12 : 0);
          last_ready = (cycle + lat > last_ready) ? cycle + lat : last_ready;
          pend_addr.push_back(mem_req_addr + 32'(16 * k));
          pend_ready.push_back(last_ready);
        end
      end
      fire = idx_valid && idx_ready;
      if (fire) begin
        e.index = idx_index;
        if (gold.vertex(idx_index, e.loaded, e.regs) != 0) $fatal(1, "vf_dpi_tb: the package: %s", gold.error);
        expected.push_back(e);
        sent++;
      end
      if (out_valid && out_ready) begin
        vertices++;
        if (expected.size() == 0) begin
          errors++;
          $display("vf_dpi_tb: vertex %0d (index %0d) out, none expected", vertices - 1, out_index);
        end else begin
          e = expected.pop_front();
          if (e.index != out_index || e.loaded != out_loaded || e.regs != out_regs) begin
            errors++;
            if (errors <= 10)
              for (int r = 0; r < 16; r++)
                if (e.regs[128*r +: 128] != out_regs[128*r +: 128] || r == 0)
                  $display("vf_dpi_tb: vertex %0d (index model %0d | rtl %0d, loaded model %h | rtl %h) v%0d: model %h | rtl %h",
                           vertices - 1, e.index, out_index, e.loaded, out_loaded, r, e.regs[128*r +: 128],
                           out_regs[128*r +: 128]);
          end else begin
            matched++;
          end
        end
      end
      @(negedge clk);
      cycle++;
      if (++guard > 200 * draws + 1000) begin
        $display("vf_dpi_tb: no progress after %0d cycles (%0d vertices still expected)", guard, expected.size());
        errors++;
        break;
      end
    end
    $display("vf_dpi_tb: %0d draws, %0d vertices matched, %0d errors, %0d cycles", draws, matched, errors, cycle);
    gold.free();
    if (errors != 0) $fatal(1, "vf_dpi_tb: FAILED");
    $display("vf_dpi_tb: PASSED");
    $finish;
  end
endmodule
