#!/usr/bin/env bash
# Synthesise rtl/decl_decoder.sv with yosys (generic gates) and print a short area summary.
#
# usage: scripts/synth.sh [-G NAME=VALUE]... [-k]
#   -G NAME=VALUE  override a parameter of decl_decoder (e.g. -G CONST_COUNT=192); repeatable
#   -k             keep the full yosys log (path printed at the end)
#
# Installs yosys from apt (apt-get update + install --no-install-recommends) when missing.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "${script_dir}/.." && pwd)"
rtl="${repo}/rtl/decl_decoder.sv"
top="decl_decoder"

chparams=()
keep=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    -G)
      [[ $# -ge 2 ]] || { echo "synth.sh: -G needs NAME=VALUE" >&2; exit 2; }
      chparams+=("$2"); shift 2 ;;
    -G*=*)
      chparams+=("${1#-G}"); shift ;;
    -k)
      keep=1; shift ;;
    -h|--help)
      sed -n '2,8p' "$0"; exit 0 ;;
    *)
      echo "synth.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

if ! command -v yosys >/dev/null 2>&1; then
  echo "synth.sh: yosys not found, installing it with apt-get" >&2
  apt-get update
  apt-get install -y --no-install-recommends yosys
fi

[[ -f "${rtl}" ]] || { echo "synth.sh: ${rtl} not found" >&2; exit 1; }

chparam_cmd=""
for p in "${chparams[@]+"${chparams[@]}"}"; do
  name="${p%%=*}"
  value="${p#*=}"
  if [[ ! "${name}" =~ ^[A-Za-z_][A-Za-z0-9_]*$ || ! "${value}" =~ ^[0-9]+$ || "${p}" != *=* ]]; then
    echo "synth.sh: bad parameter override '${p}' (want NAME=INTEGER)" >&2; exit 2
  fi
  chparam_cmd+="chparam -set ${name} ${value} ${top}; "
done

log="$(mktemp "${TMPDIR:-/tmp}/decl_synth.XXXXXX.log")"
if [[ ${keep} -eq 0 ]]; then trap 'rm -f "${log}"' EXIT; fi

script="read_verilog -sv ${rtl}; ${chparam_cmd}synth -top ${top}; stat; stat -tech cmos"
yosys -q -l "${log}" -p "${script}" >/dev/null

# Summary. The log holds three statistics blocks: synth's own, our `stat` and our
# `stat -tech cmos`; the generic numbers come from the second-to-last block (`stat`).
summary="$(awk '
  /Printing statistics/ { n++ }
  /Number of cells:/ { cells[n] = $NF }
  /\$_[A-Z0-9_]*DFF[A-Z0-9_]*_/ {
    ffs[n] += $NF
    fftypes[n] = fftypes[n] sprintf("    %-22s %s\n", $1, $NF)
  }
  /Estimated number of transistors:/ { tr = $NF }
  END {
    g = n - 1
    printf "cells: %s\n", cells[g]
    printf "flip-flops: %d\n", ffs[g]
    printf "%s", fftypes[g]
    if (tr != "") printf "transistors (stat -tech cmos): %s\n", tr
  }' "${log}")"

echo "yosys $(yosys -V | awk '{print $2}'): synth -top ${top}${chparams[*]+ (${chparams[*]})}"
echo "${summary}"
if [[ ${keep} -eq 1 ]]; then echo "log: ${log}"; fi
exit 0
