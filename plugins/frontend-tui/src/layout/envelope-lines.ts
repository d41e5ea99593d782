import type { ShownEnvelope } from '../state/finished-item.js';
import type { Line } from '../terminal/paint.js';
import { sanitize } from '../terminal/sanitize.js';
import { wrapSpans } from '../terminal/wrap.js';

/** A failure as a person reads it: its code, then what to do, wrapped. */
export function envelopeLines(envelope: ShownEnvelope, width: number): Line[] {
  const code = envelope.code ?? envelope.category ?? 'FAILED';
  return wrapSpans([{ text: code, style: { fg: 'red', bold: true } }, { text: ` ${sanitize(envelope.remediation)}` }], width);
}
