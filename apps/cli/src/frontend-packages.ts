/** The terminal front end's package, and the front end `nodwyn` starts unless `[distribution] frontend` names another. */
export const TUI_PACKAGE = '@nodwyn/plugin-frontend-tui';
export const DEFAULT_FRONTEND = 'tui';
/** The web console's package: `[distribution] frontend = "web"` opens it on plain `nodwyn`. */
export const WEB_PACKAGE = '@nodwyn/plugin-frontend-web';
/** The desktop app's front end: `[distribution] frontend = "desktop"` opens the installed app on plain `nodwyn`. */
export const DESKTOP_PACKAGE = '@nodwyn/plugin-frontend-electron';

/** Which package provides each first-party front end id. */
export const FRONTEND_PACKAGES: Readonly<Record<string, string>> = { [DEFAULT_FRONTEND]: TUI_PACKAGE, web: WEB_PACKAGE, desktop: DESKTOP_PACKAGE };
