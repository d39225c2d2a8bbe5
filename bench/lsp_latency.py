#!/usr/bin/env python3
"""Diagnostics latency of `grundy lsp`: a rule file of N lines opened, then
changed (a typo made and fixed, alternately); the time from sending each
change to its diagnostics arriving, best and median of 20, in ms."""
import json, subprocess, sys, time

grundy, lines = sys.argv[1], int(sys.argv[2])
parts, n = [], 0
while n < lines:
    i = len(parts)
    parts.append(f"game G{i}(n) = {{ G{i}(n - k) for k in [1, {i % 5 + 2}] if k <= n }}\n"
                 f"let c{i} = [k * {i + 1} % 7 for k in 0..10]\n"
                 f"let f{i}(x) = c{i}[x % 10] + {i}\n"
                 f"print grundy(G{i}(f{i}(3)))\n")
    n += 4
text = "".join(parts)
typo = text.replace("print grundy(G0(", "print grundy(Gx0(", 1)

p = subprocess.Popen([grundy, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(obj):
    b = json.dumps(obj).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
    p.stdin.flush()
def recv():
    h = b""
    while not h.endswith(b"\r\n\r\n"):
        h += p.stdout.read(1)
    n = int(h.decode().split("Content-Length:")[1].split("\r\n")[0])
    return json.loads(p.stdout.read(n))
def diagnostics():
    while True:
        m = recv()
        if m.get("method") == "textDocument/publishDiagnostics":
            return m["params"]["diagnostics"]

send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
recv()
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
uri = "file:///bench.game"
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "game", "version": 1, "text": text}}})
assert diagnostics() == []
times = []
for v in range(20):
    body = typo if v % 2 == 0 else text
    t = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": v + 2}, "contentChanges": [{"text": body}]}})
    d = diagnostics()
    times.append((time.perf_counter() - t) * 1000)
    assert (len(d) == 1) == (v % 2 == 0), d
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
recv()
send({"jsonrpc": "2.0", "method": "exit"})
p.wait(timeout=10)
times.sort()
print(f"{times[0]:.1f} {times[len(times) // 2]:.1f}")
