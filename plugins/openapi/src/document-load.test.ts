import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isEnvelopeError } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { loadDocument } from './document-load.js';
import { PETS_FIXTURE } from './fixture.js';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'nodwyn-openapi-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function failure(file: string) {
  try {
    await loadDocument(file);
  } catch (error) {
    if (isEnvelopeError(error)) return error.envelope;
    throw error;
  }
  throw new Error('loaded');
}

const api = (schemaRef: string) => `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "${schemaRef}" } } } }
`;

describe('loadDocument', () => {
  it('parses, bundles and validates the YAML fixture, keeping internal references', async () => {
    const { document, digest } = await loadDocument(PETS_FIXTURE);
    expect(document.openapi).toBe('3.0.3');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(document)).toContain('#/components/schemas/Pet');
  });

  it('merges a referenced file next to the document into the bundle', async () => {
    const dir = folder({ 'api.yaml': api('schemas/thing.yaml'), 'schemas/thing.yaml': 'type: object\nproperties: { name: { type: string } }\n' });
    const { document } = await loadDocument(join(dir, 'api.yaml'));
    expect(JSON.stringify(document)).toContain('"name":{"type":"string"}');
  });

  it('refuses a remote $ref before anything is fetched, naming its JSON path', async () => {
    const dir = folder({ 'api.yaml': api('https://example.test/thing.yaml') });
    expect(await failure(join(dir, 'api.yaml'))).toMatchObject({
      code: 'OPENAPI_REF_REFUSED',
      failed_parameter: '$.paths["/a"].get.responses["200"].content["application/json"].schema.$ref',
    });
  });

  it("refuses a file reference that leaves the document's folder", async () => {
    const dir = folder({ 'inner/api.yaml': api('../outside.yaml'), 'outside.yaml': 'type: string\n' });
    expect(await failure(join(dir, 'inner/api.yaml'))).toMatchObject({ code: 'OPENAPI_REF_REFUSED', category: 'PERMISSION_DENIED' });
  });

  it('names the JSON path of an invalid document', async () => {
    const dir = folder({ 'bad.yaml': 'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n      responses: { "200": { description: 3 } }\n' });
    expect(await failure(join(dir, 'bad.yaml'))).toMatchObject({ code: 'OPENAPI_DOCUMENT_INVALID', failed_parameter: '$.paths["/a"].get.responses["200"].description' });
  });

  it('answers a syntax error, a Swagger 2 document and a missing file with envelopes', async () => {
    const dir = folder({ 'syntax.yaml': 'openapi: [3.0\n  : :', 'swagger.json': '{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{}}' });
    expect(await failure(join(dir, 'syntax.yaml'))).toMatchObject({ code: 'OPENAPI_DOCUMENT_SYNTAX', failed_parameter: 'syntax.yaml' });
    expect(await failure(join(dir, 'swagger.json'))).toMatchObject({ code: 'OPENAPI_DOCUMENT_INVALID', failed_parameter: '$.openapi' });
    expect(await failure(join(dir, 'missing.yaml'))).toMatchObject({ code: 'OPENAPI_DOCUMENT_UNREADABLE' });
  });
});
