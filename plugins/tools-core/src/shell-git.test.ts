import { describe, expect, it } from 'vitest';
import { gitHardening } from './shell-git.js';

describe('gitHardening', () => {
  it('overrides what the repository sets to run a program, after the config the person gave in GIT_CONFIG_COUNT', () => {
    const person = { PATH: '/usr/bin', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'me' };
    const { env, switchedOff } = gitHardening(person, ['user.email', 'filter.Lfs.process', 'credential.https://example.test.helper', 'core.fsmonitor']);
    expect(switchedOff).toEqual(['filter.Lfs.process', 'credential.https://example.test.helper', 'core.fsmonitor']);
    const settings = Array.from({ length: Number(env.GIT_CONFIG_COUNT) }, (_, i) => [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]]);
    expect(settings).toEqual([
      ['user.name', 'me'],
      ['core.fsmonitor', 'false'],
      ['core.hooksPath', '/dev/null'],
      ['core.pager', 'cat'],
      ['protocol.ext.allow', 'never'],
      ['filter.Lfs.process', ''],
      ['credential.helper', ''],
    ]);
    expect(env).toMatchObject({ PATH: '/usr/bin', GIT_PAGER: 'cat', PAGER: 'cat', GIT_EDITOR: 'true', GIT_SEQUENCE_EDITOR: 'true' });
  });

  it('switches nothing of the repository off when it sets nothing that runs a program', () => {
    expect(gitHardening({}, ['core.bare', 'remote.origin.url', 'user.name']).switchedOff).toEqual([]);
  });
});
