/** Bounds that keep a damaged or hostile keychain file from exhausting memory. */
export const LIMITS = {
  fileBytes: 8 * 1024 * 1024,
  entries: 10_000,
  valueBytes: 64 * 1024,
} as const;

/** Secret names, as handles carry them (`{{secret:NAME}}`). */
export const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** Secret classes, as bindings name them. */
export const CLASS = /^[a-z0-9][a-z0-9._-]{0,63}$/;
