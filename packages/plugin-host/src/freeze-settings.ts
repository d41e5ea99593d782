/**
 * A deep-frozen copy of the user's settings. Copied so freezing does not reach into the caller's
 * object; deep so no plugin can change what another plugin (or the app) reads.
 */
export function freezeSettings(settings: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return deepFreeze(structuredClone(settings));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
