export { NodwynClient, type ClientOptions, type ClientTransport, type Dialer, type FsHandlers } from './nodwyn-client.js';
export { connectStream, connectWebSocket, type WebSocketConnectOptions } from './connect.js';
export { linkedStreams, type LinkedStreams } from './linked-streams.js';
export { webSocketStream, type WebSocketStreamOptions } from './web-socket-stream.js';
export type { WebSocketConstructor, WebSocketEventLike, WebSocketEventType, WebSocketLike } from './web-socket-like.js';
export { backoffDelay, reconnectPolicy, type ReconnectOptions, type ReconnectPolicy } from './backoff.js';
export { CLIENT_ERROR_CODE, INVALID_PARAMS_CODE, ProtocolError } from './protocol-error.js';
export { CLIENT_PACKAGE, ClientErrorCode, clientEnvelope, type ClientEnvelopeInit } from './errors.js';
export type { ClientEvent, ConnectionState, FrontendClient, PermissionHandler } from '@nodwyn/protocol';
