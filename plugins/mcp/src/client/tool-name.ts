import { createHash } from 'node:crypto';
import { MODEL_NAME } from '@nodwyn/plugin-api';

const MAX = 64;

/** Lower-case letters, digits and single underscores; anything else becomes `_`. */
function sanitize(word: string): string {
  return word.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'x';
}

function short(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}

/**
 * The model's name for tool `tool` of server `server`: `mcp_<server>_<tool>`, sanitized to
 * `^[a-z][a-z0-9_]{0,63}$`. A name too long is cut and given a digest of the original, so two long names
 * stay apart; `taken` names get a digest suffix too (two tools that sanitize alike).
 */
export function modelToolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const full = `mcp_${sanitize(server)}_${sanitize(tool)}`;
  const digest = short(`${server}\u0000${tool}`);
  let name = full.length <= MAX ? full : `${full.slice(0, MAX - 7).replace(/_+$/, '')}_${digest}`;
  for (let n = 0; taken.has(name); n += 1) {
    const suffix = `_${short(`${digest}${n}`)}`;
    name = `${full.slice(0, MAX - suffix.length).replace(/_+$/, '')}${suffix}`;
  }
  if (!MODEL_NAME.test(name)) throw new Error(`mcp: the tool name ${name} does not fit the model's name rule`);
  return name;
}
