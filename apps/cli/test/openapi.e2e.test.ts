import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox } from './cli.js';

const PETS = fileURLToPath(new URL('../../../plugins/openapi/src/fixtures/pets.yaml', import.meta.url));
const TOKEN = 'pets-token-0123456789abcdef';

let box: CliSandbox;
let mock: ChildProcess;
let url: string;

interface Seen {
  operation?: string;
  authorization?: string;
}

async function startMock(): Promise<void> {
  mock = box.start(['mock', PETS]);
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`nodwyn mock printed no URL: ${out}`)), 60_000);
    mock.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n')[0]!);
      }
    });
  });
}

async function seen(): Promise<Seen[]> {
  return (await (await fetch(`${url}/__mock/requests`)).json()) as Seen[];
}

function call(tool: string, args: unknown, yes = false) {
  const script = box.script([{ toolCalls: [{ name: tool, args }] }, { text: 'done' }]);
  return box.runAsync(['run', 'use the pet store', '--provider', 'scripted', '--script', script, '--json', ...(yes ? ['--yes'] : [])]);
}

beforeEach(async () => {
  box = new CliSandbox();
  await startMock();
}, 90_000);

afterEach(async () => {
  const exited = new Promise((resolve) => mock.once('close', resolve));
  mock.kill('SIGTERM');
  await exited;
  box.remove();
});

describe('nodwyn openapi and nodwyn mock', () => {
  it('adds a document to the person config, and refuses a malformed one with an envelope (exit 3)', () => {
    const added = box.run(['openapi', 'add', PETS, '--name', 'pets', '--base-url', url, '--json']);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout).tools).toContainEqual({ name: 'pets_delete_pet', tier: 'destructive', method: 'DELETE', path: '/pets/{petId}', operation: 'deletePet' });
    const bad = box.write('bad.yaml', 'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n      responses: { "200": { description: 3 } }\n');
    const refused = box.run(['openapi', 'add', bad, '--name', 'bad', '--json']);
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stderr)).toMatchObject({ code: 'OPENAPI_DOCUMENT_INVALID', failed_parameter: '$.paths["/a"].get.responses["200"].description' });
    expect(box.run(['openapi', 'remove', 'pets']).code).toBe(0);
    expect(JSON.parse(box.run(['openapi', 'list', '--json']).stdout)).toEqual([]);
  }, 120_000);

  it('denies a destructive operation without --yes (CONFIRMATION_REQUIRED) and runs it with --yes', async () => {
    expect(box.run(['openapi', 'add', PETS, '--name', 'pets', '--base-url', url]).code).toBe(0);
    const denied = await call('pets_delete_pet', { petId: 'p1' });
    expect(denied.stdout + denied.stderr).toContain('CONFIRMATION_REQUIRED');
    expect((await seen()).filter((r) => r.operation === 'deletePet')).toHaveLength(0);
    const allowed = await call('pets_delete_pet', { petId: 'p1' }, true);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await seen()).filter((r) => r.operation === 'deletePet')).toHaveLength(1);
  }, 120_000);

  it('sends a keychain credential to the API only once the binding table binds it to the host', async () => {
    expect(box.run(['openapi', 'add', PETS, '--name', 'pets', '--base-url', url, '--auth', 'bearerAuth=secret:pets']).code).toBe(0);
    expect(box.run(['secret', 'add', 'pets', '--class', 'pets-token'], TOKEN).code).toBe(0);
    const unbound = await call('pets_get_pet', { petId: 'p1' });
    expect(unbound.stdout + unbound.stderr).toContain('GUARD_EGRESS_UNBOUND');
    expect((await seen()).filter((r) => r.operation === 'getPet')).toHaveLength(0);
    const host = new URL(url).host;
    expect(box.run(['bind', 'add', 'pets-token', '--host', host, '--position', 'header:Authorization', '--method', 'GET']).code).toBe(0);
    const bound = await call('pets_get_pet', { petId: 'p1' });
    expect(bound.code, bound.stderr).toBe(0);
    expect(bound.stdout).not.toContain(TOKEN);
    expect((await seen()).filter((r) => r.operation === 'getPet').map((r) => r.authorization)).toEqual([`Bearer ${TOKEN}`]);
  }, 120_000);
});
