import { Box, type Key } from 'ink';
import { useKeys } from '../view/key-router.js';
import { useRef, useState } from 'react';
import { LinesRows } from '../view/lines-text.js';
import { applyCompletion, completionQuery, fileItems, slashItems, type CommandInfo, type CompletionItem, type CompletionQuery } from './completion.js';
import { completionLines } from './completion-lines.js';
import { editorKey } from './editor-keys.js';
import { editorLines } from './editor-lines.js';
import { EMPTY_EDITOR, type EditorState } from './editor-state.js';

/** Items a completion menu shows at once. */
const MENU_ITEMS = 6;

export interface PromptEditorProps {
  readonly width: number;
  /** Lines the input may take before it scrolls. */
  readonly maxLines: number;
  readonly history: readonly string[];
  readonly commands: readonly CommandInfo[];
  /** A turn runs: the placeholder says how to cancel it. */
  readonly busy: boolean;
  /** Whether keys go to the editor (a dialog takes them otherwise). */
  readonly active: boolean;
  /** Sends the text; false keeps it in the editor (it could not be sent now). */
  onSubmit(text: string): boolean;
  onQuit(): void;
  onCancelTurn(): void;
  onToggleThinking(): void;
  completeFiles(prefix: string): Promise<readonly string[]>;
}

interface Menu {
  readonly query: CompletionQuery;
  readonly items: readonly CompletionItem[];
  readonly selected: number;
}

/**
 * The multi-line input: Enter sends, `\`+Enter (or Alt+Enter, Ctrl+J) breaks the line, Up/Down walk the
 * history, `/` and `@` open completion menus (Tab or Enter accepts), Esc cancels the running turn,
 * Ctrl+C clears and then quits. Keys are applied to a ref first, so keys that arrive together never see
 * a stale input.
 */
export function PromptEditor(props: PromptEditorProps) {
  const editor = useRef<EditorState>(EMPTY_EDITOR);
  const menuRef = useRef<Menu | undefined>(undefined);
  const lookups = useRef(0);
  const [, setVersion] = useState(0);
  const [hint, setHint] = useState<string | undefined>(undefined);
  const redraw = (): void => setVersion((v) => v + 1);

  const setMenu = (menu: Menu | undefined): void => {
    menuRef.current = menu && menu.items.length > 0 ? menu : menu?.query.kind === 'file' ? menu : undefined;
  };

  const refreshMenu = (state: EditorState): void => {
    const query = completionQuery(state.text, state.cursor);
    if (!query) return setMenu(undefined);
    if (query.kind === 'slash') return setMenu({ query, items: slashItems(query.prefix, props.commands), selected: 0 });
    const lookup = ++lookups.current;
    setMenu({ query, items: menuRef.current?.query.kind === 'file' ? menuRef.current.items : [], selected: 0 });
    void props.completeFiles(query.prefix).then((paths) => {
      if (lookup !== lookups.current || menuRef.current?.query.kind !== 'file') return;
      setMenu({ query, items: fileItems(paths), selected: 0 });
      redraw();
    });
  };

  const update = (state: EditorState): void => {
    const changed = state.text !== editor.current.text || state.cursor !== editor.current.cursor;
    editor.current = state;
    if (changed) refreshMenu(state);
  };

  const submit = (text: string): void => {
    if (props.onSubmit(text)) {
      editor.current = EMPTY_EDITOR;
      setMenu(undefined);
    }
  };

  const menuKey = (menu: Menu, key: Key): boolean => {
    if (menu.items.length === 0) return false;
    if (key.upArrow || key.downArrow) {
      const selected = (menu.selected + (key.upArrow ? -1 : 1) + menu.items.length) % menu.items.length;
      menuRef.current = { ...menu, selected };
      return true;
    }
    if (key.escape) {
      menuRef.current = undefined;
      return true;
    }
    if (!key.tab && !(key.return && !key.meta && !key.shift)) return false;
    const item = menu.items[menu.selected]!;
    // Enter on a command typed in full sends it (with its input, if any follows).
    if (key.return && editor.current.text.slice(menu.query.start, menu.query.end) === item.value) return false;
    const next = applyCompletion(editor.current, menu.query, item);
    if (key.return && item.complete && menu.query.kind === 'slash') {
      editor.current = next;
      submit(item.value);
      return true;
    }
    update(next);
    return true;
  };

  useKeys(
    (input, key) => {
      setHint(undefined);
      const menu = menuRef.current;
      if (menu && menuKey(menu, key)) return redraw();
      const { state, effect } = editorKey(editor.current, input, key, props.history);
      update(state);
      if (effect?.type === 'submit') submit(effect.text);
      else if (effect?.type === 'quit') props.onQuit();
      else if (effect?.type === 'cancelTurn') props.onCancelTurn();
      else if (effect?.type === 'toggleThinking') props.onToggleThinking();
      else if (effect?.type === 'hint') setHint(effect.text);
      redraw();
    },
    props.active,
  );

  const placeholder = props.busy ? 'A turn is running · Esc cancels it' : 'Ask anything · / for commands · @ for files';
  const lines = editorLines(editor.current, props.width, props.maxLines, placeholder, props.active);
  const menu = menuRef.current;
  return (
    <Box flexDirection="column">
      <LinesRows lines={lines} />
      {menu ? <LinesRows lines={completionLines(menu.items, menu.selected, props.width, MENU_ITEMS)} /> : null}
      {hint ? <LinesRows lines={[[{ text: hint, style: { dim: true } }]]} /> : null}
    </Box>
  );
}
