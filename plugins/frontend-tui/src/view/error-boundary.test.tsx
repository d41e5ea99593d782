import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ErrorBoundary } from './error-boundary.js';

function Broken({ fail }: { readonly fail: boolean }) {
  if (fail) throw Object.assign(new Error('layout exploded\n    at Broken (view.tsx:1:1)'), {});
  return <Text>fine</Text>;
}

describe('ErrorBoundary', () => {
  it('shows a failed render as one line, never a stack trace, and draws again on the next change', () => {
    const ui = render(
      <ErrorBoundary resetKey={1}>
        <Broken fail />
      </ErrorBoundary>,
    );
    const frame = ui.lastFrame() ?? '';
    expect(frame).toBe('✗ The screen could not be drawn: layout exploded (it is retried on the next change)');
    ui.rerender(
      <ErrorBoundary resetKey={2}>
        <Broken fail={false} />
      </ErrorBoundary>,
    );
    expect(ui.lastFrame()).toBe('fine');
    ui.unmount();
  });
});
