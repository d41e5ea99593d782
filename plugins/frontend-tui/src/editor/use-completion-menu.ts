import { useRef, type MutableRefObject } from 'react';
import { completionQuery, fileItems, slashItems, type CommandInfo } from './completion.js';
import type { EditorState } from './editor-state.js';
import type { Menu } from './menu-keys.js';

/** The completion menu of an input: opened and narrowed by what is typed, file paths looked up as they come. */
export interface CompletionMenu {
  readonly current: MutableRefObject<Menu | undefined>;
  /** Opens, narrows or closes the menu for the token before the cursor. */
  refresh(state: EditorState): void;
}

/**
 * Keeps the menu in a ref (keys that arrive together see it current). Slash commands are listed at once;
 * `@` paths are looked up, and only the answer to the latest lookup is shown.
 */
export function useCompletionMenu(commands: readonly CommandInfo[], completeFiles: (prefix: string) => Promise<readonly string[]>, redraw: () => void): CompletionMenu {
  const current = useRef<Menu | undefined>(undefined);
  const lookups = useRef(0);
  const set = (menu: Menu | undefined): void => {
    // A file menu stays open while its lookup runs, even with nothing in it yet.
    current.current = menu && (menu.items.length > 0 || menu.query.kind === 'file') ? menu : undefined;
  };
  return {
    current,
    refresh(state) {
      const query = completionQuery(state.text, state.cursor);
      if (!query) return set(undefined);
      if (query.kind === 'slash') return set({ query, items: slashItems(query.prefix, commands), selected: 0 });
      const lookup = ++lookups.current;
      set({ query, items: current.current?.query.kind === 'file' ? current.current.items : [], selected: 0 });
      void completeFiles(query.prefix).then((paths) => {
        if (lookup !== lookups.current || current.current?.query.kind !== 'file') return;
        set({ query, items: fileItems(paths), selected: 0 });
        redraw();
      });
    },
  };
}
