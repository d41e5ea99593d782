import type { LogReader } from '@nodwyn/plugin-api';
import type { CapabilityVersion } from './capability.js';

/** Whether the signed log holds the admission of a stored active version. */
export type AdmissionProof = (version: CapabilityVersion) => boolean;

/**
 * The registry's rows live in the plugin store, which anyone with write access to the database can
 * rewrite, code and hash together, so the row's own hash proves nothing about where the row came from.
 * The `capability.admitted` event that admission appended in the same transaction names the hash, and
 * that event is signed: a log checkpoint covers it from the moment it commits. So an active version runs
 * only when the session it was admitted in holds a signed admission of its name, version and hash.
 * A proof found is kept for the process (a signed event does not change; an edited row has another hash
 * and is asked about anew).
 */
export function admissionProof(log: LogReader): AdmissionProof {
  const proven = new Set<string>();
  return (version) => {
    const id = `${version.name}\u0000${version.version}\u0000${version.hash}`;
    if (proven.has(id)) return true;
    if (version.session === undefined || !signedAdmission(log, version.session, version)) return false;
    proven.add(id);
    return true;
  };
}

function signedAdmission(log: LogReader, session: string, version: CapabilityVersion): boolean {
  for (const event of log.read(session)) {
    if (event.type !== 'capability.admitted') continue;
    // Match on what the signature vouches for, not on the row as read.
    const signed = log.signed(session, event.seq);
    const payload = signed?.type === 'capability.admitted' ? (signed.payload as { name?: unknown; version?: unknown; hash?: unknown }) : undefined;
    if (payload?.name === version.name && payload.version === version.version && payload.hash === version.hash) return true;
  }
  return false;
}
