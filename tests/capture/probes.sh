#!/usr/bin/env bash
# The probes of d3d8_calls (probes.py): after every state-block apply / capture and after the
# Reset, vpsim's vertices for the probe draw are Wine's ProcessVertices results.
# Usage: probes.sh CALLS_WORK_DIR (calls.sh's).
set -euo pipefail
work=$1
python3 "$(dirname "$0")/probes.py" "$work/calls.vpcap" "$work/calls.json" "$work/scene_exec.json"
