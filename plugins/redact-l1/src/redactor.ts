import type { RedactionFinding, Redactor } from '@nodwyn/plugin-api';
import { detect } from './detect.js';
import { redactError } from './errors.js';
import { placeholderOf } from './placeholder.js';
import type { Detection } from './resolve.js';

/** What `redact` returns: the text with every secret replaced, and where each one was. */
export interface Redaction {
  readonly text: string;
  readonly findings: readonly RedactionFinding[];
}

/**
 * Replaces each detection (sorted, disjoint, as `detect` returns them) with its placeholder. Built with
 * `+=`, so V8 keeps the result as a rope over the original and copies it once, where it is first read;
 * joining into a flat string here would copy a 256 KB result an extra time.
 */
export function applyDetections(text: string, detections: readonly Detection[]): Redaction {
  if (detections.length === 0) return { text, findings: [] };
  let out = '';
  let at = 0;
  for (const d of detections) {
    out += text.slice(at, d.start) + placeholderOf(d.class);
    at = d.end;
  }
  out += text.slice(at);
  return { text: out, findings: detections.map((d) => ({ class: d.class, start: d.start, end: d.end })) };
}

/**
 * Redacts `text`: every detected secret becomes `[REDACTED <class>]`; findings give each secret's class
 * and span in the original text, never its value. Idempotent: redacting the result changes nothing.
 */
export function redact(text: string): Redaction {
  return applyDetections(text, detect(text));
}

/** The L1 redactor with the detections behind it, for the stages that also feed the taint layer. */
export interface DetectingRedactor extends Redactor {
  detect(text: string): readonly Detection[];
}

/**
 * Builds the redactor the plugin serves. It fails closed: if detection throws, it throws a
 * `REDACT_FAILED` envelope that names no part of the text, so a caller can never fall back to the raw
 * text by mistake. `find` is replaceable for tests of that path.
 */
export function createRedactor(find: (text: string) => readonly Detection[] = detect): DetectingRedactor {
  const safeDetect = (text: string): readonly Detection[] => {
    try {
      return find(text);
    } catch (error) {
      throw redactError(
        'REDACT_FAILED',
        { operation: 'redact', remediation: 'The secret detector failed, so the text was withheld rather than passed on unredacted. Report this to the plugin author; retrying will fail the same way.' },
        error,
      );
    }
  };
  return {
    detect: safeDetect,
    redact: (text) => applyDetections(text, safeDetect(text)),
  };
}
