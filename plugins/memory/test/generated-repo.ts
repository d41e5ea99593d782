import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const VOCABULARY = (
  'request response server client build test deploy config value error file user session cache queue worker ' +
  'function return const import export async await promise string number object array list map index table ' +
  'update create delete change fix add remove check run call handle parse load save read write open close'
).split(' ');

/** What a generated repository holds besides its common words. */
export interface GeneratedRepo {
  readonly files: number;
  /** Lines holding `rare` (the word only a few hundred lines have). */
  readonly rareLines: number;
}

/**
 * Writes `files` files of ten-odd lines of code-like words into `root`, 100 to a folder, deterministically
 * (a fixed-seed generator). About one line in a thousand holds `rare`. Fast: one write per file.
 */
export function generateRepo(root: string, files: number, rare: string): GeneratedRepo {
  let seed = 42;
  const next = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  let rareLines = 0;
  for (let i = 0; i < files; i++) {
    const dir = join(root, `pkg${Math.floor(i / 1000)}`, `mod${Math.floor(i / 100) % 10}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    const lines: string[] = [];
    const count = 8 + next(8);
    for (let l = 0; l < count; l++) {
      const words = [VOCABULARY[next(VOCABULARY.length)], `${VOCABULARY[next(VOCABULARY.length)]}_${i}_${l}`, VOCABULARY[next(VOCABULARY.length)]];
      if (next(1000) === 0) {
        words.splice(1 + next(2), 0, rare);
        rareLines++;
      }
      lines.push(`  const ${words.join(' = ')};`);
    }
    writeFileSync(join(dir, `file${i}.ts`), `${lines.join('\n')}\n`);
  }
  return { files, rareLines };
}
