import { execFile } from 'node:child_process';

/**
 * Git settings that make git run a program, and what an allow-listed command gets instead when the
 * repository's own config (`.git/config`, `config.worktree`, files they include) sets them. The person
 * allowed a command, not whatever the workspace's config makes that command run. Settings of the
 * person's own global and system config are theirs and stay. From `git help config` (git 2.39).
 */
const REPOSITORY_SETTINGS: readonly (readonly [RegExp, string])[] = [
  [/^filter\..+\.(clean|smudge|process)$/i, ''],
  // `cat` is the identity conversion: the diff shows the file as it is.
  [/^diff\..+\.textconv$/i, 'cat'],
  [/^diff\..+\.command$/i, ''],
  [/^diff\.external$/i, ''],
  [/^merge\..+\.driver$/i, ''],
  // An alias never shadows a built-in, but an allow-listed alias would otherwise run what it now says.
  [/^alias\..+$/i, ''],
  [/^pager\..+$/i, 'false'],
  [/^(difftool|mergetool|man|browser)\..+\.(cmd|path)$/i, ''],
  [/^web\.browser$/i, ''],
  [/^remote\..+\.uploadpack$/i, 'git-upload-pack'],
  [/^remote\..+\.receivepack$/i, 'git-receive-pack'],
  [/^submodule\..+\.update$/i, 'checkout'],
  [/^core\.sshcommand$/i, 'ssh'],
  [/^core\.(gitproxy|askpass|alternaterefscommand)$/i, ''],
  [/^gpg\.(openpgp\.)?program$/i, 'gpg'],
  [/^gpg\.x509\.program$/i, 'gpgsm'],
  [/^gpg\.ssh\.program$/i, 'ssh-keygen'],
  [/^gpg\.ssh\.defaultkeycommand$/i, ''],
  [/^tar\..+\.command$/i, ''],
  [/^sendemail\.(.+\.)?(smtpserver|tocmd|cccmd)$/i, ''],
];

/** A credential helper of the repository: an empty `credential.helper` given last empties the whole list. */
const CREDENTIAL_HELPER = /^credential\.(.+\.)?helper$/i;

/**
 * Set for every allow-listed command, whatever the repository says. The editor and the pager are set
 * through the environment, which wins over any config; hooks are files in `.git/hooks`, which is
 * workspace content.
 */
const ALWAYS: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['protocol.ext.allow', 'never'],
];
const ALWAYS_KEYS = new Set(ALWAYS.map(([key]) => key.toLowerCase()));
const ALWAYS_ENV: Readonly<Record<string, string>> = { GIT_PAGER: 'cat', PAGER: 'cat', GIT_EDITOR: 'true', GIT_SEQUENCE_EDITOR: 'true' };

/** Scopes git reports for config the repository owns. */
const REPOSITORY_SCOPES = new Set(['local', 'worktree']);

/** How an allow-listed command is run: the environment, and the repository settings switched off in it. */
export interface GitHardening {
  readonly env: NodeJS.ProcessEnv;
  readonly switchedOff: readonly string[];
}

/**
 * The keys the repository's own config sets, as `git config --list --show-scope -z` prints them: reading
 * config runs nothing. Outside a repository (or without git) there are none.
 */
export function repositoryConfigKeys(cwd: string, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<string[]> {
  return new Promise((resolve) => {
    execFile('git', ['config', '--list', '--show-scope', '-z'], { cwd, env, signal, timeout: 10_000, maxBuffer: 8 * 1024 * 1024 }, (error, stdout) => {
      // No git, no repository, or a config git cannot parse: the command itself then runs nothing of it.
      if (error) return resolve([]);
      const fields = stdout.split('\0');
      const keys: string[] = [];
      for (let i = 0; i + 1 < fields.length; i += 2) {
        if (REPOSITORY_SCOPES.has(fields[i]!)) keys.push(fields[i + 1]!.split('\n', 1)[0]!);
      }
      resolve([...new Set(keys)]);
    });
  });
}

/**
 * The environment of an allow-listed command: `env` plus git config given in `GIT_CONFIG_COUNT` form
 * (command scope, which every git process the command starts reads after the repository's, submodules
 * included), appended after any the person set.
 */
export function gitHardening(env: NodeJS.ProcessEnv, repositoryKeys: readonly string[]): GitHardening {
  const settings: [string, string][] = ALWAYS.map(([key, value]) => [key, value]);
  const switchedOff: string[] = [];
  for (const key of repositoryKeys) {
    const rule = REPOSITORY_SETTINGS.find(([pattern]) => pattern.test(key));
    if (rule) settings.push([key, rule[1]]);
    if (rule || CREDENTIAL_HELPER.test(key) || ALWAYS_KEYS.has(key.toLowerCase())) switchedOff.push(key);
  }
  if (repositoryKeys.some((key) => CREDENTIAL_HELPER.test(key))) settings.push(['credential.helper', '']);
  const first = /^\d+$/.test(env.GIT_CONFIG_COUNT ?? '') ? Number(env.GIT_CONFIG_COUNT) : 0;
  const hardened: NodeJS.ProcessEnv = { ...env, ...ALWAYS_ENV, GIT_CONFIG_COUNT: String(first + settings.length) };
  for (const [index, [key, value]] of settings.entries()) {
    hardened[`GIT_CONFIG_KEY_${first + index}`] = key;
    hardened[`GIT_CONFIG_VALUE_${first + index}`] = value;
  }
  return { env: hardened, switchedOff };
}
