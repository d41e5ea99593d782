import { describeSandboxRunnerConformance } from '@nodwyn/testing';
import { sandboxDenoPlugin } from '../src/index.js';
import { HOST_PLUGINS } from './host-plugins.js';

describeSandboxRunnerConformance({
  plugin: sandboxDenoPlugin,
  id: 'deno',
  hostPlugins: HOST_PLUGINS,
  uncontained: {
    'exfiltrate-env':
      "Deno's own requests never cross apply() and the egress edge, so the taint of what a run read does not stop them; runs granted both read and net are refused up front (SANDBOX_UNGUARDED_EGRESS)",
  },
});
