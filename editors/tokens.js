// Tokenizes files with the TextMate grammar (VS Code's engine:
// vscode-textmate on vscode-oniguruma) and prints, per file, each line's
// tokens (start, end, innermost scope) and whether the line ends inside
// an open region. Used by tests/editors.rs.
const fs = require("fs");
const path = require("path");
const tm = require("vscode-textmate");
const onig = require("vscode-oniguruma");

async function main() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
  await onig.loadWASM(wasm);
  const registry = new tm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new onig.OnigScanner(sources),
      createOnigString: (s) => new onig.OnigString(s),
    }),
    loadGrammar: async () => {
      const file = path.join(__dirname, "vscode", "syntaxes", "game.tmLanguage.json");
      return tm.parseRawGrammar(fs.readFileSync(file, "utf8"), file);
    },
  });
  const grammar = await registry.loadGrammar("source.game");
  const out = [];
  for (const file of process.argv.slice(2)) {
    let stack = tm.INITIAL;
    const lines = [];
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      const r = grammar.tokenizeLine(line, stack);
      stack = r.ruleStack;
      const tokens = r.tokens.map((t) => [t.startIndex, t.endIndex, t.scopes[t.scopes.length - 1]]);
      lines.push({ open: stack.depth > 1, tokens });
    }
    out.push({ file, lines });
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
