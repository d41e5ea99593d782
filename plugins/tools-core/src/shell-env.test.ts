import { describe, expect, it } from 'vitest';
import { shellEnvironment } from './shell-env.js';

describe('shellEnvironment', () => {
  it('drops credentials by name and keeps the rest', () => {
    const env = {
      PATH: '/usr/bin',
      HOME: '/home/me',
      OPENAI_API_KEY: 'sk-1',
      ANTHROPIC_API_KEY: 'sk-2',
      GITHUB_TOKEN: 'ghp',
      AWS_SECRET_ACCESS_KEY: 'aws',
      DB_PASSWORD: 'pw',
      NODWYN_KEYCHAIN_PASSPHRASE: 'unlock',
      NPM_CONFIG_CACHE: '/tmp/npm',
      KEYBOARD: 'us',
      TOKENIZERS_PARALLELISM: 'false',
    };
    expect(Object.keys(shellEnvironment(env, [])).sort()).toEqual(['HOME', 'KEYBOARD', 'NPM_CONFIG_CACHE', 'PATH', 'TOKENIZERS_PARALLELISM']);
  });

  it('passes a credential the person named in pass_env', () => {
    expect(shellEnvironment({ NPM_TOKEN: 'npm_x', GITHUB_TOKEN: 'ghp' }, ['NPM_TOKEN'])).toEqual({ NPM_TOKEN: 'npm_x' });
  });
});
