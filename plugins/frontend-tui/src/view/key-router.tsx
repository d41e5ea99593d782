/** @jsxRuntime automatic */
import { useInput, type Key } from 'ink';
import { createContext, useContext, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';

/** What handles a key. */
export type KeyHandler = (input: string, key: Key) => void;

/**
 * Gives each key to one handler: the one that took the keyboard last (a dialog over the editor). Handlers
 * are added in a layout effect, synchronously when their component appears, so a key typed right after a
 * dialog opens is never lost (ink's own `useInput` subscribes later, in a passive effect).
 */
class KeyRouter {
  readonly #handlers: { current: KeyHandler }[] = [];

  add(handler: { current: KeyHandler }): () => void {
    this.#handlers.push(handler);
    return () => {
      const i = this.#handlers.indexOf(handler);
      if (i >= 0) this.#handlers.splice(i, 1);
    };
  }

  dispatch(input: string, key: Key): void {
    this.#handlers.at(-1)?.current(input, key);
  }
}

const KeyRouterContext = createContext<KeyRouter | undefined>(undefined);

/** Reads the keyboard once for everything below it. */
export function KeyRouterProvider({ children }: { readonly children: ReactNode }) {
  const router = useMemo(() => new KeyRouter(), []);
  useInput((input, key) => router.dispatch(input, key));
  return <KeyRouterContext.Provider value={router}>{children}</KeyRouterContext.Provider>;
}

/** Takes the keyboard while `active`; the handler always sees the props of the last render. */
export function useKeys(handler: KeyHandler, active = true): void {
  const router = useContext(KeyRouterContext);
  if (!router) throw new Error('useKeys needs a KeyRouterProvider above it');
  const ref = useRef(handler);
  useLayoutEffect(() => {
    ref.current = handler;
  });
  useLayoutEffect(() => (active ? router.add(ref) : undefined), [router, active]);
}
