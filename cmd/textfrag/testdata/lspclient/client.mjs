// Drives `textfrag lsp` with Microsoft's reference client library, as VS Code
// does: node client.mjs TEXTFRAG PROJECT. PROJECT is a git repository whose
// docs/page.md quotes line 2 of src/a.go with the md5 of the committed
// version, and docs/named.md quotes func A (line 3) by name, "sym=A"; a line
// was since inserted above both, so both links are stale (written by
// cmd/textfrag/lsp_node_test.go). Prints one line per step; exits 1 on the
// first step that fails.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import assert from "node:assert/strict";
import {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter,
  InitializeRequest, InitializedNotification, DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification, DidChangeWatchedFilesNotification,
  PublishDiagnosticsNotification, HoverRequest, DefinitionRequest,
  CodeActionRequest, RegistrationRequest, ShutdownRequest, ExitNotification,
  FileChangeType,
} from "vscode-languageserver-protocol/node.js";

const [bin, project] = process.argv.slice(2);
const server = spawn(bin, ["lsp"], { cwd: project, stdio: ["pipe", "pipe", "inherit"] });
const exited = new Promise((resolve) => server.on("exit", (code) => resolve(code)));
const conn = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));

// Diagnostics arrive as notifications: keep them per URI, and let a step
// wait for the next one.
const waiting = new Map();
const published = new Map();
conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
  const list = published.get(p.uri) ?? [];
  list.push(p.diagnostics);
  published.set(p.uri, list);
  waiting.get(p.uri)?.();
});
function nextDiagnostics(uri) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} within 10s`)), 10000);
    const take = () => {
      const list = published.get(uri) ?? [];
      if (list.length > 0) {
        clearTimeout(timer);
        waiting.delete(uri);
        resolve(list.shift());
        return true;
      }
      return false;
    };
    if (!take()) waiting.set(uri, take);
  });
}
let registered = [];
conn.onRequest(RegistrationRequest.type, (p) => { registered.push(...p.registrations); return null; });
conn.listen();

// applyEdits applies TextEdits to text; JavaScript strings are UTF-16, as
// the protocol's default positions are.
function applyEdits(text, edits) {
  const lines = text.split(/(?<=\n)/);
  const offset = (pos) => lines.slice(0, pos.line).reduce((n, l) => n + l.length, 0) + pos.character;
  for (const e of [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start))) {
    text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  }
  return text;
}

const step = (name) => console.log(`ok: ${name}`);
try {
  const init = await conn.sendRequest(InitializeRequest.type, {
    processId: process.pid, rootUri: pathToFileURL(project).href, workspaceFolders: null,
    capabilities: {
      general: { positionEncodings: ["utf-16"] },
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
      textDocument: { hover: { contentFormat: ["markdown"] }, publishDiagnostics: {} },
    },
  });
  assert.equal(init.capabilities.positionEncoding, "utf-16");
  assert.ok(init.capabilities.hoverProvider && init.capabilities.definitionProvider && init.capabilities.codeActionProvider);
  await conn.sendNotification(InitializedNotification.type, {});
  step("initialize");

  const pagePath = join(project, "docs/page.md");
  const srcPath = join(project, "src/a.go");
  const uri = pathToFileURL(pagePath).href;
  let text = readFileSync(pagePath, "utf8");
  await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "markdown", version: 1, text } });
  let diags = await nextDiagnostics(uri);
  assert.equal(diags.length, 1, JSON.stringify(diags));
  assert.equal(diags[0].source, "textfrag");
  assert.equal(diags[0].code, "integrity");
  const line = text.split("\n")[diags[0].range.start.line];
  const dest = line.slice(diags[0].range.start.character, diags[0].range.end.character);
  assert.match(dest, /^\.\.\/src\/a\.go#line=1,2;md5=[0-9a-f]{32}$/);
  step("publishDiagnostics: " + diags[0].message);

  const hover = await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: diags[0].range.start });
  assert.match(hover.contents.value, /src\/a\.go\*\* line 2 of 4/);
  assert.match(hover.contents.value, /md5 mismatch/);
  assert.ok(hover.contents.value.includes("```go\npackage a\n```"), hover.contents.value);
  step("hover");

  const defs = await conn.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: diags[0].range.start });
  assert.deepEqual(defs, [{ uri: pathToFileURL(srcPath).href, range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } } }]);
  step("definition");

  const actions = await conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: diags[0].range, context: { diagnostics: diags } });
  const relocate = actions.find((a) => a.title.startsWith("Relocate the moved text"));
  assert.ok(relocate, JSON.stringify(actions));
  assert.equal(relocate.kind, "quickfix");
  text = applyEdits(text, relocate.edit.changes[uri]);
  assert.match(text, /\.\.\/src\/a\.go#line=2,3;md5=[0-9a-f]{32}\)/);
  step("codeAction: " + relocate.title);

  await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text }] });
  diags = await nextDiagnostics(uri);
  assert.deepEqual(diags, []);
  step("didChange: the relocated link has no diagnostics");

  // A link that quotes by name: the function moved, the code action
  // re-pins the link at the lines the name spans now.
  const namedUri = pathToFileURL(join(project, "docs/named.md")).href;
  let named = readFileSync(join(project, "docs/named.md"), "utf8");
  await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: namedUri, languageId: "markdown", version: 1, text: named } });
  let namedDiags = await nextDiagnostics(namedUri);
  assert.equal(namedDiags.length, 1, JSON.stringify(namedDiags));
  assert.equal(namedDiags[0].code, "integrity");
  step("named link: publishDiagnostics: " + namedDiags[0].message);

  const namedActions = await conn.sendRequest(CodeActionRequest.type, { textDocument: { uri: namedUri }, range: namedDiags[0].range, context: { diagnostics: namedDiags } });
  const follow = namedActions.find((a) => a.title === "Move to sym=A's line 4");
  assert.ok(follow, JSON.stringify(namedActions));
  assert.equal(follow.kind, "quickfix");
  assert.equal(follow.isPreferred, true);
  named = applyEdits(named, follow.edit.changes[namedUri]);
  assert.match(named, /\(\.\.\/src\/a\.go#line=3,4;md5=[0-9a-f]{32} "sym=A"\)/);
  step("named link: codeAction: " + follow.title);

  await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: namedUri, version: 2 }, contentChanges: [{ text: named }] });
  namedDiags = await nextDiagnostics(namedUri);
  assert.deepEqual(namedDiags, []);
  step("named link: didChange: the re-pinned link has no diagnostics");

  assert.ok(registered.some((r) => r.method === "workspace/didChangeWatchedFiles"), JSON.stringify(registered));
  writeFileSync(srcPath, "// a line above\n" + readFileSync(srcPath, "utf8"));
  await conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(srcPath).href, type: FileChangeType.Changed }] });
  diags = await nextDiagnostics(uri);
  assert.equal(diags.length, 1, JSON.stringify(diags));
  assert.equal(diags[0].code, "integrity");
  step("didChangeWatchedFiles: " + diags[0].message);

  await conn.sendRequest(ShutdownRequest.type);
  await conn.sendNotification(ExitNotification.type);
  assert.equal(await exited, 0);
  step("shutdown");
  conn.dispose();
} catch (err) {
  console.error(`FAIL: ${err.stack ?? err}`);
  server.kill();
  process.exit(1);
}
