/**
 * The kernel's event log: append-only, hash-chained, with HMAC-signed checkpoints (docs/architecture.md §3).
 */
export { EventLog } from './event-log.js';
export type { EventLogOptions } from './options.js';
export type { SessionRow } from './rows.js';
export type { AppendDraft } from './draft.js';
export type { VerifyProblem, VerifyReport } from './verify.js';
export type { HeadMismatch } from './heads.js';
export type { ListenerErrorHandler, LogListener } from './listeners.js';
export { LogCodes, type LogCode } from './errors.js';
export { LOG_KEY_BYTES } from './key.js';
export { canonicalJson, eventPreimage, hashEvent, hashEventText, sha256Hex, type UnhashedEvent } from './event-hash.js';
export { checkpointMac, checkpointValid, type Checkpoint } from './checkpoint.js';
export { findJsonProblem, type JsonProblem } from './json-value.js';
