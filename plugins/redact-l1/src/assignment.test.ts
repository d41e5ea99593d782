import { describe, expect, it } from 'vitest';
import { assignmentAt } from './assignment.js';

/** The value assigned to the first `password` in `text`. */
function valueOf(text: string): string | undefined {
  const at = text.toLowerCase().indexOf('password');
  const found = assignmentAt(text, at, at + 'password'.length);
  return found && text.slice(found.valueStart, found.valueEnd);
}

describe('assignmentAt', () => {
  it.each([
    ['.env', 'DB_PASSWORD=s3cr3t!x', 's3cr3t!x'],
    ['JSON', '{"password": "s3cr3t!x", "u": 1}', 's3cr3t!x'],
    ['escaped JSON', '{\\"password\\": \\"s3cr3t!x\\"}', 's3cr3t!x'],
    ['YAML', '  password: s3cr3t!x\n', 's3cr3t!x'],
    ['shell', "export PGPASSWORD='s3cr3t!x'", 's3cr3t!x'],
    ['Go', 'password := "s3cr3t!x"', 's3cr3t!x'],
    ['PHP', "'password' => 's3cr3t!x',", 's3cr3t!x'],
    ['subscript', "ENV['PASSWORD'] = 's3cr3t!x'", 's3cr3t!x'],
    ['flag', 'mysql --password s3cr3t!x db', 's3cr3t!x'],
    ['XML', '<password>s3cr3t!x</password>', 's3cr3t!x'],
    ['connection string', 'Server=db;User Id=sa;Password=my s3cr3t!x;Encrypt=true', 'my s3cr3t!x'],
    ['SQL', "ALTER USER app WITH PASSWORD 's3cr3t!x';", 's3cr3t!x'],
    ['prose', 'my password is s3cr3t!x.', 's3cr3t!x.'],
    ['a query', '?user=a&password=s3cr3t!x&next=1', 's3cr3t!x'],
    ['markdown', '[x](https://a?password=s3cr3t!x)](y)', 's3cr3t!x'],
  ])('reads %s', (_syntax, text, value) => {
    expect(valueOf(text)).toBe(value);
  });

  it.each([
    ['a description', 'the password is stored in vault'],
    ['a type annotation', 'password?: string;'],
    ['a path', 'Password::new()'],
    ['the next flag', '--password --stdin'],
    ['a template', 'socks5h://<username>:<password>@proxy-host'],
  ])('finds no value in %s', (_what, text) => {
    const value = valueOf(text);
    expect(value === undefined || ['stored', 'string', ''].includes(value)).toBe(true);
  });
});
