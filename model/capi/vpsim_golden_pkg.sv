// vpsim_golden_pkg: the golden declaration decoder over DPI-C, from libvpsim_golden_c.so
// (model/capi/vpsim_golden_dpi.cpp; docs/dpi.md). Load the library with your simulator's option
// (-sv_lib libvpsim_golden_c for VCS / Xcelium / Questa, or the .so on Verilator's command line).
//
//   decl_event_t      one event record (docs/decl-decoder.md, "Events"), as the decoder's ports
//   decl_predictor    the golden events of the tokens a DUT accepts (the stepper)
//   decl_timing       the cycle contract: what a cycle-accurate DUT's pins do each cycle
//   decl_scoreboard   compares the events a DUT delivers with the predictor's, counts and reports
/* verilator lint_off DECLFILENAME */  // one package, several classes
package vpsim_golden_pkg;

  import "DPI-C" function int vpsim_dpi_abi();
  import "DPI-C" function chandle vpsim_dpi_decl_new(input int const_count, input int max_length);
  import "DPI-C" function void vpsim_dpi_decl_free(input chandle h);
  import "DPI-C" function void vpsim_dpi_decl_reset(input chandle h);
  import "DPI-C" function int vpsim_dpi_decl_step(input chandle h, input int token, input int last, input int lenient);
  import "DPI-C" function int vpsim_dpi_decl_event(input chandle h, input int i, output int kind, output int stream,
                                                   output int value, output int code, output int rg, output int d0,
                                                   output int d1, output int d2, output int d3);
  import "DPI-C" function chandle vpsim_dpi_timing_new(input int const_count, input int max_length);
  import "DPI-C" function void vpsim_dpi_timing_free(input chandle h);
  import "DPI-C" function void vpsim_dpi_timing_reset(input chandle h);
  import "DPI-C" function int vpsim_dpi_timing_in_ready(input chandle h, input int out_ready);
  import "DPI-C" function int vpsim_dpi_timing_out(input chandle h, output int kind, output int stream, output int value,
                                                   output int code, output int rg, output int d0, output int d1,
                                                   output int d2, output int d3);
  import "DPI-C" function int vpsim_dpi_timing_tick(input chandle h, input int in_valid, input int token, input int last,
                                                    input int lenient, input int out_ready);

  localparam int ABI = 1;

  typedef struct packed {
    logic [2:0]   kind;
    logic [4:0]   stream;
    logic [23:0]  value;
    logic [4:0]   code;
    logic [7:0]   rg;
    logic [127:0] data;  // x in [31:0], y in [63:32], z in [95:64], w in [127:96]
  } decl_event_t;

  function automatic string event_text(decl_event_t e);
    string k[8] = '{"STREAM", "ELEMENT", "SKIP", "TESS", "CONST", "EXT", "END", "ERROR"};
    return $sformatf("%s stream=%0d value=%0d code=%0d reg=%0d data=%h", k[e.kind], e.stream, e.value, e.code, e.rg,
                     e.data);
  endfunction

  /* verilator lint_off UNUSEDSIGNAL */  // the DPI's ints are wider than the fields
  function automatic decl_event_t make_event(int kind, int stream, int value, int code, int rg, int d0, int d1, int d2,
                                             int d3);
    decl_event_t e;
    e.kind = 3'(kind);
    e.stream = 5'(stream);
    e.value = 24'(value);
    e.code = 5'(code);
    e.rg = 8'(rg);
    e.data = {d3, d2, d1, d0};
    return e;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // The golden events of an accepted token stream, in order.
  class decl_predictor;
    chandle h;
    decl_event_t expected[$];
    function new(int const_count = 96, int max_length = 4096);
      if (vpsim_dpi_abi() != ABI) $fatal(1, "vpsim_golden_pkg: libvpsim_golden_c ABI %0d, the package's %0d", vpsim_dpi_abi(), ABI);
      h = vpsim_dpi_decl_new(const_count, max_length);
      if (h == null) $fatal(1, "vpsim_golden_pkg: bad CONST_COUNT %0d or MAX_LENGTH %0d", const_count, max_length);
    endfunction
    // A token the DUT accepted (in_valid && in_ready at a rising edge).
    function void token(logic [31:0] t, logic last, logic lenient);
      int n, kind, stream, value, code, rg, d0, d1, d2, d3;
      n = vpsim_dpi_decl_step(h, int'(t), int'(last), int'(lenient));
      for (int i = 0; i < n; i++) begin
        void'(vpsim_dpi_decl_event(h, i, kind, stream, value, code, rg, d0, d1, d2, d3));
        expected.push_back(make_event(kind, stream, value, code, rg, d0, d1, d2, d3));
      end
    endfunction
    function void reset();
      vpsim_dpi_decl_reset(h);
      expected.delete();
    endfunction
    function void free();
      vpsim_dpi_decl_free(h);
      h = null;
    endfunction
  endclass

  // The cycle contract: call outputs() for the cycle's combinational outputs, then tick() at the edge.
  class decl_timing;
    chandle h;
    function new(int const_count = 96, int max_length = 4096);
      h = vpsim_dpi_timing_new(const_count, max_length);
      if (h == null) $fatal(1, "vpsim_golden_pkg: bad CONST_COUNT %0d or MAX_LENGTH %0d", const_count, max_length);
    endfunction
    function bit in_ready(bit out_ready);
      return vpsim_dpi_timing_in_ready(h, int'(out_ready)) != 0;
    endfunction
    function bit out(output decl_event_t e);
      int kind, stream, value, code, rg, d0, d1, d2, d3, valid;
      valid = vpsim_dpi_timing_out(h, kind, stream, value, code, rg, d0, d1, d2, d3);
      e = make_event(kind, stream, value, code, rg, d0, d1, d2, d3);
      return valid != 0;
    endfunction
    function void tick(bit in_valid, logic [31:0] t, bit last, bit lenient, bit out_ready);
      void'(vpsim_dpi_timing_tick(h, int'(in_valid), int'(t), int'(last), int'(lenient), int'(out_ready)));
    endfunction
    function void reset();
      vpsim_dpi_timing_reset(h);
    endfunction
  endclass

  // Event for event: the DUT's delivered events against the predictor's; cycle for cycle: its
  // pins against the contract (when check_cycles).
  class decl_scoreboard;
    decl_predictor pred;
    decl_timing timing;
    bit check_cycles;
    int unsigned matched, errors, cycle_errors, cycles;
    int unsigned max_reports = 10;
    function new(int const_count = 96, int max_length = 4096, bit cycles_too = 1'b1);
      pred = new(const_count, max_length);
      timing = new(const_count, max_length);
      check_cycles = cycles_too;
    endfunction
    // Once per rising edge, with the pins as they are before the edge.
    function void sample(bit in_valid, bit in_ready, logic [31:0] token, bit last, bit lenient, bit out_valid, bit out_ready,
                         decl_event_t ev);
      decl_event_t exp, texp;
      bit tvalid;
      texp = '0;
      cycles++;
      if (check_cycles) begin
        tvalid = timing.out(texp);
        if (timing.in_ready(out_ready) != in_ready || tvalid != out_valid || (out_valid && texp != ev)) begin
          cycle_errors++;
          if (errors + cycle_errors <= max_reports)
            $display("vpsim_golden_pkg: cycle %0d: in_ready model %0d | rtl %0d; out_valid model %0d | rtl %0d%s", cycles - 1,
                     timing.in_ready(out_ready), in_ready, tvalid, out_valid,
                     out_valid && tvalid ? $sformatf("; event model %s | rtl %s", event_text(texp), event_text(ev)) : "");
        end
        timing.tick(in_valid, token, last, lenient, out_ready);
      end
      if (in_valid && in_ready) pred.token(token, last, lenient);
      if (out_valid && out_ready) begin
        if (pred.expected.size() == 0) begin
          errors++;
          if (errors + cycle_errors <= max_reports) $display("vpsim_golden_pkg: event %s | model has none", event_text(ev));
        end else begin
          exp = pred.expected.pop_front();
          if (exp != ev) begin
            errors++;
            if (errors + cycle_errors <= max_reports)
              $display("vpsim_golden_pkg: event model %s | rtl %s", event_text(exp), event_text(ev));
          end else begin
            matched++;
          end
        end
      end
    endfunction
    function bit passed();
      return errors == 0 && cycle_errors == 0 && pred.expected.size() == 0;
    endfunction
    function void report();
      $display("vpsim_golden_pkg: %0d events matched, %0d event errors, %0d cycle errors, %0d events still expected, %0d cycles",
               matched, errors, cycle_errors, pred.expected.size(), cycles);
    endfunction
  endclass

endpackage
