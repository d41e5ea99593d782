export * from './describe-provider-wire-conformance.js';
export type { WireDialect, WireErrorReply, WireFaults, WireReply, WireResetReply, WireStreamReply, WireToolCall, WireUsage } from './wire-reply.js';
export type { WireRequestRecord } from './wire-request-record.js';
export * from './wire-server.js';
