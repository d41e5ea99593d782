#!/usr/bin/env node
// `--version` is answered from a tiny module so it costs no more than starting node; everything else
// loads the bundled command tree.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../dist/version.mjs');
  process.stdout.write(`${VERSION}\n`);
} else {
  // Node 20's fetch parses HTTP with a WebAssembly module that V8 keeps optimising on background threads;
  // process exit waits for that work, which held every run that called a model ~150-250 ms past its
  // answer. Baseline (Liftoff) code parses a model stream fast enough and leaves nothing to wait for.
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--liftoff-only');
  await import('../dist/nodwyn.mjs');
}
