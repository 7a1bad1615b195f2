// The textfrag extension: starts `textfrag lsp` for Markdown files through
// Microsoft's language client. Plain CommonJS, no build step: what is checked
// in is what VS Code runs.
//
// File watching: the server asks the client to watch the project's files
// (client/registerCapability for workspace/didChangeWatchedFiles), which this
// client honours, so no watcher is declared here; one would report every
// change twice.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client; // the running client, or undefined
let starting = Promise.resolve();

// serverOptions runs the configured command as `<textfrag.path> lsp`, in the
// first workspace folder: the server finds the project (textfrag.toml, else
// the git work tree) from the directory it starts in.
function serverOptions() {
  const cfg = vscode.workspace.getConfiguration("textfrag");
  const command = cfg.get("path") || "textfrag";
  const folders = vscode.workspace.workspaceFolders;
  const options = folders && folders.length > 0 ? { cwd: folders[0].uri.fsPath } : {};
  return { command, args: ["lsp"], options };
}

function start() {
  // The id "textfrag" makes the client read the textfrag.trace.server setting.
  client = new LanguageClient(
    "textfrag",
    "textfrag",
    serverOptions(),
    { documentSelector: [{ scheme: "file", language: "markdown" }] },
  );
  const c = client;
  starting = c.start().catch((err) => {
    vscode.window.showErrorMessage(
      `textfrag: could not start "${serverOptions().command} lsp" (${err && err.message ? err.message : err}). ` +
        "Install it with: go install github.com/textfrag/textfrag/cmd/textfrag@latest, " +
        "or set textfrag.path to the textfrag executable.",
    );
  });
  return starting;
}

async function stop() {
  const c = client;
  client = undefined;
  if (c) {
    await starting;
    if (c.isRunning()) {
      await c.stop();
    }
  }
}

function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("textfrag.path")) {
        return stop().then(start);
      }
      return undefined;
    }),
  );
  return start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
