import { describe, expect, it } from 'vitest';
import { isCamelWords, isWordy, looksLikeCode, passwordLike, secretLike } from './value-checks.js';

describe('value checks', () => {
  it('tells passwords from identifiers and placeholders', () => {
    expect(['Summer2024!', 'Tr0ub4dor&3', 'x7#Kp!2qLm', 'Coffee-falcon-14.'].every((v) => passwordLike(v, false))).toBe(true);
    expect(['string', 'None', 'password_mgr', 'self.password', 'getPassword()', 'changeme', '${DB_PASSWORD}', '123456', '$2b$12$abcdefghijklmnopqrstuv'].some((v) => passwordLike(v, false))).toBe(false);
  });

  it('accepts a letters-only password only quoted, long, mixed-case and not made of words', () => {
    expect(passwordLike('QwErTyUiOpAsDf', true)).toBe(true);
    expect(passwordLike('QwErTyUiOpAsDf', false)).toBe(false);
    expect(passwordLike('challengePassword', true)).toBe(false);
  });

  it('tells random secrets from names, paths, versions and words', () => {
    expect(['9f86d081884c7d659a2feaa0c55ad015', 'hT9+uXwq3Lk/ZpV7mRb2NcYs8DfGa4JeQo1Wi6Kv', '550e8400-e29b-41d4-a716-446655440000'].every((v) => secretLike(v))).toBe(true);
    expect(['db-credentials-prod', 'kEnumerableProperty', '/etc/secrets/db.json', '1.2.3', 'https://example.com/a', '分析器预期在此处找到与标记匹配的'].some((v) => secretLike(v))).toBe(false);
  });

  it('reads code shapes and word shapes', () => {
    expect(looksLikeCode('this.tokenData?.token?.trim()')).toBe(true);
    expect(looksLikeCode('ed25519.Ed25519PrivateKey,')).toBe(true);
    expect(looksLikeCode('E4.AJUbZ20k1nkNuZXu5g.l')).toBe(false);
    expect(isWordy('my_app.secret')).toBe(true);
    expect(isWordy('UKc_LcSvqvZvEZvOWjnY')).toBe(false);
    expect(isCamelWords('userAccessToken')).toBe(true);
    expect(isCamelWords('qWeRtYuIoPaSdF')).toBe(false);
  });
});
