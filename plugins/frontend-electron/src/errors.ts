import { codedErrors } from '@nodwyn/plugin-api';

/** The package name, as the plugin's manifest gives it and every envelope it raises names it. */
export const PLUGIN_NAME = '@nodwyn/plugin-frontend-electron';

/** Every failure code of the desktop front end, with the one category it travels under. */
export const DesktopErrorCode = {
  /** An IPC message's payload does not match its channel's schema. */
  DESKTOP_IPC_INVALID: 'VALIDATION_FAILED',
  /** An IPC message came from a page other than the main window's. */
  DESKTOP_IPC_SENDER_REFUSED: 'PERMISSION_DENIED',
  /** `nodwyn` with the desktop front end, but no desktop app is installed where the config or env says. */
  DESKTOP_APP_NOT_INSTALLED: 'PRECONDITION_FAILED',
  /** The desktop app could not be started (spawn failed). */
  DESKTOP_APP_START_FAILED: 'UPSTREAM_UNAVAILABLE',
  /** The daemon's `POST /_nodwyn/login-link` failed or answered something else. */
  DESKTOP_LOGIN_LINK_FAILED: 'UPSTREAM_UNAVAILABLE',
  /** The window could not load the console page. */
  DESKTOP_PAGE_LOAD_FAILED: 'UPSTREAM_UNAVAILABLE',
  /** config.toml does not parse, so settings cannot be merged into it. */
  DESKTOP_CONFIG_INVALID: 'VALIDATION_FAILED',
} as const;

/** Envelope builders of this plugin. */
export const desktopErrors = codedErrors(PLUGIN_NAME, DesktopErrorCode);
