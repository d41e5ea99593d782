/** The package name, as the plugin's manifest gives it. */
export const PLUGIN_NAME = '@nodwyn/plugin-frontend-web';
