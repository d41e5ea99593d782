import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestKernel } from '@nodwyn/testing';
import { documentDigest, loadDocument } from '../../plugins/openapi/src/document-load.js';
import { loadApi } from '../../plugins/openapi/src/api-load.js';
import { apiTools } from '../../plugins/openapi/src/api-tools.js';
import { PETS_FIXTURE } from '../../plugins/openapi/src/fixture.js';
import { openapiPlugin } from '../../plugins/openapi/src/index.js';
import { startMock } from '../../plugins/openapi/src/mock/mock-server.js';
import { openApiCommand } from '../../plugins/openapi/src/openapi-command.js';
import { p50Overhead, percentile, type Row } from './stats.js';

/** A generated OpenAPI 3.0 document of at least `bytes` of JSON: two operations and a schema per path. */
function largeDocument(bytes: number): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const doc = { openapi: '3.0.3', info: { title: 'large', version: '1' }, servers: [{ url: 'https://api.example.test/v1' }], paths, components: { schemas } };
  for (let i = 0, size = 0; size < bytes; i++) {
    schemas[`Thing${i}`] = {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string', maxLength: 100, description: `The name of thing ${i}.` }, count: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { type: 'string' } } },
    };
    const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
    const ref = { $ref: `#/components/schemas/Thing${i}` };
    paths[`/things${i}/{id}`] = {
      get: { operationId: `getThing${i}`, summary: `Get thing ${i}.`, parameters: [id, { name: 'q', in: 'query', schema: { type: 'string' } }], responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref } } } } },
      put: { operationId: `putThing${i}`, summary: `Replace thing ${i}.`, parameters: [id], requestBody: { required: true, content: { 'application/json': { schema: ref } } }, responses: { '204': { description: 'ok' } } },
    };
    if (i % 100 === 0) size = JSON.stringify(doc).length;
  }
  return doc;
}

async function readOverhead(dir: string): Promise<Row> {
  const { document } = await loadDocument(PETS_FIXTURE);
  const mock = await startMock({ document });
  const configDir = join(dir, 'openapi-home');
  mkdirSync(configDir, { recursive: true });
  const io = { stdin: process.stdin, write: () => undefined, error: () => undefined, interactive: false };
  await openApiCommand({ configDir, loaded: () => new Map(), keychain: () => undefined }).run({ args: ['add', PETS_FIXTURE], options: { name: 'pets', baseUrl: mock.url }, io });
  const t = await startTestKernel({ plugins: [openapiPlugin], configDir, dataDir: configDir });
  try {
    const row = { name: 'OpenAPI read through the guard vs bare fetch (loopback mock), p50 overhead', goalMs: 0.5, target: '≤ 0.5 ms', runs: 400, warmup: 50 };
    return await p50Overhead(
      row,
      async () => (await fetch(`${mock.url}/pets/p1`)).json(),
      async () => {
        const result = await t.apply('pets_get_pet', { petId: 'p1' });
        if (!result.ok) throw new Error(JSON.stringify(result.envelope));
      },
    );
  } finally {
    await t.stop();
    await mock.close();
  }
}

async function largeLoad(dir: string): Promise<Row[]> {
  const file = join(dir, 'large-openapi.json');
  writeFileSync(file, JSON.stringify(largeDocument(2 * 1024 * 1024)));
  let start = performance.now();
  const loaded = await loadDocument(file);
  const addMs = performance.now() - start;
  const copy = join(dir, 'large-copy.json');
  const text = JSON.stringify(loaded.document);
  writeFileSync(copy, text);
  const samples: number[] = [];
  let tools = 0;
  for (let i = 0; i < 5; i++) {
    start = performance.now();
    const api = await loadApi({ name: 'large', entry: { digest: documentDigest(text), document: copy }, document: copy });
    tools = apiTools(api, { sender: () => undefined, store: { get: () => undefined, put: () => undefined, delete: () => false, list: () => [], transaction: (fn) => fn() }, keychain: () => undefined }).length;
    samples.push(performance.now() - start);
  }
  const startMs = percentile(samples, 50);
  return [
    { name: 'load a 2 MB OpenAPI document into tools (start: the validated copy)', value: `${startMs.toFixed(0)} ms`, target: '≤ 300 ms', ok: startMs <= 300, note: `${tools} tools; input schemas built on first use` },
    { name: 'add a 2 MB OpenAPI document (parse, bundle, validate)', value: `${addMs.toFixed(0)} ms`, target: '—', ok: undefined, note: 'once, at nodwyn openapi add' },
  ];
}

/** The OpenAPI plugin's rows: a guarded read's overhead over a bare fetch, and loading a large document. */
export async function benchOpenApi(dir: string): Promise<Row[]> {
  return [await readOverhead(dir), ...(await largeLoad(dir))];
}
