/** @jsxRuntime automatic */
import { Box } from 'ink';
import { useKeys } from '../view/key-router.js';
import { useRef, useState } from 'react';
import { LinesRows } from '../view/lines-text.js';
import type { CommandInfo } from './completion.js';
import { completionLines } from './completion-lines.js';
import { editorKey } from './editor-keys.js';
import { editorLines } from './editor-lines.js';
import { EMPTY_EDITOR, type EditorState } from './editor-state.js';
import { menuKey } from './menu-keys.js';
import { useCompletionMenu } from './use-completion-menu.js';

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

/** What the effects that leave the editor do. */
const EFFECTS: Record<'quit' | 'cancelTurn' | 'toggleThinking', (props: PromptEditorProps) => void> = {
  quit: (props) => props.onQuit(),
  cancelTurn: (props) => props.onCancelTurn(),
  toggleThinking: (props) => props.onToggleThinking(),
};

/**
 * The multi-line input: Enter sends, `\`+Enter (or Alt+Enter, Ctrl+J) breaks the line, Up/Down walk the
 * history, `/` and `@` open completion menus (Tab or Enter accepts), Esc cancels the running turn,
 * Ctrl+C clears and then quits. Keys are applied to a ref first, so keys that arrive together never see
 * a stale input.
 */
export function PromptEditor(props: PromptEditorProps) {
  const editor = useRef<EditorState>(EMPTY_EDITOR);
  const [, setVersion] = useState(0);
  const [hint, setHint] = useState<string | undefined>(undefined);
  const redraw = (): void => setVersion((v) => v + 1);
  const menus = useCompletionMenu(props.commands, props.completeFiles, redraw);
  const menuRef = menus.current;

  const update = (state: EditorState): void => {
    const changed = state.text !== editor.current.text || state.cursor !== editor.current.cursor;
    editor.current = state;
    if (changed) menus.refresh(state);
  };

  const submit = (text: string): void => {
    if (props.onSubmit(text)) {
      editor.current = EMPTY_EDITOR;
      menuRef.current = undefined;
    }
  };

  useKeys(
    (input, key) => {
      setHint(undefined);
      const menu = menuRef.current;
      const handled = menu ? menuKey(menu, key, editor.current) : undefined;
      if (handled?.handled) {
        menuRef.current = handled.menu;
        if (handled.submit !== undefined) {
          editor.current = handled.editor!;
          submit(handled.submit);
        } else if (handled.editor) {
          update(handled.editor);
        }
        return redraw();
      }
      const { state, effect } = editorKey(editor.current, input, key, props.history);
      update(state);
      if (effect?.type === 'submit') submit(effect.text);
      else if (effect?.type === 'hint') setHint(effect.text);
      else if (effect) EFFECTS[effect.type](props);
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
