// Node Kayles on a w x h grid graph: contest-style brute force, the
// yardstick for the boards rows of bench/run.sh. A position is the mask of
// the vertices still there (bit v: row v / w, column v % w); a move removes
// a vertex and its neighbours. Two versions, both memoized in an
// unordered_map with mex via a bitmask:
//   plain: the whole mask, by plain recursion over every vertex;
//   split: the mask cut into its connected components first (no edge joins
//          two of them), each solved once and XORed (what a
//          `split ... components(mask, adj)` rule does).
// Usage: node_kayles W H [split]  (W * H <= 63)
#include <bits/stdc++.h>
using namespace std;

static int W, H;
static vector<uint64_t> adj;
static unordered_map<uint64_t, int> memo;
static bool split_parts;

static int grundy(uint64_t mask);

static int whole(uint64_t mask) {
    auto it = memo.find(mask);
    if (it != memo.end()) return it->second;
    uint64_t seen[2] = {0, 0};
    for (int v = 0; v < W * H; v++) {
        if (!(mask >> v & 1)) continue;
        int g = grundy(mask & ~((1ULL << v) | adj[v]));
        if (g < 128) seen[g / 64] |= 1ULL << (g % 64);
    }
    int g = 0;
    while (seen[g / 64] >> (g % 64) & 1) g++;
    memo[mask] = g;
    return g;
}

static int grundy(uint64_t mask) {
    if (!split_parts) return whole(mask);
    int x = 0;
    uint64_t rest = mask;
    while (rest) {
        uint64_t part = rest & -rest, frontier = part;
        while (frontier) {
            int v = __builtin_ctzll(frontier);
            frontier &= frontier - 1;
            uint64_t fresh = adj[v] & rest & ~part;
            part |= fresh;
            frontier |= fresh;
        }
        rest &= ~part;
        x ^= whole(part);
    }
    return x;
}

int main(int argc, char** argv) {
    if (argc < 3) { fprintf(stderr, "usage: node_kayles W H [split]\n"); return 2; }
    W = atoi(argv[1]); H = atoi(argv[2]);
    split_parts = argc > 3 && string(argv[3]) == "split";
    if (W < 1 || H < 1 || W * H > 63) { fprintf(stderr, "W * H must be 1 to 63\n"); return 2; }
    adj.assign(W * H, 0);
    for (int v = 0; v < W * H; v++) {
        int r = v / W, c = v % W;
        if (c > 0) adj[v] |= 1ULL << (v - 1);
        if (c + 1 < W) adj[v] |= 1ULL << (v + 1);
        if (r > 0) adj[v] |= 1ULL << (v - W);
        if (r + 1 < H) adj[v] |= 1ULL << (v + W);
    }
    uint64_t full = W * H == 64 ? ~0ULL : (1ULL << (W * H)) - 1;
    int g = grundy(full);
    printf("node_kayles %dx%d g=%d positions=%zu\n", W, H, g, memo.size());
}
