import { packageEntry, type Distribution } from '@nodwyn/plugin-host';

export const teamDistribution = (pluginRoot: string): Distribution => ({
  name: 'acme-team',
  plugins: [packageEntry({ package: '@acme/nodwyn-plugin-notes', range: '^1.0.0', from: pluginRoot, optional: false })],
});
