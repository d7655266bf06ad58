# Sourced by the build-script tests (build_script_test.sh, build_pgo_script_test.sh): stand-ins for
# cmake and dpkg-query in WORK/bin that log their calls to LOG (cmake makes the -B directory with a
# build.ninja, dpkg-query says every package is installed). Each test writes its own ninja.
#   build_stand_ins WORK LOG
build_stand_ins() {
  local work="$1" log="$2"
  mkdir -p "$work/bin"
  cat > "$work/bin/cmake" <<EOF
#!/usr/bin/env bash
echo "cmake \$*" >> "$log"
while [ \$# -gt 0 ]; do [ "\$1" = -B ] && { mkdir -p "\$2"; touch "\$2/build.ninja"; }; shift; done
EOF
  cat > "$work/bin/dpkg-query" <<'EOF'
#!/usr/bin/env bash
printf 'install ok installed'
EOF
  chmod +x "$work/bin/cmake" "$work/bin/dpkg-query"
}
