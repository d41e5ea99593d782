import type { ClientEvent, PermissionHandler } from '@nodwyn/protocol';

/** An ACP `session/update` as the client delivers it. */
export type SessionUpdate = Extract<ClientEvent, { type: 'update' }>['update'];
/** One kind of `session/update`. */
export type UpdateOf<K extends SessionUpdate['sessionUpdate']> = Extract<SessionUpdate, { sessionUpdate: K }>;
/** ACP's `session/request_permission` request. */
export type PermissionRequest = Parameters<PermissionHandler>[0];
/** What a permission handler answers. */
export type PermissionResponse = Awaited<ReturnType<PermissionHandler>>;
