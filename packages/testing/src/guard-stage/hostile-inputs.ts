import type { ToolResult } from '@nodwyn/plugin-api';

/** Freezes `value` and everything it holds, so a stage that edits what it was given throws. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function nested(depth: number): unknown {
  let value: unknown = { leaf: 'x' };
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { inner: value } : [value];
  return value;
}

/**
 * Arguments a model can send a tool: absent, of the wrong type, huge, deep, with odd keys and text
 * (control characters, lone surrogates, right-to-left marks, secret-looking and path-traversal strings).
 */
export function hostileArgs(): readonly unknown[] {
  return [
    undefined,
    null,
    42,
    'a bare string',
    [],
    {},
    { text: 'hello' },
    { text: 'x'.repeat(1_000_000) },
    { text: '\u0000\u001b[31m\ud800\u202e', path: '../../../../etc/passwd', url: 'file:///etc/shadow' },
    { text: 'AKIAIOSFODNN7EXAMPLE ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
    // As a model's JSON arrives: `__proto__` an own key, not the prototype.
    JSON.parse('{"__proto__": {"polluted": true}, "constructor": "x", "toString": "y"}'),
    nested(40),
  ];
}

/** Results a tool can return: empty, huge, binary-looking, secret-looking, with structured data. */
export function hostileResults(): readonly ToolResult[] {
  return [
    { content: '' },
    { content: 'plain text' },
    { content: 'y'.repeat(1_000_000) },
    { content: '\u0000\u0001\uffff\ud800 \u001b]8;;https://x.test\u0007link' },
    { content: 'token=ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', data: { nested: nested(10) }, taint: ['tag:a'] },
  ];
}
