import { type IngressStage, type LogStage, type TaintTracker } from '@nodwyn/plugin-api';
import { redactDeep } from './deep-redact.js';
import { applyDetections, type DetectingRedactor } from './redactor.js';

/** Name of the ingress stage. */
export const INGRESS_STAGE = 'redact-l1-ingress';
/** Name of the log stage. */
export const LOG_STAGE = 'redact-l1-log';

/** The sorted union of two tag sets. */
function mergeTags(a: readonly string[] = [], b: readonly string[]): readonly string[] {
  return [...new Set([...a, ...b])].sort();
}

// A tool's line-number gutter (`     2\t`) and PEM armour are the tool's and the format's, not the secret's.
const GUTTER = /^ *\d+\t/;
const ARMOUR = /^-----(BEGIN|END) [A-Z0-9 ]+-----$/;

/**
 * What of a detected span L2 should remember: each line on its own, without the gutter or armour, so a
 * multi-line secret read with line numbers does not make the numbering itself (or `-----BEGIN`) a secret
 * that every later text with line numbers would match.
 */
function secretLines(span: string): string[] {
  if (!span.includes('\n')) return [span];
  return span
    .split(/\r?\n/)
    .map((line) => line.replace(GUTTER, '').trim())
    .filter((line) => line.length > 0 && !ARMOUR.test(line));
}

/**
 * Redacts a tool result before the model sees it, tags the result with the classes found, and hands
 * each original value (and its decoded forms) to the taint layer so L2 can recognise it later. A
 * detector failure throws, and the guard denies the call.
 */
export function ingressStage(redactor: DetectingRedactor, tracker: () => TaintTracker | undefined): IngressStage {
  return {
    name: INGRESS_STAGE,
    slot: 'ingress',
    filter(call, result) {
      const detections = redactor.detect(result.content);
      if (detections.length === 0) return result;
      const taintLayer = tracker();
      for (const d of detections) {
        const values = new Set([...secretLines(result.content.slice(d.start, d.end)), ...d.decoded]);
        for (const value of values) taintLayer?.remember(call.session, value, [d.class]);
      }
      const classes = [...new Set(detections.map((d) => d.class))];
      return { ...result, content: applyDetections(result.content, detections).text, taint: mergeTags(result.taint, classes) };
    },
  };
}

/**
 * Redacts every string of an event's payload before it is written, whatever wrote it: the person's
 * prompt, the model's text and tool arguments, tool results, envelopes (`received_value`). A detector
 * failure throws, and the kernel refuses to write the event. What it redacts in the person's own events
 * (a token pasted into the prompt) is handed to the taint layer too, so L2 knows it in other spellings;
 * the model's are not, since a value the model wrote is no secret it was shown.
 */
export function logStage(redactor: DetectingRedactor, tracker: () => TaintTracker | undefined = () => undefined): LogStage {
  return {
    name: LOG_STAGE,
    slot: 'log',
    filter(draft) {
      const taintLayer = draft.actor === 'user' ? tracker() : undefined;
      const payload = redactDeep(draft.payload, (text) => {
        const redaction = redactor.redact(text);
        for (const f of redaction.findings) taintLayer?.remember(draft.session, text.slice(f.start, f.end), [f.class]);
        return redaction.text;
      }) as typeof draft.payload;
      return payload === draft.payload ? draft : { ...draft, payload };
    },
  };
}
