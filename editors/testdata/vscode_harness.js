// Loads the VS Code extension under test with stand-ins for the "vscode" and
// "vscode-languageclient/node" modules, runs one scenario, and prints what
// the extension asked of them as JSON on standard output.
//
// Usage: node vscode_harness.js EXTENSION_DIR SCENARIO_JSON
// SCENARIO_JSON: {"config": {"path": ...}, "folders": ["/dir"],
//                 "startFails": false, "change": {"config": {...}, "key": "textfrag.path"}}
"use strict";

const Module = require("module");
const path = require("path");

const [dir, scenarioJSON] = process.argv.slice(2);
const scenario = JSON.parse(scenarioJSON);
let config = scenario.config || {};
const record = { clients: [], errors: [], configKeys: [] };
let configListener;

const vscode = {
  workspace: {
    getConfiguration(section) {
      return {
        get(key) {
          record.configKeys.push(section + "." + key);
          return section === "textfrag" ? config[key] : undefined;
        },
      };
    },
    get workspaceFolders() {
      return (scenario.folders || []).map((f) => ({ uri: { fsPath: f } }));
    },
    onDidChangeConfiguration(listener) {
      configListener = listener;
      return { dispose() {} };
    },
    createFileSystemWatcher(glob) {
      record.watchers = (record.watchers || []).concat([glob]);
      return { glob, dispose() {} };
    },
  },
  window: {
    showErrorMessage(msg) {
      record.errors.push(msg);
    },
  },
};

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    this.rec = { id, name, serverOptions, clientOptions, started: false, stopped: false };
    this.running = false;
    record.clients.push(this.rec);
  }
  start() {
    this.rec.started = true;
    if (scenario.startFails) {
      return Promise.reject(new Error("spawn textfrag ENOENT"));
    }
    this.running = true;
    return Promise.resolve();
  }
  isRunning() {
    return this.running;
  }
  stop() {
    if (!this.running) {
      return Promise.reject(new Error("Client is not running and can't be stopped"));
    }
    this.running = false;
    this.rec.stopped = true;
    return Promise.resolve();
  }
}

const stubs = { vscode, "vscode-languageclient/node": { LanguageClient } };
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (Object.prototype.hasOwnProperty.call(stubs, request)) {
    return stubs[request];
  }
  return load.call(this, request, parent, isMain);
};

async function main() {
  const pkg = require(path.join(dir, "package.json"));
  const ext = require(path.join(dir, pkg.main));
  const subscriptions = [];
  await ext.activate({ subscriptions });
  record.subscriptions = subscriptions.length;
  if (scenario.change) {
    config = scenario.change.config;
    const key = scenario.change.key;
    await configListener({ affectsConfiguration: (k) => k === key || key.startsWith(k + ".") });
  }
  record.afterActivate = record.clients.map((c) => ({ started: c.started, stopped: c.stopped }));
  await ext.deactivate();
  process.stdout.write(JSON.stringify(record));
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + "\n");
  process.exit(1);
});
