import { describeGuardStageConformance } from '@nodwyn/testing';
import { toolsCorePlugin } from './index.js';

describeGuardStageConformance(toolsCorePlugin, {
  allows: [{ name: 'read_file', args: { path: '.git/config' } }, { name: 'write_file', args: { path: 'src/main.ts', content: 'x' }, tier: 'mutate' }],
  stops: [{ name: 'write_file', args: { path: '.git/hooks/pre-commit', content: 'x' }, tier: 'mutate' }, { name: 'edit_file', args: { path: 'sub/../.GIT/config', old: 'a', new: 'b' }, tier: 'mutate' }],
});
