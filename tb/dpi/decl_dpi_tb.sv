// A SystemVerilog testbench of the declaration decoder that takes its expectations from vpsim's
// golden model through the DPI-C package only (model/capi/vpsim_golden_pkg.sv, class
// decl_scoreboard): every delivered event against the golden stepper, every cycle's pins against
// the cycle contract. Stimulus: the arrays of `vpsim xcheck --dump-arrays DIR` (+arrays=DIR/arrays.txt),
// with random back-pressure (+seed=N, +out_ready=PERCENT, +in_valid=PERCENT). +bug selects the
// planted-bug decoder (decl_decoder_bug.sv: tests/rtl_variants/decl_decoder_bug.patch on rtl/decl_decoder.sv,
// made by the build) instead of rtl/decl_decoder.sv.
// Exit status 0 when everything matched, else 1 ($fatal). Built by ctest "dpi: ..." (docs/dpi.md).
module decl_dpi_tb;
  import vpsim_golden_pkg::*;

  logic         clk = 1'b0, rst = 1'b1;
  logic         in_valid = 1'b0, in_last = 1'b0, lenient = 1'b0, out_ready = 1'b0;
  logic [31:0]  in_token = 32'd0;
  logic         in_ready_a, out_valid_a, in_ready_b, out_valid_b;
  logic [2:0]   kind_a, kind_b;
  logic [4:0]   stream_a, stream_b, code_a, code_b;
  logic [23:0]  value_a, value_b;
  logic [7:0]   reg_a, reg_b;
  logic [127:0] data_a, data_b;
  bit           use_bug;

  decl_decoder good (.clk, .rst, .in_valid, .in_ready(in_ready_a), .in_token, .in_last, .lenient, .out_valid(out_valid_a),
                     .out_ready, .out_kind(kind_a), .out_stream(stream_a), .out_value(value_a), .out_code(code_a),
                     .out_reg(reg_a), .out_data(data_a));
  decl_decoder_bug bad (.clk, .rst, .in_valid, .in_ready(in_ready_b), .in_token, .in_last, .lenient,
                        .out_valid(out_valid_b), .out_ready, .out_kind(kind_b), .out_stream(stream_b),
                        .out_value(value_b), .out_code(code_b), .out_reg(reg_b), .out_data(data_b));

  wire         in_ready  = use_bug ? in_ready_b : in_ready_a;
  wire         out_valid = use_bug ? out_valid_b : out_valid_a;
  decl_event_t ev;
  assign ev = use_bug ? '{kind_b, stream_b, value_b, code_b, reg_b, data_b} : '{kind_a, stream_a, value_a, code_a, reg_a, data_a};

  always #5 clk = ~clk;

  initial begin
    string file, origin;
    int fd, n, lenient_i, nev, cycles, seed, p_out, p_in, arrays, pos, limit, guard;
    bit [63:0] bp;
    logic [31:0] tokens[$];
    logic [31:0] t;
    bit final_seen, fire, take;
    decl_scoreboard sb;
    use_bug = $test$plusargs("bug");
    if (!$value$plusargs("arrays=%s", file)) $fatal(1, "decl_dpi_tb: +arrays=FILE (vpsim xcheck --dump-arrays DIR) is missing");
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("out_ready=%d", p_out)) p_out = 70;
    if (!$value$plusargs("in_valid=%d", p_in)) p_in = 90;
    void'($urandom(seed));
    fd = $fopen(file, "r");
    if (fd == 0) $fatal(1, "decl_dpi_tb: cannot open %s", file);
    sb = new(96, 4096);
    repeat (2) @(posedge clk);
    @(negedge clk) rst = 1'b0;
    arrays = 0;
    while ($fscanf(fd, "A %d %d %d %d %h %s\n", n, lenient_i, nev, cycles, bp, origin) == 6) begin
      tokens.delete();
      for (int i = 0; i < n; i++) begin
        if ($fscanf(fd, "T %h\n", t) != 1) $fatal(1, "decl_dpi_tb: %s: array %0d: a T line is missing", file, arrays);
        tokens.push_back(t);
      end
      for (int i = 0; i < nev; i++) begin  // the dump's expected events: this bench asks the package instead
        string line;
        void'($fgets(line, fd));
      end
      pos = 0;
      final_seen = 1'b0;
      limit = 64 + 40 * n + n * n / 4;
      guard = 0;
      while (!(pos == n && final_seen)) begin
        // Inputs for this cycle (set after the falling edge), pins sampled just before the rising edge.
        in_valid = pos < n && ($urandom % 100) < p_in;
        out_ready = ($urandom % 100) < p_out;
        in_token = in_valid ? tokens[pos] : 32'd0;
        in_last = in_valid && pos + 1 == n;
        lenient = lenient_i != 0;
        #4;
        sb.sample(in_valid, in_ready, in_token, in_last, lenient, out_valid, out_ready, ev);
        fire = in_valid && in_ready;
        take = out_valid && out_ready;
        if (take && (ev.kind == 3'd6 || ev.kind == 3'd7)) final_seen = 1'b1;
        if (fire) pos++;
        @(negedge clk);
        if (++guard > limit) begin
          $display("decl_dpi_tb: array %0d (%s) did not finish in %0d cycles", arrays, origin, limit);
          sb.errors++;
          break;
        end
      end
      arrays++;
    end
    $fclose(fd);
    if (use_bug) $display("decl_dpi_tb: %0d arrays from %s on decl_decoder_bug (planted bug)", arrays, file);
    else $display("decl_dpi_tb: %0d arrays from %s on decl_decoder", arrays, file);
    sb.report();
    if (arrays == 0) $fatal(1, "decl_dpi_tb: no arrays in %s", file);
    if (!sb.passed()) $fatal(1, "decl_dpi_tb: FAILED");
    $display("decl_dpi_tb: PASSED");
    $finish;
  end
endmodule
