// The subtraction game "all but S": a move takes any positive number of
// tokens except those in S. Contest-style loop, the yardstick for the
// all-but row of bench/run.sh: for each n, mark the values of every earlier
// heap it can reach, then take the mex (quadratic, as people write it).
// Usage: allbut N s1 s2 ...   (prints g[n]=VALUE for n = N)
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char** argv) {
    if (argc < 2) { fprintf(stderr, "usage: allbut N s1 s2 ...\n"); return 2; }
    int n = atoi(argv[1]);
    vector<int> excluded;
    for (int i = 2; i < argc; i++) excluded.push_back(atoi(argv[i]));
    vector<int> g(n + 1, 0);
    vector<int> seen(n + 2, -1);
    for (int m = 0; m <= n; m++) {
        for (int k = 1; k <= m; k++) {
            if (find(excluded.begin(), excluded.end(), k) != excluded.end()) continue;
            seen[g[m - k]] = m;
        }
        int v = 0;
        while (seen[v] == m) v++;
        g[m] = v;
    }
    printf("g[n]=%d\n", g[n]);
    return 0;
}
