#!/usr/bin/env python3
"""Hover latency of `grundy lsp` on a large file: N one-line games opened,
hover on the first, middle and last, then the same with an error in the
file (the items that still check answer).  bench/lsp_hover.py GRUNDY N"""
import json, subprocess, sys, time
grundy, n = sys.argv[1], int(sys.argv[2])
parts = []
for i in range(n):
    parts.append(f"game G{i}(n) = {{ G{i}(n - k) for k in [1, {i % 5 + 2}] if k <= n }}\n")
text = "".join(parts) + "print grundy(G0(5))\n"
p = subprocess.Popen([grundy, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(obj):
    b = json.dumps(obj).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b); p.stdin.flush()
def recv():
    h = b""
    while not h.endswith(b"\r\n\r\n"):
        h += p.stdout.read(1)
    k = int(h.decode().split("Content-Length:")[1].split("\r\n")[0])
    return json.loads(p.stdout.read(k))
send({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}); recv()
t=time.perf_counter()
send({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.game","languageId":"game","version":1,"text":text}}})
while recv().get("method") != "textDocument/publishDiagnostics": pass
print("open+diagnostics %.3f s" % (time.perf_counter()-t), len(text))
for line in [0, n // 2, n - 1]:
    t=time.perf_counter()
    send({"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a.game"},"position":{"line":line,"character":6}}})
    r=recv()
    print("hover line %d %.3f s" % (line, time.perf_counter()-t), (r.get("result") or {}).get("contents",{}).get("value","")[:40].replace("\n"," "))
# with an error
t=time.perf_counter()
send({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.game","version":2},"contentChanges":[{"text":text+"print grundy(G1(\n"}]}})
while recv().get("method") != "textDocument/publishDiagnostics": pass
print("change with an error %.3f s" % (time.perf_counter()-t))
t=time.perf_counter()
send({"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a.game"},"position":{"line":n//2,"character":6}}})
r=recv()
print("hover with an error %.3f s" % (time.perf_counter()-t), (r.get("result") or {}).get("contents",{}).get("value","")[:40].replace("\n"," "))
send({"jsonrpc":"2.0","id":4,"method":"shutdown"}); recv(); send({"jsonrpc":"2.0","method":"exit"})
