import { createContext, useContext } from 'react';
import { Paint } from '../terminal/paint.js';

/** How the view paints styled lines: with colours, or without (NO_COLOR). */
export const PaintContext = createContext(new Paint(true));

export function usePaint(): Paint {
  return useContext(PaintContext);
}
