#!/usr/bin/env bash
# The language around the rules against C++ (bench/judge.cpp), in one run:
# a DP by a fold, a sieve, judge cases and a million tokens; and one rule
# in several phrasings. Part of bench/run.sh; runs alone too.
#
#   bench/language.sh           full sizes (docs/PERFORMANCE.md)
#   bench/language.sh --quick   small sizes, for a smoke run
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=${BENCH_DIR:-/tmp/grundy-bench}
mkdir -p "$out"
quick=0
[ "${1:-}" = "--quick" ] && quick=1
g++ -O2 -std=c++17 -o "$out/cpp_judge" bench/judge.cpp
cargo build --release -q
grundy="$root/target/release/grundy"

# best SECONDS...: the least of several times.
best() { printf '%s\n' "$@" | sort -g | head -1; }

# measure NAME CMD...: prints "seconds kilobytes" (the best wall time of
# three runs, to the millisecond; the most memory) and keeps stdout in
# $out/NAME.out. Reads stdin from $in when it is set.
measure() {
  local name=$1; shift
  local times=() t0 t1
  for _ in 1 2 3; do
    t0=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o "$out/$name.mem" "$@" < "${in:-/dev/null}" > "$out/$name.out"
    t1=$EPOCHREALTIME
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
  done
  echo "$(best "${times[@]}") $(cat "$out/$name.mem")"
}

# The language around the rules, against C++ (bench/judge.cpp) in the
# same run: an array filled bottom-up by a fold, a sieve of Eratosthenes,
# T judge cases `n a_1 .. a_n` (examples/nim_cases.game) and a million
# tokens answered one a line, as the docs teach them. The answers must
# agree. Wall time, seconds (process start-up included).
echo
echo "the language around the rules (seconds, KB)"
ldp=$(( quick == 1 ? 100000 : 1000000 ))
lsv=$(( quick == 1 ? 999999 : 9999999 ))
lcases=$(( quick == 1 ? 20000 : 200000 ))
ltok=$(( quick == 1 ? 100000 : 1000000 ))
cat > "$out/l_dp.game" <<G
let n = $ldp
let d = fold(d = [0 for i in 0..=n], set(d, i, if i == 0 then 1 else (d[i - 1] + (if i >= 3 then d[i - 3] else 0) + (if i >= 4 then d[i - 4] else 0)) % 1000000007) for i in 0..=n)
write d[n]
G
cat > "$out/l_sieve.game" <<G
let n = $lsv
let c = fold(c = [false for i in 0..=n], set(c, p * k, true) for p in 2..=isqrt(n) if not c[p] for k in p..=n / p)
write len([i for i in 2..=n if not c[i]])
G
cat > "$out/l_tokens.game" <<'G'
let data = input_ints()
write (if data[i] % 3 != 0 then "first" else "second") for i in 1..=data[0]
G
python3 - "$out" "$lcases" "$ltok" <<'PY'
import random, sys
out, cases, tokens = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(41)
lines = [str(cases)]
for _ in range(cases):
    lines.append("1")
    lines.append(str(random.randint(0, 10**9)))
open(f"{out}/l_cases.in", "w").write("\n".join(lines) + "\n")
toks = [str(tokens)] + [str(random.randint(0, 10**9)) for _ in range(tokens)]
open(f"{out}/l_tokens.in", "w").write("\n".join(toks) + "\n")
PY
language_row() {
  local name=$1 cpp=$2 g=$3
  read -r ct cm <<<"$cpp"; read -r gt gm <<<"$g"
  cmp -s "$out/${4}_cpp.out" "$out/${4}_grundy.out" \
    || { echo "MISMATCH $name: $(head -c 200 "$out/${4}_cpp.out") vs $(head -c 200 "$out/${4}_grundy.out")"; exit 1; }
  printf '%-40s %8s %8s %10s %10s %6s\n' "$name" "$ct" "$gt" "$cm" "$gm" \
    "$(awk -v a="$gt" -v b="$ct" 'BEGIN { if (b < 0.001) b = 0.001; printf "%.1f", a / b }')"
}
measure_in() {
  local name=$1 input=$2; shift 2
  in=$input measure "$name" "$@"
}
printf '%-40s %8s %8s %10s %10s %6s\n' work cpp_s grundy_s cpp_KB grundy_KB time_x
language_row "DP by a fold, n = $ldp" \
  "$(measure l_dp_cpp "$out/cpp_judge" dp $ldp)" "$(measure l_dp_grundy "$grundy" "$out/l_dp.game")" l_dp
language_row "sieve to $lsv" \
  "$(measure l_sieve_cpp "$out/cpp_judge" sieve $lsv)" "$(measure l_sieve_grundy "$grundy" "$out/l_sieve.game")" l_sieve
language_row "$lcases judge cases (nim_cases.game)" \
  "$(measure_in l_cases_cpp "$out/l_cases.in" "$out/cpp_judge" cases)" \
  "$(measure_in l_cases_grundy "$out/l_cases.in" "$grundy" "$root/examples/nim_cases.game")" l_cases
language_row "$ltok tokens, one answer each" \
  "$(measure_in l_tokens_cpp "$out/l_tokens.in" "$out/cpp_judge" tokens)" \
  "$(measure_in l_tokens_grundy "$out/l_tokens.in" "$grundy" "$out/l_tokens.game")" l_tokens

# One rule, several phrasings: taking a square number of tokens, with the
# squares from `isqrt`, from a `while`, and from a constant list. The
# values must agree; the times should be close.
echo
echo "phrasings of one rule: grundy(Sq($(( quick == 1 ? 30000 : 300000 )))) (seconds)"
sqn=$(( quick == 1 ? 30000 : 300000 ))
printf 'game Sq(n) = { Sq(n - k * k) for k in 1..=isqrt(n) }\nwrite grundy(Sq(%s))\n' $sqn > "$out/ph_isqrt.game"
printf 'game Sq(n) = { Sq(n - k * k) for k in 1..=n while k * k <= n }\nwrite grundy(Sq(%s))\n' $sqn > "$out/ph_while.game"
printf 'let S = [k * k for k in 1..=isqrt(%s)]\ngame Sq(n) = { Sq(n - s) for s in S if s <= n }\nwrite grundy(Sq(%s))\n' $sqn $sqn > "$out/ph_list.game"
# phrasings GROUP NAME...: each phrasing's time, and the slowest over the
# fastest (the values must agree).
phrasings() {
  local group=$1; shift
  local first=$1 ts=()
  printf '%-40s %8s\n' phrasing seconds
  for ph in "$@"; do
    read -r pt pm <<<"$(measure "${group}_$ph" "$grundy" --period-budget 0 "$out/${group}_$ph.game")"
    cmp -s "$out/${group}_$first.out" "$out/${group}_$ph.out" || { echo "MISMATCH phrasing $ph"; exit 1; }
    printf '%-40s %8s\n' "$ph" "$pt"
    ts+=("$pt")
  done
  printf '%-40s %8s\n' "slowest / fastest" \
    "$(printf '%s\n' "${ts[@]}" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f", hi / lo }')"
}
phrasings ph list isqrt while

# Subtracting a proper divisor: the divisors tested one by one, and by
# pairs up to isqrt(n).
dvn=$(( quick == 1 ? 20000 : 200000 ))
echo
echo "phrasings of one rule: grundy(D($dvn)), D(n) -> D(n - d) for a proper divisor d (seconds)"
printf 'game D(n) = { D(n - d) for d in 1..n if n %% d == 0 }\nwrite grundy(D(%s))\n' $dvn > "$out/dv_literal.game"
printf 'game D(n) = { D(n - d) for d in 1..=isqrt(n) if n %% d == 0 and d < n; D(n - n / d) for d in 2..=isqrt(n) if n %% d == 0 and d * d != n }\nwrite grundy(D(%s))\n' $dvn > "$out/dv_pairs.game"
phrasings dv literal pairs

