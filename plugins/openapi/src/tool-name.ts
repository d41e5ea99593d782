import { MODEL_NAME } from '@nodwyn/plugin-api';

const MAX = 64;

/** `createPet` → `create_pet`, `GET /pets/{id}` → `get_pets_id`: lower snake case of letters and digits. */
export function snakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * Model tool names for a document's operations, in order: `<api>_<operation in snake case>`, cut to the
 * tool-name rule (`^[a-z][a-z0-9_]{0,63}$`, docs/architecture.md §3). Names that collide after cutting get
 * `_2`, `_3`, … in document order, so the same document always yields the same names.
 */
export function toolNames(api: string, operations: readonly string[]): string[] {
  const prefix = snakeCase(api) || 'api';
  const head = /^[a-z]/.test(prefix) ? prefix : `api_${prefix}`;
  const taken = new Set<string>();
  return operations.map((operation) => {
    const base = `${head}_${snakeCase(operation) || 'operation'}`.slice(0, MAX).replace(/_+$/, '');
    let name = base;
    for (let n = 2; taken.has(name); n += 1) {
      const suffix = `_${n}`;
      name = `${base.slice(0, MAX - suffix.length).replace(/_+$/, '')}${suffix}`;
    }
    taken.add(name);
    if (!MODEL_NAME.test(name)) throw new Error(`tool name ${name} breaks the tool-name rule`);
    return name;
  });
}
