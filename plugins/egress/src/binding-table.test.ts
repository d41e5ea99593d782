import type { EgressPosition } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { addBinding, isBound, removeBindings, tableToData, type BindingTable } from './binding-table.js';
import { parseBindings } from './bindings-file.js';
import { destinationOf } from './destination.js';

const table: BindingTable = parseBindings(
  {
    github: [
      { host: 'api.github.com', path_prefix: '/repos', positions: ['header:Authorization', 'query:access_token'], methods: ['GET', 'post'] },
      { host: '127.0.0.1:8080', positions: ['basic', 'body:$.auth.token', 'body'], methods: ['PUT'] },
    ],
  },
  'test',
);

const header = (name: string): EgressPosition => ({ kind: 'header', name, value: '' });
const query = (name: string): EgressPosition => ({ kind: 'query', name, value: '' });
const body = (name: string): EgressPosition => ({ kind: 'body', name, value: '' });
const basic: EgressPosition = { kind: 'basic', name: 'password', value: '' };

function bound(cls: string, method: string, url: string, position?: EgressPosition): boolean {
  return isBound(table, cls, destinationOf(new URL(url), method)!, position);
}

describe('the binding table', () => {
  it.each([
    ['github', 'GET', 'https://api.github.com/repos/a', header('Authorization'), true],
    ['github', 'GET', 'https://api.github.com/repos/a', header('authorization'), true],
    ['github', 'post', 'https://api.github.com/repos', header('Authorization'), true],
    ['github', 'DELETE', 'https://api.github.com/repos/a', header('Authorization'), false],
    ['github', 'GET', 'https://api.github.com/user', header('Authorization'), false],
    ['github', 'GET', 'https://api.github.com/repos/a', header('X-Token'), false],
    ['github', 'GET', 'https://api.github.com/repos/a', query('access_token'), true],
    ['github', 'GET', 'https://api.github.com/repos/a', query('ACCESS_TOKEN'), false],
    ['github', 'GET', 'https://api.github.com/repos/a', basic, false],
    ['gitlab', 'GET', 'https://api.github.com/repos/a', header('Authorization'), false],
    ['github', 'PUT', 'http://127.0.0.1:8080/', basic, true],
    ['github', 'PUT', 'http://127.0.0.1:8080/', body('$.auth.token'), true],
    ['github', 'PUT', 'http://127.0.0.1:8080/', body('$.auth'), false],
    ['github', 'PUT', 'http://127.0.0.1:8080/', body('$'), true],
    ['github', 'PUT', 'http://127.0.0.1:8081/', basic, false],
    ['github', 'PUT', 'http://127.0.0.1/', basic, false],
    ['github', 'PUT', 'http://127.0.0.1:8080/', undefined, true],
    ['github', 'GET', 'http://127.0.0.1:8080/', undefined, false],
  ])('%s %s %s in %j → %s', (cls, method, url, position, expected) => {
    expect(bound(cls, method, url, position)).toBe(expected);
  });

  it('does not take a class name from Object.prototype', () => {
    expect(bound('constructor', 'GET', 'https://api.github.com/repos/a', header('Authorization'))).toBe(false);
  });

  it('merges positions and methods into a destination with the same host and path', () => {
    const [first] = table.github!;
    const merged = addBinding(table, 'github', { ...first!, positions: parseBindings({ x: [{ host: 'h', positions: ['header:AUTHORIZATION', 'basic'], methods: ['GET'] }] }, 't').x![0]!.positions, methods: ['GET', 'HEAD'] });
    expect(tableToData(merged).github![0]).toEqual({ host: 'api.github.com', path_prefix: '/repos', positions: ['header:Authorization', 'query:access_token', 'basic'], methods: ['GET', 'POST', 'HEAD'] });
    expect(merged.github).toHaveLength(2);
  });

  it('removes by host, and drops a class left empty', () => {
    const byHost = removeBindings(table, 'github', { host: table.github![1]!.host });
    expect([byHost.removed, byHost.table.github?.length]).toEqual([1, 1]);
    const all = removeBindings(table, 'github');
    expect([all.removed, 'github' in all.table]).toEqual([2, false]);
  });

  it('reports the JSON path of a malformed entry', () => {
    const bad = () => parseBindings({ github: [{ host: 'api.github.com', positions: ['header:A', 'cookie:x'], methods: ['GET'] }] }, 'bindings.toml');
    expect(bad).toThrow(expect.objectContaining({ envelope: expect.objectContaining({ code: 'BINDINGS_INVALID', failed_parameter: '$.github[0].positions[1]' }) }));
  });
});
