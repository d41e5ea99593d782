import { isPlaceholder } from '../allow-list.js';
import { bestClass, decodeBase64, isPrintable } from '../base64.js';
import { Priority, type Rule, type Scan } from '../candidate.js';
import { stickyAt } from '../chars.js';
import { decodeView } from '../decoded-view.js';
import { passwordLike, secretLike } from '../value-checks.js';

/** YAML, JSON, or JSON printed inside another JSON string (`\"kind\": \"Secret\"`). */
const KIND = /(?:kind:[ \t]*Secret|\\?"kind\\?"\s*:\s*\\?"Secret\\?")(?![\w-])/y;
/** How far around `kind: Secret` its manifest may reach (kubectl prints `data` before `kind`). */
const REACH = 16 * 1024;
const YAML_BLOCK = /^([ \t]*)(data|stringData):[ \t]*$/gm;
const YAML_ENTRY = /^([ \t]+)([\w.-]+):[ \t]*(.*?)[ \t]*$/d;
const JSON_BLOCK = /"(data|stringData)"\s*:\s*\{([^{}]*)\}/dg;
const JSON_ENTRY = /"([\w.-]+)"\s*:\s*"([^"\\]*)"/dg;
const PASSWORD_KEY = /pass|pwd/i;
const SECRET_KEY = /secret|token|key|auth|cred|jks|p12|pfx/i;

/** One value of a Secret's `data` (base64) or `stringData` (plain) map, by its span. */
interface Entry {
  readonly key: string;
  readonly start: number;
  readonly end: number;
  readonly encoded: boolean;
}

/** An entry with its value as written, its span mapped to the scanned text. */
interface Value extends Entry {
  readonly raw: string;
}

/** The class of a Secret value: what it decodes to, else a Kubernetes secret when it reads as one. */
function classOf(scan: Scan, entry: Entry, value: string): string | undefined {
  if (isPrintable(value)) {
    const inner = bestClass(scan.inner(value));
    if (inner) return inner;
    if (PASSWORD_KEY.test(entry.key)) return passwordLike(value, true) ? 'kubernetes-secret' : undefined;
    if (SECRET_KEY.test(entry.key)) return value.length >= 8 && !isPlaceholder(value) ? 'kubernetes-secret' : undefined;
    return secretLike(value) ? 'kubernetes-secret' : undefined;
  }
  return SECRET_KEY.test(entry.key) || value.length >= 32 ? 'kubernetes-secret' : undefined;
}

function judge(scan: Scan, entry: Value): void {
  const value = entry.encoded ? decodeBase64(entry.raw) : entry.raw;
  if (value === undefined || value.length === 0) return;
  const cls = classOf(scan, entry, value);
  if (cls) scan.add({ class: cls, start: entry.start, end: entry.end, priority: Priority.structural, decoded: value });
}

/** The entries of the YAML `data:`/`stringData:` blocks between `from` and `to`. */
function yamlEntries(text: string, from: number, to: number): Entry[] {
  const entries: Entry[] = [];
  YAML_BLOCK.lastIndex = from;
  for (let block = YAML_BLOCK.exec(text); block && block.index < to; block = YAML_BLOCK.exec(text)) {
    let line = block.index + block[0].length + 1;
    while (line < to) {
      const next = text.indexOf('\n', line);
      const lineEnd = next < 0 || next > to ? to : next;
      const entry = YAML_ENTRY.exec(text.slice(line, text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd));
      if (!entry || entry[1]!.length <= block[1]!.length) break;
      const quoted = /^(["']).*\1$/.test(entry[3]!) ? 1 : 0;
      const [valueStart, valueEnd] = entry.indices![3]!;
      entries.push({ key: entry[2]!, start: line + valueStart + quoted, end: line + valueEnd - quoted, encoded: block[2] === 'data' });
      line = lineEnd + 1;
    }
  }
  return entries;
}

/** The entries of the JSON `"data"`/`"stringData"` objects between `from` and `to`. */
function jsonEntries(text: string, from: number, to: number): Entry[] {
  const entries: Entry[] = [];
  JSON_BLOCK.lastIndex = from;
  for (let block = JSON_BLOCK.exec(text); block && block.index < to; block = JSON_BLOCK.exec(text)) {
    const [bodyStart] = block.indices![2]!;
    JSON_ENTRY.lastIndex = 0;
    for (let entry = JSON_ENTRY.exec(block[2]!); entry; entry = JSON_ENTRY.exec(block[2]!)) {
      const [start, end] = entry.indices![2]!;
      entries.push({ key: entry[1]!, start: bodyStart + start, end: bodyStart + end, encoded: block[1] === 'data' });
    }
  }
  return entries;
}

/**
 * A Kubernetes Secret (YAML or JSON): every `data` value is base64 of a secret, so each is decoded and
 * judged, and redacted whole; `stringData` values are judged as they are.
 */
function kubernetesSecret(scan: Scan, start: number): void {
  if (scan.nested || !stickyAt(KIND, scan.text, start)) return;
  const text = scan.text;
  const separatorBefore = text.lastIndexOf('\n---', start);
  const separatorAfter = text.indexOf('\n---', start);
  const from = Math.max(separatorBefore < 0 ? 0 : separatorBefore, start - REACH);
  const to = Math.min(separatorAfter < 0 ? text.length : separatorAfter, start + REACH);
  for (const entry of valuesAround(text, from, to)) judge(scan, entry);
}

/**
 * The Secret's values between `from` and `to`. A manifest printed inside a JSON string (`…data:\n  key:
 * …`) has no real line breaks, so when nothing parses and escapes are there, a decoded copy is parsed.
 */
function valuesAround(text: string, from: number, to: number): Value[] {
  const direct = [...yamlEntries(text, from, to), ...jsonEntries(text, from, to)];
  if (direct.length > 0 || !text.slice(from, to).includes('\\n')) return direct.map((e) => ({ ...e, raw: text.slice(e.start, e.end) }));
  const view = decodeView(text, from, to, false);
  return [...yamlEntries(view.text, 0, view.text.length), ...jsonEntries(view.text, 0, view.text.length)]
    .filter((e) => e.end > e.start)
    .map((e) => ({ ...e, raw: view.text.slice(e.start, e.end), start: view.starts[e.start]!, end: view.ends[e.end - 1]! }));
}

/** Kubernetes Secret manifests. */
export const kubernetesRules: Rule[] = [
  { anchors: ['kind: Secret', '"kind": "Secret"', '"kind":"Secret"', '\\"kind\\": \\"Secret\\"', '\\"kind\\":\\"Secret\\"'], handle: kubernetesSecret },
];
