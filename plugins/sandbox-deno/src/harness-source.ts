/**
 * The module Deno runs. It reads one JSON line from stdin (nonce, code, args, grants, output cap), takes
 * what it needs from the globals before any of the code runs (so a run that replaces JSON.stringify,
 * Promise.prototype.then or console still gets its own ending reported), loads the code from a blob: URL (a dynamic import, so Deno checks every file the code imports against the grants; a
 * file on disk imported statically would be part of the initial module graph, which Deno loads without
 * checks), calls its default export with the args and the `nodwyn` door, and exits.
 *
 * It speaks in records on stdout, each on its own line after the marker `\x1e<nonce> `: `log <JSON
 * string>` as the code logs (so logs survive a timeout), `call <JSON>` for a door call, then one
 * `end <JSON report>`. The code never
 * sees the nonce (it was read from stdin before the code loaded), so nothing it prints can pass for a
 * record; what it writes to stdout by other means arrives as plain lines.
 *
 * readFile and writeFile are served by the host: a `call <JSON>` record asks, and the host answers one
 * JSON line on stdin, after read_file or write_file ran through the guard. So what the code reads has
 * passed the text layers and carries its taint, and writes meet the same checks as the model's own. The
 * process has no file permissions at all; the code can read stdin itself, but that only loses it its own
 * answers. Calls are made one at a time, so answers come back in order.
 */
export const HARNESS_SOURCE = String.raw`
const { apply } = Reflect;
const { stringify, parse } = JSON;
const freeze = Object.freeze;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const URLCtor = URL;
const NotCapable = Deno.errors.NotCapable;
const denoExit = Deno.exit;
const inspect = Deno.inspect;
const stdin = Deno.stdin;
const readStdinAsync = Deno.stdin.read;
const PromiseCtor = Promise;
const stdout = Deno.stdout;
const writeSync = Deno.stdout.writeSync;
const nativeFetch = globalThis.fetch;
const addListener = globalThis.addEventListener;
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode;
const decoder = new TextDecoder();
const decode = TextDecoder.prototype.decode;
const typedArray = Object.getPrototypeOf(Uint8Array.prototype);
const subarray = typedArray.subarray;
const bytesIndexOf = typedArray.indexOf;
const bytesSet = typedArray.set;
const byteCount = Object.getOwnPropertyDescriptor(typedArray, 'length').get;
const doorInfo = new WeakMap();
const wmGet = WeakMap.prototype.get;
const wmSet = WeakMap.prototype.set;
const split = String.prototype.split;
const indexOf = String.prototype.indexOf;
const sliceText = String.prototype.slice;
const toLower = String.prototype.toLowerCase;
const join = Array.prototype.join;
const includes = Array.prototype.includes;
const isArray = Array.isArray;
const shift = Array.prototype.shift;

let stdinRest = new Uint8Array(0);
function takeLine() {
  const at = apply(bytesIndexOf, stdinRest, [10]);
  if (at < 0) return undefined;
  const line = apply(decode, decoder, [apply(subarray, stdinRest, [0, at])]);
  stdinRest = apply(subarray, stdinRest, [at + 1]);
  return line;
}
function keep(buffer, n) {
  const all = new Uint8Array(apply(byteCount, stdinRest, []) + n);
  apply(bytesSet, all, [stdinRest, 0]);
  apply(bytesSet, all, [apply(subarray, buffer, [0, n]), apply(byteCount, stdinRest, [])]);
  stdinRest = all;
}
// The first line synchronously: the web streams behind Deno.stdin.readable cost ~11 ms to set up (measured).
function readFirstLine() {
  const buffer = new Uint8Array(65536);
  for (let line = takeLine(); ; line = takeLine()) {
    if (line !== undefined) return line;
    const n = stdin.readSync(buffer);
    if (n === null || n === 0) throw new ErrorCtor('the host closed stdin before its message');
    keep(buffer, n);
  }
}
async function readLine() {
  const buffer = new Uint8Array(65536);
  for (let line = takeLine(); ; line = takeLine()) {
    if (line !== undefined) return line;
    const n = await apply(readStdinAsync, stdin, [buffer]);
    if (n === null || n === 0) return undefined;
    keep(buffer, n);
  }
}
const input = parse(readFirstLine());
const MARK = '\u001e' + input.nonce + ' ';
const net = input.net;
const cap = input.outputCap;
let logBytes = 0;
let truncated = false;
let done = false;
let codeUrl = '';

function bytesOf(text) { return apply(encode, encoder, [text]); }
function byteLength(text) { return apply(byteCount, bytesOf(text), []); }
function cutToBytes(text, max) {
  const bytes = bytesOf(text);
  if (apply(byteCount, bytes, []) <= max) return text;
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return apply(decode, decoder, [apply(subarray, bytes, [0, end])]);
}
function show(value) {
  if (typeof value === 'string') return value;
  try { return inspect(value, { colors: false, depth: 4 }); } catch { return '[a value that cannot be shown]'; }
}
function emit(record) {
  const bytes = bytesOf('\n' + MARK + record + '\n');
  const total = apply(byteCount, bytes, []);
  let offset = 0;
  while (offset < total) offset += apply(writeSync, stdout, [apply(subarray, bytes, [offset])]);
}
function appendLog(values) {
  if (truncated) return;
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : ' ') + show(values[i]);
  line += '\n';
  const size = byteLength(line);
  if (logBytes + size > cap) {
    line = cutToBytes(line, cap - logBytes);
    logBytes = cap;
    truncated = true;
  } else {
    logBytes += size;
  }
  if (line !== '') emit('log ' + stringify(line));
}

function doorError(code, message, parameter, received, ref) {
  const error = new ErrorCtor(message);
  apply(wmSet, doorInfo, [error, { code, message, parameter, received, ref }]);
  return error;
}
function messageOf(error) {
  try {
    const text = error instanceof ErrorCtor ? error.name + ': ' + error.message : show(error);
    return codeUrl === '' ? text : apply(join, apply(split, text, [codeUrl]), ['code']);
  } catch {
    return 'an error that cannot be shown';
  }
}
function lineOf(error) {
  let stack = '';
  try { stack = '' + (error instanceof ErrorCtor ? error.stack + '\n' + error.message : ''); } catch { return undefined; }
  const at = codeUrl === '' ? -1 : apply(indexOf, stack, [codeUrl + ':']);
  if (at < 0) return undefined;
  const rest = apply(split, apply(sliceText, stack, [at + codeUrl.length + 1, at + codeUrl.length + 24]), [':']);
  const line = parseInt(rest[0], 10);
  const column = parseInt(rest[1], 10);
  return line > 0 ? { line, column: column > 0 ? column : undefined } : undefined;
}
// Deno reports a refused import as a TypeError that says what it required, a refused API as NotCapable.
function isDenial(error) {
  if (error instanceof NotCapable) return true;
  try { return error instanceof TypeErrorCtor && apply(indexOf, '' + error.message, ['Requires ']) === 0; } catch { return false; }
}
function failureOf(error, kind) {
  let door;
  try { door = apply(wmGet, doorInfo, [error]); } catch { door = undefined; }
  if (door !== undefined) return { ok: false, kind: 'door', code: door.code, message: door.message, parameter: door.parameter, received: door.received, ref: door.ref };
  if (isDenial(error)) return { ok: false, kind: 'denied', message: messageOf(error) };
  return { ok: false, kind, message: messageOf(error), position: lineOf(error) };
}
function end(json) {
  done = true;
  emit('end ' + json);
  denoExit(0);
}
function finish(report) {
  if (done) return;
  report.truncated = truncated;
  end(stringify(report));
}
function succeed(value) {
  if (done) return;
  let text;
  try { text = value === undefined ? undefined : stringify(value); } catch (error) { return finish({ ok: false, kind: 'not-json', message: messageOf(error) }); }
  if (typeof text !== 'string') return finish({ ok: false, kind: 'not-json', message: 'the function returned ' + (value === undefined ? 'undefined' : 'a ' + typeof value) });
  const size = byteLength(text);
  if (size > cap) return finish({ ok: false, kind: 'output', size });
  end('{"ok":true,"truncated":' + truncated + ',"size":' + size + ',"value":' + text + '}');
}

function relativeParts(path, parameter) {
  if (typeof path !== 'string' || path === '' || apply(indexOf, path, ['\0']) >= 0) {
    throw doorError('SANDBOX_DOOR_ARGUMENT', 'Pass the file path as a non-empty string relative to the workspace root, e.g. "src/data.json".', parameter, path);
  }
  const first = path[0];
  if (first === '/' || first === '\\' || (path.length > 1 && path[1] === ':')) {
    throw doorError('SANDBOX_PATH_OUTSIDE', 'The path is absolute; only files inside the workspace are reachable. Pass a path relative to the workspace root.', parameter, path);
  }
  const raw = apply(split, path, [/[\\/]+/]);
  const parts = [];
  for (let i = 0; i < raw.length; i++) {
    const part = raw[i];
    if (part === '' || part === '.') continue;
    if (part === '..') throw doorError('SANDBOX_PATH_OUTSIDE', 'The path holds ..; only files inside the workspace are reachable. Pass a path relative to the workspace root without ..', parameter, path);
    if (apply(toLower, part, []) === '.nodwyn') throw doorError('SANDBOX_PATH_RESERVED', '.nodwyn/ is never reachable from sandboxed code, whatever the grants; use another path.', parameter, path);
    parts[parts.length] = part;
  }
  if (parts.length === 0) throw doorError('SANDBOX_DOOR_ARGUMENT', 'The path names the workspace itself; name a file in it.', parameter, path);
  return parts;
}
// One host call at a time: the host answers in order, and no read of stdin is pending between calls, so a
// run that waits on nothing still ends as one.
let busy = false;
const waiting = [];
async function hostCall(op, args) {
  if (busy) await new PromiseCtor((resolve) => { waiting[waiting.length] = resolve; });
  busy = true;
  try {
    emit('call ' + stringify({ op, args }));
    const line = await readLine();
    if (line === undefined) throw doorError('SANDBOX_DOOR_ARGUMENT', 'The host stopped answering ' + op + '.', 'path', args.path);
    const answer = parse(line);
    if (!answer.ok) throw doorError(answer.code, answer.message, 'path', args.path, answer.ref);
    return answer.value;
  } finally {
    const next = apply(shift, waiting, []);
    if (next === undefined) busy = false;
    else next();
  }
}

async function readFile(path) {
  if (!input.read) throw doorError('SANDBOX_GRANT_MISSING', 'readFile needs the read grant, which this capability does not have; register it again asking for read.', 'grants.read');
  return hostCall('readFile', { path: apply(join, relativeParts(path, 'path'), ['/']) });
}
async function writeFile(path, text) {
  if (!input.write) throw doorError('SANDBOX_GRANT_MISSING', 'writeFile needs the write grant, which this capability does not have; register it again asking for write.', 'grants.write');
  const parts = relativeParts(path, 'path');
  if (typeof text !== 'string') throw doorError('SANDBOX_DOOR_ARGUMENT', 'writeFile takes the text as a string; convert the value first (JSON.stringify for data).', 'text', typeof text);
  await hostCall('writeFile', { path: apply(join, parts, ['/']), text });
}
async function fetchDoor(url, options) {
  if (!isArray(net) || net.length === 0) throw doorError('SANDBOX_GRANT_MISSING', 'fetch needs the net grant naming the host, which this capability does not have; register it again asking for the host.', 'grants.net');
  let target;
  try { target = new URLCtor('' + url); } catch { throw doorError('SANDBOX_DOOR_ARGUMENT', 'fetch takes an absolute http or https URL.', 'url', url); }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw doorError('SANDBOX_DOOR_ARGUMENT', 'fetch reaches only http and https URLs.', 'url', target.href);
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  if (!apply(includes, net, [target.hostname]) && !apply(includes, net, [target.hostname + ':' + port])) {
    throw doorError('SANDBOX_HOST_NOT_GRANTED', 'fetch may reach only the granted hosts (' + apply(join, net, [', ']) + '), not ' + target.host + '; names are compared as written, so localhost is not 127.0.0.1.', 'url', target.href);
  }
  const o = options === undefined || options === null ? {} : options;
  if (o.body !== undefined && typeof o.body !== 'string') throw doorError('SANDBOX_DOOR_ARGUMENT', 'fetch takes the body as a string; JSON.stringify data first.', 'options.body', typeof o.body);
  let response;
  try {
    response = await nativeFetch(target.href, { method: o.method === undefined ? 'GET' : '' + o.method, headers: o.headers === undefined ? {} : o.headers, body: o.body, redirect: 'manual' });
  } catch (error) {
    if (error instanceof NotCapable) throw doorError('SANDBOX_ACCESS_DENIED', 'Deno refused: ' + error.message, 'url', target.href);
    throw doorError('SANDBOX_FETCH_FAILED', 'The request to ' + target.host + ' failed: ' + messageOf(error), 'url', target.href);
  }
  const headers = {};
  response.headers.forEach((value, name) => { headers[name] = value; });
  return { status: response.status, headers, body: await response.text() };
}

const nodwyn = freeze({ readFile, writeFile, fetch: fetchDoor, log: (...values) => appendLog(values) });
const quiet = { log: appendLog, info: appendLog, warn: appendLog, error: appendLog, debug: appendLog, trace: appendLog };
for (const name of ['log', 'info', 'warn', 'error', 'debug', 'trace']) console[name] = (...values) => quiet[name](values);
apply(addListener, globalThis, ['unhandledrejection', (event) => { event.preventDefault(); finish(failureOf(event.reason, 'threw')); }]);
apply(addListener, globalThis, ['error', (event) => { event.preventDefault(); finish(failureOf(event.error, 'threw')); }]);

// A blob: URL rather than data:, whose long URL V8 shortens in stack traces, which would hide the line.
codeUrl = URL.createObjectURL(new Blob([input.code], { type: 'text/javascript' }));
let loaded;
try {
  loaded = await import(codeUrl);
} catch (error) {
  finish(failureOf(error, 'load'));
}
const fn = loaded.default;
if (typeof fn !== 'function') {
  finish({ ok: false, kind: 'shape', message: 'the module has no default export function (its default export is ' + (fn === undefined ? 'missing' : 'a ' + typeof fn) + ')' });
}
let value;
try {
  value = await fn(input.args, nodwyn);
} catch (error) {
  finish(failureOf(error, 'threw'));
}
succeed(value);
`;
