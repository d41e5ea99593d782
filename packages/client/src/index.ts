export { CLIENT_ERROR_CODE, INVALID_PARAMS_CODE, ProtocolError } from './protocol-error.js';
export { CLIENT_PACKAGE, ClientErrorCode, clientEnvelope, type ClientEnvelopeInit } from './errors.js';
