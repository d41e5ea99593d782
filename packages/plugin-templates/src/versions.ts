/**
 * The versions a standalone plugin pins: those of this workspace (versions.test.ts holds them equal to
 * the workspace's package.json files), so a generated plugin builds with what nodwyn was tested with.
 */
export const VERSIONS = {
  pluginApi: '0.1.0',
  testing: '0.1.0',
  /** The peer range a plugin accepts, and its manifest's `apiVersion`. */
  apiRange: '^0.1.0',
  vitest: '4.1.12',
  typescript: '5.9.3',
  typesNode: '20.19.43',
  /** The sandbox template's test loads these first-party plugins beside its runner. */
  firstPartyPlugins: '0.1.0',
} as const;
