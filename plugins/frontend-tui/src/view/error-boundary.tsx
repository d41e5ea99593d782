/** @jsxRuntime automatic */
import { Text } from 'ink';
import { Component, type ReactNode } from 'react';
import { describeError } from '../session/describe-error.js';

interface State {
  readonly error?: unknown;
}

/**
 * Catches a render that failed below it and shows one line instead of a stack trace; the next change
 * of `resetKey` tries again.
 */
export class ErrorBoundary extends Component<{ readonly children: ReactNode; readonly resetKey: unknown }, State> {
  override state: State = {};

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidUpdate(previous: { readonly resetKey: unknown }): void {
    if (this.state.error !== undefined && previous.resetKey !== this.props.resetKey) this.setState({ error: undefined });
  }

  override render(): ReactNode {
    if (this.state.error === undefined) return this.props.children;
    return <Text>{`✗ The screen could not be drawn: ${describeError(this.state.error)} (it is retried on the next change)`}</Text>;
  }
}
