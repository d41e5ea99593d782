import { egressPlugin } from '@nodwyn/plugin-egress';
import { keychainPlugin } from '@nodwyn/plugin-keychain';
import { redactL1Plugin } from '@nodwyn/plugin-redact-l1';
import { redactL2Plugin } from '@nodwyn/plugin-redact-l2';
import { toolsCorePlugin } from '@nodwyn/plugin-tools-core';
import { describeSandboxRunnerConformance } from '@nodwyn/testing';
import { sandboxQuickjsPlugin } from '../src/index.js';

describeSandboxRunnerConformance({
  plugin: sandboxQuickjsPlugin,
  id: 'quickjs',
  hostPlugins: [toolsCorePlugin, keychainPlugin, egressPlugin, redactL1Plugin, redactL2Plugin],
});
