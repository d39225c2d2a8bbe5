// Win, lose or draw on a graph with cycles: the yardstick for the loopy row
// of bench/run.sh. Positions 0..N-1 with the moves of the rule in
// bench/run.sh (n + 1; 7n + 3 mod N; n*n + 1 mod N when n % 5 == 0; none
// when n % 97 == 96), the graph reached from 0 found breadth first, then
// the classic retrograde analysis: a position with no moves is lost, one
// with a move to a lost one is won, one whose moves all lead to won ones is
// lost (a counter per position), the rest draw.
// Usage: loopy N   (prints the outcome of 0 and the counts)
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char** argv) {
    if (argc < 2) { fprintf(stderr, "usage: loopy N\n"); return 2; }
    const int64_t n = atoll(argv[1]);
    auto options = [n](int64_t v, int64_t* out) {
        int k = 0;
        if (v % 97 == 96) return 0;
        if (v + 1 < n) out[k++] = v + 1;
        out[k++] = (7 * v + 3) % n;
        if (v % 5 == 0) out[k++] = (v * v + 1) % n;
        return k;
    };
    // Breadth first from 0: dense ids in discovery order, options contiguous.
    vector<int32_t> id(n, -1), order;
    vector<int64_t> start;
    vector<int32_t> target;
    id[0] = 0;
    order.push_back(0);
    int64_t buf[3];
    for (size_t i = 0; i < order.size(); i++) {
        start.push_back(target.size());
        int k = options(order[i], buf);
        for (int j = 0; j < k; j++) {
            int64_t w = buf[j];
            if (id[w] < 0) { id[w] = order.size(); order.push_back(w); }
            target.push_back(id[w]);
        }
    }
    start.push_back(target.size());
    const size_t m = order.size();
    // Predecessors.
    vector<int64_t> rstart(m + 1, 0);
    for (int32_t t : target) rstart[t + 1]++;
    for (size_t v = 0; v < m; v++) rstart[v + 1] += rstart[v];
    vector<int64_t> fill(rstart.begin(), rstart.end() - 1);
    vector<int32_t> pred(target.size());
    for (size_t v = 0; v < m; v++)
        for (int64_t e = start[v]; e < start[v + 1]; e++) pred[fill[target[e]]++] = v;
    // Retrograde: 1 win, 2 loss, 0 draw.
    vector<int32_t> left(m);
    vector<int8_t> out(m, 0);
    deque<int32_t> q;
    for (size_t v = 0; v < m; v++) {
        left[v] = start[v + 1] - start[v];
        if (left[v] == 0) { out[v] = 2; q.push_back(v); }
    }
    while (!q.empty()) {
        int32_t v = q.front(); q.pop_front();
        for (int64_t e = rstart[v]; e < rstart[v + 1]; e++) {
            int32_t p = pred[e];
            if (out[p]) continue;
            if (out[v] == 2) { out[p] = 1; q.push_back(p); }
            else if (--left[p] == 0) { out[p] = 2; q.push_back(p); }
        }
    }
    size_t wins = 0, losses = 0;
    for (auto o : out) { wins += o == 1; losses += o == 2; }
    const char* words[] = {"D", "N", "P"};
    printf("outcome=%s positions=%zu wins=%zu losses=%zu draws=%zu\n", words[out[0]], m, wins, losses, m - wins - losses);
    return 0;
}
