/**
 * Asks on the terminal for something that must not show on screen (an API key): `question` on stderr,
 * then what is typed, without echo, until Enter. Backspace deletes; Ctrl-C or Ctrl-D gives `undefined`.
 * Only for a TTY stdin: raw mode is what keeps the terminal from echoing.
 */
export function askHidden(question: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Promise<string | undefined> {
  // Echo goes off before the question shows: a key typed the moment the question appears (a paste, a
  // password manager) must not reach a terminal that still echoes.
  input.setRawMode(true);
  output.write(question);
  input.resume();
  let typed = '';
  return new Promise((resolve) => {
    const finish = (value: string | undefined) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(typed);
        if (char === '\u0003' || char === '\u0004') return finish(undefined);
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char >= ' ') typed += char;
      }
    };
    input.on('data', onData);
  });
}
