// Admits capability versions without end until killed, for crash-safety.test.ts. Mode `registry` writes
// straight through the registry (back-to-back transactions, so a kill most likely lands inside one);
// mode `tool` goes through register_capability (type stripping and examples between transactions).
import 'reflect-metadata';
import { admissionProof, Registry } from '../src/index.js';
import { SLUGIFY, startCapabilityKernel } from './kernel.js';

const [dbPath, keyHex, mode] = process.argv.slice(2) as [string, string, 'registry' | 'tool'];
const k = await startCapabilityKernel({ dbPath, key: Buffer.from(keyHex, 'hex') });
const session = k.session();
const registry = new Registry(k.kernel.log.store('@nodwyn/plugin-capabilities'), admissionProof(k.kernel.reader));
// Big enough that a version's row spans several database pages.
const padding = `// ${'x'.repeat(40_000)}\n`;
const compiled = "export default (args) => args.text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');";
for (let n = 1; ; n++) {
  const description = `version made at step ${n}`;
  if (mode === 'tool') {
    const result = await k.apply('register_capability', { ...SLUGIFY, description }, { session });
    if (!result.ok) throw new Error(JSON.stringify(result.envelope));
  } else {
    registry.admit(
      { ...SLUGIFY, description, code: `${padding}${SLUGIFY.code}`, grants: {}, runner: 'quickjs', status: 'active', compiled, author: 'crash-child', session },
      (type, payload) => k.kernel.append(session, { type, actor: 'plugin:@nodwyn/plugin-capabilities', payload }),
    );
  }
  process.stdout.write(`admitted ${n}\n`);
}
