import { codedErrors } from '@nodwyn/plugin-api';

/** The package name envelopes of the server carry in `plugin`. */
export const SERVER_PACKAGE = '@nodwyn/server';

/** Codes of the server's envelopes, each with the one category it travels under. */
export const ServerCodes = {
  /** A request's params do not match what the method takes. */
  PARAMS_INVALID: 'VALIDATION_FAILED',
  /** A prompt arrived for a session that is running one already; one prompt at a time per session. */
  SESSION_BUSY: 'PRECONDITION_FAILED',
  /** No session of the log has that id. */
  SESSION_NOT_FOUND: 'NOT_FOUND',
  /** `cwd` is not a folder nodwyn can work in. */
  WORKSPACE_INVALID: 'VALIDATION_FAILED',
  /** The session's own workspace is gone, so it cannot be continued there. */
  WORKSPACE_MISSING: 'PRECONDITION_FAILED',
  /** A prompt block of a kind nodwyn's models cannot take yet (image, audio, binary resource). */
  CONTENT_UNSUPPORTED: 'VALIDATION_FAILED',
  /** A prompt with no text in it. */
  PROMPT_EMPTY: 'VALIDATION_FAILED',
  /** No confirmation with that call id is pending in the session. */
  CONFIRMATION_NOT_PENDING: 'NOT_FOUND',
  /** An option id a confirmation did not offer (a security question offers no "always"). */
  CONFIRMATION_OPTION_INVALID: 'VALIDATION_FAILED',
  /** The turn failed; the envelope of why travels in `data`. */
  TURN_FAILED: 'INTERNAL',
  /** A request without the daemon's token (or with another). */
  TOKEN_REQUIRED: 'AUTH_FAILED',
  /** An HTTP path the daemon does not serve. */
  NOT_SERVED: 'NOT_FOUND',
  /** A web console login link that was used already, expired, or never issued. */
  LOGIN_LINK_INVALID: 'AUTH_FAILED',
  /** A request from a web page of another origin than the daemon's own (checked before any credential). */
  ORIGIN_FORBIDDEN: 'PERMISSION_DENIED',
  /** The web console's bundle is not there to serve (not built, or not shipped with this nodwyn). */
  WEB_BUNDLE_MISSING: 'NOT_FOUND',
  /** A login link was asked of an agent that serves no web console (stdio, in-process). */
  WEB_CONSOLE_UNAVAILABLE: 'PRECONDITION_FAILED',
  /** The daemon was asked to listen beyond loopback without a TLS certificate and key. */
  TLS_REQUIRED: 'PRECONDITION_FAILED',
  /** The daemon failed to answer an HTTP request (reading the bundle failed, say). */
  HTTP_FAILED: 'INTERNAL',
  /** The TLS certificate or key file could not be read, or does not make a TLS server. */
  TLS_INVALID: 'PRECONDITION_FAILED',
  /** A frame that is not one JSON-RPC message in JSON. */
  FRAME_INVALID: 'VALIDATION_FAILED',
  /** The client's file read or write through ACP `fs/*` failed. */
  CLIENT_FS_FAILED: 'TRANSPORT_FAILED',
  /** A second daemon was started for the same NODWYN_HOME. */
  DAEMON_RUNNING: 'PRECONDITION_FAILED',
  /** `nodwyn serve --stop` found no daemon. */
  DAEMON_NOT_RUNNING: 'NOT_FOUND',
  /** The daemon could not listen on the port asked for. */
  DAEMON_LISTEN_FAILED: 'PRECONDITION_FAILED',
  /** The daemon did not stop within its grace period. */
  DAEMON_STOP_TIMEOUT: 'TIMEOUT',
  /** A file-completion prefix that reaches out of the workspace (absolute, `..`, a NUL byte). */
  PREFIX_INVALID: 'VALIDATION_FAILED',
  /** A workspace inside one of nodwyn's own folders, whose files no front end may list. */
  WORKSPACE_PROTECTED: 'PERMISSION_DENIED',
  /** Provider setup named a provider the distribution does not offer. */
  PROVIDER_UNKNOWN: 'VALIDATION_FAILED',
  /** A model the provider does not list (and config.toml does not price). */
  MODEL_UNKNOWN: 'VALIDATION_FAILED',
  /** A base URL that is not http(s), or none for a provider that needs one. */
  BASE_URL_INVALID: 'VALIDATION_FAILED',
  /** A provider that needs an API key was set up without one, and none is stored for it. */
  API_KEY_REQUIRED: 'VALIDATION_FAILED',
  /** A key for a provider whose host nodwyn does not know, without a base URL to bind it to. */
  KEY_HOST_UNKNOWN: 'VALIDATION_FAILED',
  /** The distribution lacks the keychain's or the egress plugin's command that provider setup runs. */
  SETUP_UNAVAILABLE: 'PRECONDITION_FAILED',
  /** A keychain or egress command that provider setup ran refused its input. */
  SETUP_COMMAND_FAILED: 'PRECONDITION_FAILED',
  /** config.toml could not be written. */
  CONFIG_WRITE_FAILED: 'PRECONDITION_FAILED',
  /** An agent command failed (a plugin's threw something that is not an envelope). */
  COMMAND_FAILED: 'INTERNAL',
  /** A plugin command's `--json` output was not what the console methods read. */
  COMMAND_OUTPUT_INVALID: 'UNEXPECTED_RESPONSE',
  /** A workspace whose repository config (`.nodwyn/`) the person has not trusted (or changed since). */
  WORKSPACE_UNTRUSTED: 'PRECONDITION_FAILED',
  /** A settings section or key the console may not set. */
  SETTING_UNKNOWN: 'VALIDATION_FAILED',
  /** A setting's value is not what its key takes. */
  SETTING_INVALID: 'VALIDATION_FAILED',
} as const;

/** A server error code. */
export type ServerCode = keyof typeof ServerCodes;

/** Envelope builders for the server's codes. */
export const serverErrors = codedErrors(SERVER_PACKAGE, ServerCodes);
