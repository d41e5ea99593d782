/** @jsxRuntime automatic */
import { useEffect, useState } from 'react';
import type { TurnState } from '../state/tui-state.js';
import { LinesRows } from './lines-text.js';

const FRAMES = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

/** A spinner while a turn runs with nothing streaming yet, saying how to cancel it. */
export function BusyLine({ turn }: { readonly turn: TurnState }) {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), 100);
    return () => clearInterval(timer);
  }, []);
  const text = turn === 'cancelling' ? 'Cancelling…' : turn === 'sending' ? 'Sending…' : 'Working… (Esc cancels)';
  return <LinesRows lines={[[{ text: `${FRAMES[tick % FRAMES.length]} `, style: { fg: 'cyan' } }, { text, style: { dim: true } }]]} />;
}
