// vpsim_golden_pkg: the golden model over DPI-C (declaration decoder, vertex fetch unit, vs.1.1), from libvpsim_golden_c.so
// (model/capi/vpsim_golden_dpi.cpp; docs/dpi.md). Load the library with your simulator's option
// (-sv_lib libvpsim_golden_c for VCS / Xcelium / Questa, or the .so on Verilator's command line).
//
//   decl_event_t      one event record (docs/decl-decoder.md, "Events"), as the decoder's ports
//   decl_predictor    the golden events of the tokens a DUT accepts (the stepper)
//   decl_timing       the cycle contract: what a cycle-accurate DUT's pins do each cycle
//   decl_scoreboard   compares the events a DUT delivers with the predictor's, counts and reports
//   fetch_model       the vertex fetch unit: layout bus, out_loaded and out_regs of a vertex
//   shader_model      the vs.1.1 reference interpreter on one vertex
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

  // The vertex fetch unit (model/capi/vpsim_golden_dpi_fetch.cpp) and the vs.1.1 interpreter
  // (model/capi/vpsim_golden_dpi_shader.cpp): -1 is a failure, its message from *_error.
  import "DPI-C" function chandle vpsim_dpi_fetch_new(input int max_elems);
  import "DPI-C" function void vpsim_dpi_fetch_free(input chandle h);
  import "DPI-C" function string vpsim_dpi_fetch_error(input chandle h);
  import "DPI-C" function int vpsim_dpi_fetch_token(input chandle h, input int token);
  import "DPI-C" function int vpsim_dpi_fetch_decl(input chandle h);
  import "DPI-C" function int vpsim_dpi_fetch_lay_count(input chandle h);
  import "DPI-C" function int vpsim_dpi_fetch_lay_elem(input chandle h, input int k);
  import "DPI-C" function int vpsim_dpi_fetch_loaded(input chandle h);
  import "DPI-C" function int vpsim_dpi_fetch_stream(input chandle h, input int s, input int base, input int stride);
  import "DPI-C" function int vpsim_dpi_fetch_mem_write(input chandle h, input int addr, input int data);
  import "DPI-C" function void vpsim_dpi_fetch_mem_clear(input chandle h);
  import "DPI-C" function int vpsim_dpi_fetch_vertex(input chandle h, input int index);
  import "DPI-C" function int vpsim_dpi_fetch_reg(input chandle h, input int r, input int c);
  import "DPI-C" function chandle vpsim_dpi_shader_new();
  import "DPI-C" function void vpsim_dpi_shader_free(input chandle h);
  import "DPI-C" function string vpsim_dpi_shader_error(input chandle h);
  import "DPI-C" function int vpsim_dpi_shader_token(input chandle h, input int token);
  import "DPI-C" function int vpsim_dpi_shader_load(input chandle h);
  import "DPI-C" function int vpsim_dpi_shader_input(input chandle h, input int r, input int c, input int bits);
  import "DPI-C" function int vpsim_dpi_shader_const(input chandle h, input int r, input int c, input int bits);
  import "DPI-C" function int vpsim_dpi_shader_run(input chandle h);
  import "DPI-C" function int vpsim_dpi_shader_out(input chandle h, input int o, input int c);

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

  // The vertex fetch unit's golden side (rtl/vertex_fetch.sv's pins, docs/vertex-fetch-rtl.md):
  // set a declaration (decl: 0, or -1 and `error`), drive lay_count / lay_elems from layout(), give
  // the streams and the memory the DUT reads, then vertex(index) gives out_loaded and out_regs.
  class fetch_model;
    chandle h;
    string error;
    function new(int max_elems = 20);
      if (vpsim_dpi_abi() != ABI) $fatal(1, "vpsim_golden_pkg: libvpsim_golden_c ABI %0d, the package's %0d", vpsim_dpi_abi(), ABI);
      h = vpsim_dpi_fetch_new(max_elems);
      if (h == null) $fatal(1, "vpsim_golden_pkg: bad MAX_ELEMS %0d (1..63)", max_elems);
    endfunction
    // A declaration (the tokens to END): 0, or -1 with the reason in `error`.
    function int decl(logic [31:0] tokens[$]);
      foreach (tokens[i]) void'(vpsim_dpi_fetch_token(h, int'(tokens[i])));
      if (vpsim_dpi_fetch_decl(h) != 0) begin
        error = vpsim_dpi_fetch_error(h);
        return -1;
      end
      return 0;
    endfunction
    // The layout bus of the declaration: lay_count and lay_elems (MAX_ELEMS x 32 bits).
    function void layout(output logic [5:0] count, output logic [32*63-1:0] elems);
      int n;
      n = vpsim_dpi_fetch_lay_count(h);
      count = 6'(n);
      elems = '0;
      for (int k = 0; k < n; k++) elems[32*k +: 32] = vpsim_dpi_fetch_lay_elem(h, k);
    endfunction
    function void stream(int s, logic [31:0] base, logic [31:0] stride);
      void'(vpsim_dpi_fetch_stream(h, s, int'(base), int'(stride)));
    endfunction
    // The DWORD at byte address addr (little-endian), as the DUT's memory holds it.
    function void mem_write(logic [31:0] addr, logic [31:0] data);
      void'(vpsim_dpi_fetch_mem_write(h, int'(addr), int'(data)));
    endfunction
    function void mem_clear();
      vpsim_dpi_fetch_mem_clear(h);
    endfunction
    // Vertex `index`: out_loaded and out_regs as the DUT must give them; 0, or -1 with `error`.
    function int vertex(logic [31:0] index, output logic [15:0] loaded, output logic [2047:0] regs);
      if (vpsim_dpi_fetch_vertex(h, int'(index)) != 0) begin
        error = vpsim_dpi_fetch_error(h);
        return -1;
      end
      loaded = 16'(vpsim_dpi_fetch_loaded(h));
      for (int r = 0; r < 16; r++)
        for (int c = 0; c < 4; c++) regs[128*r + 32*c +: 32] = vpsim_dpi_fetch_reg(h, r, c);
      return 0;
    endfunction
    function void free();
      vpsim_dpi_fetch_free(h);
      h = null;
    endfunction
  endclass

  // The vs.1.1 reference interpreter (D3D8 profile) on one vertex, float bits in and out: load
  // (0, or -1 with `error`), set inputs and constants, run, read outputs (o: 0 oPos, 1 oD0, 2 oD1,
  // 3 oFog and 4 oPts in component 0, 5..12 oT0..oT7).
  class shader_model;
    chandle h;
    string error;
    function new();
      if (vpsim_dpi_abi() != ABI) $fatal(1, "vpsim_golden_pkg: libvpsim_golden_c ABI %0d, the package's %0d", vpsim_dpi_abi(), ABI);
      h = vpsim_dpi_shader_new();
    endfunction
    function int load(logic [31:0] bytecode[$]);
      foreach (bytecode[i]) void'(vpsim_dpi_shader_token(h, int'(bytecode[i])));
      if (vpsim_dpi_shader_load(h) != 0) begin
        error = vpsim_dpi_shader_error(h);
        return -1;
      end
      return 0;
    endfunction
    function void input_reg(int r, logic [127:0] xyzw);
      for (int c = 0; c < 4; c++) void'(vpsim_dpi_shader_input(h, r, c, int'(xyzw[32*c +: 32])));
    endfunction
    function void constant(int r, logic [127:0] xyzw);
      for (int c = 0; c < 4; c++) void'(vpsim_dpi_shader_const(h, r, c, int'(xyzw[32*c +: 32])));
    endfunction
    function int run();
      if (vpsim_dpi_shader_run(h) != 0) begin
        error = vpsim_dpi_shader_error(h);
        return -1;
      end
      return 0;
    endfunction
    function void out(int o, output logic [127:0] xyzw);
      for (int c = 0; c < 4; c++) xyzw[32*c +: 32] = vpsim_dpi_shader_out(h, o, c);
    endfunction
    function void free();
      vpsim_dpi_shader_free(h);
      h = null;
    endfunction
  endclass

endpackage
