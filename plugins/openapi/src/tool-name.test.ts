import { MODEL_NAME } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { snakeCase, toolNames } from './tool-name.js';

describe('tool names', () => {
  it('snake-cases operationIds and method-path names', () => {
    expect(snakeCase('createPet')).toBe('create_pet');
    expect(snakeCase('getHTTPStatus')).toBe('get_http_status');
    expect(snakeCase('GET /pets/{petId}')).toBe('get_pets_pet_id');
  });

  it('cuts long names to the tool-name rule and makes collisions unique in document order', () => {
    const long = 'a'.repeat(80);
    const names = toolNames('acme', [`${long}One`, `${long}Two`, 'list-pets', 'list_pets']);
    expect(names.every((name) => MODEL_NAME.test(name))).toBe(true);
    expect(names[0]).toHaveLength(64);
    expect(names[1]).toBe(`${names[0]!.slice(0, 62)}_2`);
    expect(names.slice(2)).toEqual(['acme_list_pets', 'acme_list_pets_2']);
    expect(toolNames('acme', [`${long}One`, `${long}Two`, 'list-pets', 'list_pets'])).toEqual(names);
  });

  it('gives an API name that starts with a digit a letter first', () => {
    expect(toolNames('9x', ['getA'])).toEqual(['api_9x_get_a']);
  });
});
