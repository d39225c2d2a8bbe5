#!/usr/bin/env bash
# Fuzzing with cargo-fuzz (libFuzzer, AddressSanitizer): seeds each
# target's corpus from examples/ and the docs' game blocks, then runs each
# target for SECONDS (default 60).
#
#   fuzz/run.sh [SECONDS] [TARGET...]     targets: parse check run frames
#   fuzz/run.sh --ci                       a short, repeatable run (CI)
#
# cargo-fuzz needs nightly features; RUSTC_BOOTSTRAP lets the stable
# toolchain here build them. Findings land in fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")"
ci=0
if [ "${1:-}" = "--ci" ]; then
  ci=1
  shift
fi
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parse check run frames)
command -v cargo-fuzz > /dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  for f in ../examples/*.game; do
    cp "$f" "corpus/$t/example-$(basename "$f")"
  done
  # The language server's frames: a session an editor sends.
  if [ "$t" = frames ]; then
    for body in '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}' \
      '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.game","languageId":"game","version":1,"text":"game Nim(n) = { Nim(k) for k in 0..n }"}}}'; do
      printf 'Content-Length: %d\r\n\r\n%s' "${#body}" "$body"
    done > "corpus/$t/session"
  fi
  # Each ```game block of the docs, one seed each.
  for doc in ../README.md ../docs/*.md; do
    awk -v out="corpus/$t/doc-$(basename "$doc" .md)" '
      /^```game$/ { n++; file = out "-" n ".game"; inside = 1; next }
      /^```/ { inside = 0; next }
      inside { print > file }
    ' "$doc"
  done
done
cargo fuzz build -O
status=0
for t in "${targets[@]}"; do
  if [ $ci = 1 ]; then
    # The same inputs every time: the seeds, then a fixed number of
    # mutations from a fixed seed.
    budget=(-seed=1 -runs=400)
  else
    budget=(-max_total_time="$seconds")
  fi
  echo "== $t ${budget[*]}"
  # -rss_limit_mb: the run target's own memory limit is 1 GB.
  if ! cargo fuzz run -O "$t" -- "${budget[@]}" -rss_limit_mb=4096 -timeout=60 \
    -max_len=4096 > "target/fuzz-$t.log" 2>&1; then
    status=1
  fi
  grep -E "ERROR|SUMMARY|Done [0-9]+ runs|panicked|Test unit written" "target/fuzz-$t.log" || true
done
exit $status
