/**
 * The module the child process starts with, written next to the code in a temp folder outside the
 * workspace. It talks to the runner over file descriptor 3, one JSON message a line:
 *
 * - runner → child: `{t:'start', args}`, then `{t:'reply', id, ok, v | m, c}` for each door call;
 * - child → runner: `{t:'log', s}`, `{t:'door', id, op, a}`, and one ending: `{t:'ok', v}`, `{t:'bad', m}`
 *   or `{t:'threw', phase, m, n, c, p, r, at, door}`.
 *
 * The code shares the process, so it can write to fd 3 too; the protocol is built so that nothing it could
 * forge gives it more than it has: a door call is checked by the runner like any other, an ending only
 * says what the code could return or throw anyway, and a thrown door error is recognised by a WeakMap the
 * code cannot reach, so it can only point at an envelope the runner itself raised.
 *
 * Before the code loads, the harness takes away what the permission model does not stop (each measured
 * on Node 20.20): `process.kill` and `process._kill` (a same-user process may signal the host),
 * `process._debugProcess` (SIGUSR1 opens the host's inspector on 127.0.0.1:9229), `os.setPriority`;
 * `v8.setFlagsFromString` (it turns on --allow-natives-syntax at run time, and V8's runtime functions
 * are a way to corrupt memory and leave the permission model behind); `v8.setHeapSnapshotNearHeapLimit`
 * and `trace_events.createTracing` (they write files into the working directory with no write
 * permission; that directory is the run's temp folder anyway); and the global `fetch`, `WebSocket` and
 * `EventSource`, so code that reaches for the usual API gets an error pointing at `nodwyn.fetch` instead
 * of silently skipping the host check (node:http, node:net and node:dgram still work: Node 20 cannot
 * restrict the network).
 *
 * Written as a string: it runs in another process, from a file, and must not depend on how this package
 * is compiled. It uses no template literals so it can live inside one.
 */
export const HARNESS_SOURCE = String.raw`
import net from 'node:net';
import os from 'node:os';
import traceEvents from 'node:trace_events';
import v8 from 'node:v8';
import { syncBuiltinESMExports } from 'node:module';
import { pathToFileURL } from 'node:url';

const stringify = JSON.stringify;
const parse = JSON.parse;
const channel = new net.Socket({ fd: 3, readable: true, writable: true });
const send = (line) => { channel.write(line + '\n'); };
const pending = new Map();
const doorErrors = new WeakMap();
let nextId = 1;
let begin;
const started = new Promise((resolve) => { begin = resolve; });

channel.on('error', () => process.exit(70));
channel.setEncoding('utf8');
let buffered = '';
channel.on('data', (chunk) => {
  buffered += chunk;
  for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
    const message = parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (message.t === 'start') begin(message.args);
    else if (message.t === 'reply') answer(message);
  }
});

function answer(message) {
  const waiter = pending.get(message.id);
  if (!waiter) return;
  pending.delete(message.id);
  if (message.ok) return waiter.resolve(message.v);
  const error = new Error(message.m);
  error.name = 'NodwynDoorError';
  error.code = message.c;
  doorErrors.set(error, message.id);
  waiter.reject(error);
}

function call(op, a) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    send(stringify({ t: 'door', id, op, a }));
  });
}

function show(value) {
  if (typeof value === 'string') return value;
  try {
    const text = stringify(value);
    return text === undefined ? String(value) : text;
  } catch {
    try { return String(value); } catch { return '[unprintable]'; }
  }
}

function refuse(name, permission, why) {
  return function refused() {
    const error = new Error(name + ' is not available in the nodwyn Node sandbox: ' + why + '.');
    error.code = 'ERR_ACCESS_DENIED';
    error.permission = permission;
    error.resource = name;
    throw error;
  };
}

const OTHERS = 'it reaches other processes';
for (const name of ['kill', '_kill', '_debugProcess']) {
  Object.defineProperty(process, name, { value: refuse('process.' + name, 'OtherProcesses', OTHERS), writable: false, configurable: false, enumerable: false });
}
os.setPriority = refuse('os.setPriority', 'OtherProcesses', OTHERS);
v8.setFlagsFromString = refuse('v8.setFlagsFromString', 'EngineFlags', 'engine flags such as --allow-natives-syntax undo the sandbox');
v8.setHeapSnapshotNearHeapLimit = refuse('v8.setHeapSnapshotNearHeapLimit', 'FileSystemWrite', 'it writes files past the permission model');
traceEvents.createTracing = refuse('trace_events.createTracing', 'FileSystemWrite', 'it writes files past the permission model');
syncBuiltinESMExports();
for (const name of ['fetch', 'WebSocket', 'EventSource']) delete globalThis[name];

function locate(stack) {
  const match = /code\.mjs:(\d+)(?::(\d+))?/.exec(stack);
  return match ? 'line ' + match[1] + (match[2] ? ', column ' + match[2] : '') : undefined;
}

function report(phase, error) {
  const out = { t: 'threw', phase, m: 'a value that is not an Error was thrown' };
  try {
    if (error instanceof Error) {
      out.m = String(error.message).slice(0, 2000);
      out.n = String(error.name);
      if (typeof error.code === 'string') out.c = error.code;
      if (typeof error.permission === 'string') out.p = error.permission;
      if (typeof error.resource === 'string') out.r = error.resource.slice(0, 300);
      out.at = locate(String(error.stack));
      out.door = doorErrors.get(error);
    } else {
      out.m = show(error).slice(0, 2000);
    }
  } catch {
    out.m = 'an error that cannot be described was thrown';
  }
  send(stringify(out));
}

process.on('uncaughtException', (error) => report('run', error));
process.on('unhandledRejection', (error) => report('run', error));

const nodwyn = Object.freeze(Object.assign(Object.create(null), {
  readFile: (path) => call('readFile', { path }),
  writeFile: (path, text) => call('writeFile', { path, text }).then(() => undefined),
  fetch: (url, init) => call('fetch', { url: String(url), init: init ?? {} }),
  log: (...values) => { send(stringify({ t: 'log', s: values.map(show).join(' ') + '\n' })); },
}));

let fn;
let loaded = false;
try {
  fn = (await import(pathToFileURL(process.argv[2]).href)).default;
  loaded = true;
} catch (error) {
  report('load', error);
}
if (loaded && typeof fn !== 'function') {
  send(stringify({ t: 'threw', phase: 'shape', m: 'the module has no default export function (its default export is ' + (fn === undefined ? 'missing' : 'a ' + typeof fn) + ')' }));
} else if (loaded) {
  try {
    const value = await fn(await started, nodwyn);
    let text;
    let problem = value === undefined ? 'the function returned undefined' : 'the function returned a ' + typeof value;
    try { text = stringify(value); } catch (error) { problem = String(error && error.message); }
    if (typeof text === 'string') send('{"t":"ok","v":' + text + '}');
    else send(stringify({ t: 'bad', m: problem }));
  } catch (error) {
    report('run', error);
  }
}
`;
