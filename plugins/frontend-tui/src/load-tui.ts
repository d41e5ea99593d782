/** The variables ink (through `is-in-ci`) and chalk (through `supports-color`) read when they load. */
const CI_VARIABLES = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

/**
 * Loads the TUI's module. ink decides once, as it loads, that a process with `CI` set is a CI job and holds
 * every frame until exit (and chalk drops colour): a person at a terminal inside a CI container, or a test
 * driving a real terminal, would see a blank screen. The TUI only ever draws on a terminal, so the
 * variables are hidden while its modules load and restored at once.
 */
export async function loadTuiModule(): Promise<typeof import('./tui-frontend.js')> {
  const saved = CI_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const [name] of saved) delete process.env[name];
  try {
    return await import('./tui-frontend.js');
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}
