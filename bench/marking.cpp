// P-positions by marking, the yardstick for the marking rows of
// bench/run.sh: Wythoff's game in 2 dimensions (take any number from one
// heap, or the same from both) or 3 (from one heap, the same from two, or
// the same from all three), on the box [0, N]^d. Walk the positions in
// order; each unmarked one is P, and marks every position that moves to
// it. One bit per position.
// Usage: marking D N   (prints the number of P-positions in the box)
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char** argv) {
    if (argc < 3) { fprintf(stderr, "usage: marking D N\n"); return 2; }
    int d = atoi(argv[1]);
    long long n = atoll(argv[2]);
    if (d != 2 && d != 3) { fprintf(stderr, "D is 2 or 3\n"); return 2; }
    long long side = n + 1;
    long long total = d == 2 ? side * side : side * side * side;
    vector<uint64_t> marked((total + 63) / 64, 0);
    // Directions: every non-empty subset of the coordinates.
    vector<array<int, 3>> dirs;
    for (int mask = 1; mask < (1 << d); mask++) {
        array<int, 3> v = {0, 0, 0};
        for (int c = 0; c < d; c++) v[c] = mask >> c & 1;
        dirs.push_back(v);
    }
    long long stride[3] = {d == 2 ? side : side * side, d == 2 ? 1 : side, 1};
    long long count = 0;
    for (long long i = 0; i < total; i++) {
        if (marked[i >> 6] >> (i & 63) & 1) continue;
        count++;
        long long y[3] = {0, 0, 0}, rest = i;
        for (int c = 0; c < d; c++) { y[c] = rest / stride[c]; rest %= stride[c]; }
        for (auto& v : dirs) {
            long long kmax = LLONG_MAX, delta = 0;
            for (int c = 0; c < d; c++)
                if (v[c]) { kmax = min(kmax, n - y[c]); delta += stride[c]; }
            long long at = i;
            for (long long k = 1; k <= kmax; k++) {
                at += delta;
                marked[at >> 6] |= 1ULL << (at & 63);
            }
        }
    }
    printf("p=%lld\n", count);
    return 0;
}
