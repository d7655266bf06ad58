#!/usr/bin/env bash
# Runs a points file on Slurm as one job array, and waits for it.
#
#   scripts/sweep-slurm.sh POINTS_FILE WORKDIR [--partition P] [--time MIN] [--mem MB]
#                          [--chunk K] [--max-running M] [--no-wait]
#
# POINTS_FILE has one shell command per line (each runs one point; the file GNU parallel runs).
# Line L (1-based, as `sed -n Lp` numbers them) is run by array task (L-1)/K, i.e. task i runs
# lines i*K+1 .. (i+1)*K, one after the other, with bash -c. Written under WORKDIR/slurm/:
#   points          the points file as submitted (the job reads this copy)
#   job.sbatch      the job array script (--array=0-(T-1)%M)
#   job_id          the job id sbatch gave
#   status/L.rc     line L's exit status, written when the line ends (absent: it did not end)
#   status/L.err    line L's stderr
#   out/JOB_TASK.out  each array task's stdout (the lines' stdout) and Slurm's messages
# Without --no-wait it follows the job with squeue until it leaves the queue (and sacct, when
# the cluster has accounting), then exits 0 if every line's status is 0, else 1 naming the lines
# that failed or did not run. With --no-wait it exits 0 once submitted. The job id goes to
# standard output, messages to standard error. Exit 2: usage error, or Slurm missing/unreachable.
#
# The cluster is the one the Slurm client commands find: SLURM_CONF (or /etc/slurm/slurm.conf);
# for the local test cluster, eval "$(scripts/slurm-local.sh env)". WORKDIR and every path in
# the points must be visible at the same path on the compute nodes (a shared filesystem).
# VPSIM_SLURM_POLL: seconds between squeue polls (default 5). See docs/slurm.md.
set -euo pipefail

me="sweep-slurm"
die() { echo "$me: error: $*" >&2; exit 2; }
say() { echo "$me: $*" >&2; }
usage() {
  cat >&2 <<'EOF'
usage: scripts/sweep-slurm.sh POINTS_FILE WORKDIR [--partition P] [--time MIN] [--mem MB]
                              [--chunk K] [--max-running M] [--no-wait]
EOF
  exit 2
}

partition="" time_min="" mem_mb="" chunk=1 max_running="" wait=1
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --partition) [ $# -ge 2 ] || usage; partition="$2"; shift 2 ;;
    --time) [ $# -ge 2 ] || usage; time_min="$2"; shift 2 ;;
    --mem) [ $# -ge 2 ] || usage; mem_mb="$2"; shift 2 ;;
    --chunk) [ $# -ge 2 ] || usage; chunk="$2"; shift 2 ;;
    --max-running) [ $# -ge 2 ] || usage; max_running="$2"; shift 2 ;;
    --no-wait) wait=0; shift ;;
    -h|--help) usage ;;
    --*) echo "$me: unknown option $1" >&2; usage ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -eq 2 ] || usage
points_in="${positional[0]}"
workdir="${positional[1]}"

is_count() { [[ "$1" =~ ^[1-9][0-9]*$ ]]; }
is_count "$chunk" || die "--chunk must be a positive integer, not '$chunk'"
[ -z "$time_min" ] || is_count "$time_min" || die "--time must be a positive number of minutes, not '$time_min'"
[ -z "$mem_mb" ] || is_count "$mem_mb" || die "--mem must be a positive number of MB, not '$mem_mb'"
[ -z "$max_running" ] || is_count "$max_running" || die "--max-running must be a positive integer, not '$max_running'"
[ -z "$partition" ] || [[ "$partition" =~ ^[A-Za-z0-9_.,-]+$ ]] || die "--partition must be a partition name (letters, digits, _ . , -), not '$partition'"
[ -f "$points_in" ] && [ -r "$points_in" ] || die "cannot read the points file '$points_in'"

# Slurm itself: installed, and its controller answering.
command -v sbatch > /dev/null || die "Slurm is not installed: sbatch not found (Debian: apt-get install slurm-client; a local test cluster: scripts/slurm-local.sh start)"
command -v squeue > /dev/null || die "Slurm is not installed: squeue not found"
if ! ping_out="$(timeout 30 sinfo -h -o %P 2>&1)"; then
  die "the Slurm controller does not answer: $(echo "$ping_out" | head -n 3 | tr '\n' ' ')(SLURM_CONF=${SLURM_CONF:-unset})"
fi

lines="$(awk 'END { print NR }' "$points_in")"
[ "$lines" -gt 0 ] || die "the points file '$points_in' is empty"
empty="$(awk 'NF == 0 { print NR }' "$points_in" | head -n 5 | tr '\n' ' ')"
[ -z "$empty" ] || die "the points file '$points_in' has empty lines: $empty"

mkdir -p "$workdir" || die "cannot create '$workdir'"
workdir="$(cd "$workdir" && pwd)"
sl="$workdir/slurm"
mkdir -p "$sl/status" "$sl/out"

# A job from an earlier submission into this WORKDIR that is still queued would write the same
# status files.
if [ -s "$sl/job_id" ]; then
  old="$(cat "$sl/job_id")"
  if [ -n "$(squeue -h -j "$old" -o %i 2>/dev/null || true)" ]; then
    die "job $old, submitted earlier into $workdir, is still queued or running: wait for it or scancel $old"
  fi
fi

cp "$points_in" "$sl/points"
rm -f "$sl/status/"*.rc "$sl/status/"*.err "$sl/status/"*.tmp "$sl/job_id"
tasks=$(( (lines + chunk - 1) / chunk ))
array="0-$((tasks - 1))"
[ -z "$max_running" ] || array="$array%$max_running"

{
  # WORKDIR may hold any character (spaces, quotes, $): it reaches the job only as %q-quoted
  # shell words and through sbatch's own argv (--chdir, --output), never inside #SBATCH lines,
  # which sbatch splits at white space, nor unquoted in the script.
  echo "#!/usr/bin/env bash"
  echo "# Written by vpsim scripts/sweep-slurm.sh: array task i runs lines i*K+1 .. (i+1)*K of"
  echo "# the points file below (K=$chunk, $lines lines), recording each line's exit status in"
  echo "# status/LINE.rc and its stderr in status/LINE.err. sweep-slurm.sh submits it with"
  echo "# --chdir=WORKDIR --output=WORKDIR/slurm/out/%A_%a.out on sbatch's command line."
  echo "#SBATCH --job-name=vpsim-sweep"
  echo "#SBATCH --array=$array"
  echo "#SBATCH --ntasks=1"
  echo "#SBATCH --cpus-per-task=1"
  [ -z "$partition" ] || echo "#SBATCH --partition=$partition"
  [ -z "$time_min" ] || echo "#SBATCH --time=$time_min"
  [ -z "$mem_mb" ] || echo "#SBATCH --mem=${mem_mb}M"
  echo "set -uo pipefail"
  printf 'points=%q\n' "$sl/points"
  printf 'status=%q\n' "$sl/status"
  printf 'chunk=%q\n' "$chunk"
  printf 'lines=%q\n' "$lines"
  cat <<'EOF'
task="${SLURM_ARRAY_TASK_ID:?not run as a Slurm array task}"
first=$((task * chunk + 1))
last=$(((task + 1) * chunk))
[ "$last" -le "$lines" ] || last="$lines"
failed=0
for ((n = first; n <= last; n++)); do
  line="$(sed -n "${n}p" "$points")"
  echo "line $n: $line"
  bash -c "$line" 2> "$status/$n.err" < /dev/null
  rc=$?
  echo "$rc" > "$status/$n.rc.tmp" && mv "$status/$n.rc.tmp" "$status/$n.rc"
  echo "line $n: exit $rc"
  [ "$rc" -eq 0 ] || failed=$((failed + 1))
done
[ "$failed" -eq 0 ]
EOF
} > "$sl/job.sbatch"
chmod +x "$sl/job.sbatch"

if ! sub="$(sbatch --parsable --chdir="$workdir" --output="$sl/out/%A_%a.out" "$sl/job.sbatch" 2>&1)"; then
  case "$sub" in
    *"Unable to contact"*|*"Connection refused"*|*"Socket timed out"*|*"configuration source"*)
      die "the Slurm controller does not answer: $sub" ;;
  esac
  die "sbatch refused the job: $sub"
fi
job="${sub%%;*}"           # --parsable prints "JOBID" or "JOBID;CLUSTER"
job="$(echo "$job" | tail -n 1)"
[[ "$job" =~ ^[0-9]+$ ]] || die "sbatch printed no job id: $sub"
echo "$job" > "$sl/job_id"
say "submitted job $job: $lines lines in $tasks array tasks ($array) of $chunk line(s); script $sl/job.sbatch"
echo "$job"
[ "$wait" -eq 1 ] || exit 0

count_rc() { find "$sl/status" -maxdepth 1 -name '*.rc' | wc -l; }

poll="${VPSIM_SLURM_POLL:-5}"
misses=0 last_report=""
while :; do
  if q="$(squeue -h -j "$job" -o %T 2>&1)"; then
    misses=0
    [ -n "$q" ] || break
    report="$(count_rc)/$lines lines done; tasks: $(echo "$q" | sort | uniq -c | awk '{ printf "%s%s %s", sep, $1, tolower($2); sep=", " }')"
  else
    case "$q" in
      *"Invalid job id"*) break ;;   # the controller has forgotten the job: it ended
    esac
    misses=$((misses + 1))
    [ "$misses" -lt 6 ] || die "the Slurm controller does not answer: $q (job $job may still run; its status files are in $sl/status)"
    report="squeue failed ($q); retrying"
  fi
  if [ "$report" != "$last_report" ]; then say "job $job: $report"; last_report="$report"; fi
  sleep "$poll"
done

# The job's final states: sacct when the cluster keeps accounting, else scontrol (which knows
# a job for MinJobAge seconds after it ends). The status files decide the exit status either way.
if acct="$(sacct -n -X -P -j "$job" -o JobID,State,ExitCode 2>&1)" && [ -n "$acct" ]; then
  say "sacct: $(echo "$acct" | awk -F'|' '{ print $2 }' | sort | uniq -c | awk '{ printf "%s%s %s", sep, $1, $2; sep=", " }')"
else
  say "sacct does not work here ($(echo "$acct" | head -n 1)): using the status files"
  states="$(scontrol -o show job "$job" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort | uniq -c | awk '{ printf "%s%s %s", sep, $1, $2; sep=", " }' || true)"
  [ -z "$states" ] || say "scontrol: array tasks $states"
fi

failed=()
for ((n = 1; n <= lines; n++)); do
  if [ ! -f "$sl/status/$n.rc" ]; then
    failed+=("$n")
    say "line $n did not finish (no status/$n.rc): see $sl/out/${job}_$(((n - 1) / chunk)).out"
  else
    rc="$(cat "$sl/status/$n.rc")"
    if [ "$rc" != 0 ]; then
      failed+=("$n")
      say "line $n failed with exit status $rc: $(head -c 300 "$sl/status/$n.err" | head -n 2 | tr '\n' ' ')"
    fi
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  say "${#failed[@]} of $lines lines failed: ${failed[*]}"
  exit 1
fi
say "all $lines lines succeeded"
