// Starts `grundy lsp` for .game files (docs/editors.md).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const command = vscode.workspace.getConfiguration("grundy").get("path") || "grundy";
  client = new LanguageClient(
    "grundy",
    "grundy",
    { command, args: ["lsp"] },
    { documentSelector: [{ scheme: "file", language: "game" }] },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
