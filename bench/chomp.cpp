// Chomp on a w x h bar: contest-style brute force, the yardstick for the
// list-state row of bench/run.sh. A position is the list of row lengths,
// bottom row first (never increasing upwards), packed 4 bits a row into a
// 64-bit key; Grundy values memoized in an unordered_map; options by plain
// recursion over every square (r, c) but the poisoned one; mex via a bitmask.
// The same algorithm as the rule in examples/chomp.game.
// Usage: chomp W H  (1 <= W <= 15, 1 <= H <= 15)
#include <bits/stdc++.h>
using namespace std;

static int H;
static unordered_map<uint64_t, int> memo;

static int row(uint64_t key, int i) { return (key >> (4 * i)) & 15; }

static int grundy(uint64_t key) {
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
    uint64_t seen[4] = {0, 0, 0, 0};
    for (int r = 0; r < H; r++) {
        for (int c = 0; c < row(key, r); c++) {
            if (r + c == 0) continue;
            uint64_t child = key;
            for (int i = r; i < H; i++) {
                int len = min(row(key, i), c);
                child = (child & ~(15ULL << (4 * i))) | ((uint64_t)len << (4 * i));
            }
            int g = grundy(child);
            if (g < 256) seen[g / 64] |= 1ULL << (g % 64);
        }
    }
    int mex = 0;
    while (mex < 256 && (seen[mex / 64] >> (mex % 64) & 1)) mex++;
    memo[key] = mex;
    return mex;
}

int main(int argc, char** argv) {
    int w = argc > 1 ? atoi(argv[1]) : 10;
    H = argc > 2 ? atoi(argv[2]) : 10;
    if (w < 1 || w > 15 || H < 1 || H > 15) { fprintf(stderr, "W and H must be 1..15\n"); return 2; }
    uint64_t full = 0;
    for (int i = 0; i < H; i++) full |= (uint64_t)w << (4 * i);
    int g = grundy(full);
    printf("chomp w=%d h=%d g=%d states=%zu\n", w, H, g, memo.size());
    return 0;
}
