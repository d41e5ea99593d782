import { definePlugin } from '@nodwyn/plugin-api';

export default definePlugin({
  manifest: {
    name: '@acme/nodwyn-plugin-hello',
    version: '1.0.0',
    apiVersion: '^0.1.0',
    description: 'Says hello.',
    provides: [],
    requires: [],
    permissions: [],
  },
  register(_ctx) {
    // Contribute through the context here; see the sections below.
  },
});
