#!/usr/bin/env bash
# The formal campaign of docs/formal.md: vpsim formal on the built-in decoder (BMC to DEPTH, then
# k-induction) and on planted variants of it, one bug class each, made by one literal replacement
# in rtl/decl_decoder.sv (the classes of tests/rtl_variants/decl_decoder_fsm_*.sv, whose structs
# yosys 0.23 cannot read). Prints each run's table; the summary goes to OUT/summary.txt.
#   scripts/formal.sh [BUILD_DIR] [OUT] [DEPTH]     (defaults: build, formal-campaign, 10)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}; out=${2:-formal-campaign}; depth=${3:-10}
vpsim="$build/vpsim"
"$here/scripts/deps.sh" --build yosys z3
mkdir -p "$out"
rtl="$here/rtl/decl_decoder.sv"
variant() {  # name from to
  python3 - "$rtl" "$out/$1.sv" "$2" "$3" <<'PY'
import sys
src, dst, a, b = sys.argv[1:]
t = open(src).read()
if a not in t: sys.exit(f"{src} no longer has: {a}")
open(dst, "w").write(t.replace(a, b))
PY
}
variant slow   "assign in_ready = !pend_valid_q && out_free;" \
               "assign in_ready = !pend_valid_q && out_free && !(out_valid_q && out_kind_q == K_STREAM);"
variant b2b    "assign in_ready = !pend_valid_q && out_free;" \
               "logic b2b_q; always_ff @(posedge clk) b2b_q <= !rst && in_valid && in_ready && in_last; assign in_ready = !pend_valid_q && out_free && !b2b_q;"
variant bp     "    end else if (out_free) begin" \
               "    end else if (!out_free && in_valid) begin out_value_q <= out_value_q ^ 24'd1; end else if (out_free) begin"
variant lost   "assign ev2_valid = tok_ev_valid && eoa_valid;" "assign ev2_valid = 1'b0;"
variant short4 "3'd7:    type_size = 5'd8;   // SHORT4" "3'd7:    type_size = 5'd12;  // SHORT4"
variant skip   "assign mem_step = tok_b28 ? {tok_f19_16, 2'b00}" "assign mem_step = tok_b28 ? {tok_f19_16, 2'b00} + 6'd4"
variant len    "assign mem_stream = no_stream_q ? 5'd0 : stream_q;" "assign mem_stream = no_stream_q ? 5'd1 : stream_q;"
variant const  "if (word_q == 2'd3) creg_q <= creg_q + 8'd1;" "if (word_q == 2'd3) creg_q <= creg_q + 8'd2;"
: > "$out/summary.txt"
run() {  # label args...
  local label=$1; shift
  local t0=$SECONDS rc=0
  "$vpsim" formal "$@" -o "$out/$label" > "$out/$label.txt" 2>&1 || rc=$?
  cat "$out/$label.txt"
  local failed
  failed=$(grep -E "failed at step" "$out/$label.txt" | awk '{printf "%s@%s ", $1, $5}') || true
  echo "$label: exit $rc, $((SECONDS - t0)) s, ${failed:-no property failed}" | tee -a "$out/summary.txt"
}
run builtin --depth "$depth" --induction
for v in slow b2b bp lost short4 skip len const; do
  run "$v" --rtl "$out/$v.sv" --depth "$depth"
done
