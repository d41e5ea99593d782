#!/usr/bin/env node
// `--version` is answered from a tiny module so it costs no more than starting node; everything else
// loads the bundled command tree.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../dist/version.mjs');
  process.stdout.write(`${VERSION}\n`);
} else {
  await import('../dist/nodwyn.mjs');
}
