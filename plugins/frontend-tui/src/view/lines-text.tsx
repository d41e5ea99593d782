/** @jsxRuntime automatic */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { Line } from '../terminal/paint.js';
import { usePaint } from './paint-context.js';

/**
 * Lines already laid out for the width, as one text node: for what is drawn once (the scrollback).
 * ink never wraps them again.
 */
export const LinesBlock = memo(function LinesBlock({ lines }: { readonly lines: readonly Line[] }) {
  const paint = usePaint();
  if (lines.length === 0) return null;
  return <Text wrap="truncate-end">{lines.map((l) => paint.line(l) || ' ').join('\n')}</Text>;
});

/**
 * Lines as one text node each: for the live region, where a delta changes only the last lines, so only
 * they are measured again (ink caches every text it measured, and a whole message per frame would pile up).
 */
export const LinesRows = memo(function LinesRows({ lines }: { readonly lines: readonly Line[] }) {
  const paint = usePaint();
  if (lines.length === 0) return null;
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {paint.line(line) || ' '}
        </Text>
      ))}
    </Box>
  );
});
