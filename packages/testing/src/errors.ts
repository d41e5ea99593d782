/** Codes of the envelopes the test helpers build. */
export const TestingCodes = {
  LIST_EXHAUSTED: 'LIST_EXHAUSTED',
  LIST_CANCELLED: 'LIST_CANCELLED',
  /** A `recordingFrontendClient` was called after `close()`. */
  CLIENT_CLOSED: 'CLIENT_CLOSED',
} as const;
