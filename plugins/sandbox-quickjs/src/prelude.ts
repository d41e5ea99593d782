/**
 * Script evaluated in every fresh context before the capability's code. It captures the intrinsics it
 * relies on first, so nothing the code later does to `JSON`, `Object` or the prototypes can change how
 * arguments are parsed, how the result is checked, or what the door does. It receives the four host
 * functions as arguments and never puts them on the global object: the only way out is the frozen
 * `nodwyn` object handed to the default export.
 *
 * It answers the kit the host drives a run with: `nodwyn`, `args(text)` (JSON.parse), `result(value)`
 * (strict JSON text, or a `NodwynResultError` naming the first path that is not JSON).
 */
export const PRELUDE_SOURCE = String.raw`(function (hostRead, hostWrite, hostFetch, hostLog) {
  'use strict';
  const create = Object.create;
  const freeze = Object.freeze;
  const keys = Object.keys;
  const getPrototypeOf = Object.getPrototypeOf;
  const ObjectPrototype = Object.prototype;
  const isArray = Array.isArray;
  const isFinite = Number.isFinite;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const toText = String;
  const ErrorClass = Error;
  const MAX_DEPTH = 200;

  function notJson(path, what) {
    const error = new ErrorClass(path + ' is ' + what + ', which is not JSON');
    error.name = 'NodwynResultError';
    return error;
  }

  function kindOf(value) {
    if (value === undefined) return 'undefined';
    if (typeof value === 'function') return 'a function';
    if (typeof value === 'symbol') return 'a symbol';
    if (typeof value === 'bigint') return 'a bigint';
    if (typeof value === 'number') return toText(value);
    const proto = getPrototypeOf(value);
    const name = proto && proto.constructor && typeof proto.constructor.name === 'string' ? proto.constructor.name : 'an exotic object';
    return 'a ' + name;
  }

  function encode(value, path, stack, depth) {
    if (value === null) return 'null';
    if (typeof value === 'string') return stringify(value);
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    if (typeof value === 'number' && isFinite(value)) return stringify(value);
    if (typeof value !== 'object') throw notJson(path, kindOf(value));
    if (depth >= MAX_DEPTH) throw notJson(path, 'nested deeper than ' + MAX_DEPTH + ' levels');
    for (let i = 0; i < depth; i++) if (stack[i] === value) throw notJson(path, 'a reference back to ' + (i === 0 ? '$' : 'an enclosing value'));
    stack[depth] = value;
    let out;
    if (isArray(value)) {
      out = '[';
      for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + encode(value[i], path + '[' + i + ']', stack, depth + 1);
      out += ']';
    } else {
      const proto = getPrototypeOf(value);
      if (proto !== ObjectPrototype && proto !== null) throw notJson(path, kindOf(value));
      const names = keys(value);
      out = '{';
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        out += (i > 0 ? ',' : '') + stringify(name) + ':' + encode(value[name], path + '.' + name, stack, depth + 1);
      }
      out += '}';
    }
    stack[depth] = undefined;
    return out;
  }

  function show(value) {
    try {
      if (typeof value === 'string') return value;
      const text = stringify(value);
      return text === undefined ? toText(value) : text;
    } catch (error) {
      return '[unprintable ' + typeof value + ']';
    }
  }

  const door = create(null);
  door.readFile = function readFile(path) { return hostRead(path); };
  door.writeFile = function writeFile(path, text) { return hostWrite(path, text); };
  door.fetch = function fetch(url, init) { return hostFetch(url, init === undefined ? undefined : encode(init, 'options', [], 0)); };
  door.log = function log(...values) {
    let line = '';
    for (let i = 0; i < values.length; i++) line += (i > 0 ? ' ' : '') + show(values[i]);
    hostLog(line);
  };

  return {
    nodwyn: freeze(door),
    args: function (text) { return parse(text); },
    result: function (value) { return encode(value, 'result', [], 0); },
  };
})`;
