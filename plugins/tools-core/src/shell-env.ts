/** Variable names that hold credentials by convention: `*_KEY`, `*_TOKEN`, `*_SECRET`, `PASSWORD`, … */
const CREDENTIAL_NAME = /(^|_)(API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|AUTH|PAT|PRIVATE_KEY)(_|$)/i;

/**
 * The environment a shell command gets: the person's, less every variable that holds a credential by its
 * name (and nodwyn's own keychain unlock), unless `[tools.shell] pass_env` names it. The agent's keys are
 * control-plane credentials for nodwyn; a command the model writes has no business reading them.
 */
export function shellEnvironment(env: NodeJS.ProcessEnv, passEnv: readonly string[]): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    const credential = CREDENTIAL_NAME.test(name) || name.startsWith('NODWYN_KEYCHAIN_');
    if (!credential || passEnv.includes(name)) kept[name] = value;
  }
  return kept;
}
