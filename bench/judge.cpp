// C++ yardsticks for the language around the rules (bench/run.sh):
//   judge dp N      ways to climb N steps by 1, 3 or 4, mod 1e9+7
//   judge sieve N   the primes up to N, counted (a sieve of Eratosthenes)
//   judge cases     stdin: T, then T cases `n a_1 .. a_n`; Nim: first/second
//   judge tokens    stdin: T, then T integers; `first` unless a multiple of 3
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    if (!strcmp(argv[1], "dp")) {
        long n = atol(argv[2]);
        std::vector<long> d(n + 1);
        const long M = 1000000007;
        for (long i = 0; i <= n; i++)
            d[i] = i == 0 ? 1
                          : (d[i - 1] + (i >= 3 ? d[i - 3] : 0) + (i >= 4 ? d[i - 4] : 0)) % M;
        printf("%ld\n", d[n]);
    } else if (!strcmp(argv[1], "sieve")) {
        long n = atol(argv[2]);
        std::vector<char> c(n + 1);
        for (long p = 2; p * p <= n; p++)
            if (!c[p])
                for (long k = p; k <= n / p; k++) c[p * k] = 1;
        long count = 0;
        for (long i = 2; i <= n; i++) count += !c[i];
        printf("%ld\n", count);
    } else if (!strcmp(argv[1], "cases")) {
        int t;
        if (scanf("%d", &t) != 1) return 1;
        while (t--) {
            int n;
            long x = 0, a;
            if (scanf("%d", &n) != 1) return 1;
            for (int i = 0; i < n; i++) {
                if (scanf("%ld", &a) != 1) return 1;
                x ^= a;
            }
            puts(x ? "first" : "second");
        }
    } else if (!strcmp(argv[1], "tokens")) {
        int t;
        if (scanf("%d", &t) != 1) return 1;
        while (t--) {
            long a;
            if (scanf("%ld", &a) != 1) return 1;
            puts(a % 3 ? "first" : "second");
        }
    }
    return 0;
}
