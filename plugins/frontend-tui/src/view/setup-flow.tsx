/** @jsxRuntime automatic */
import { Box } from 'ink';
import type { ProviderChoice } from '@nodwyn/protocol';
import { useState, type ReactNode } from 'react';
import type { ProviderSetup } from '../session/tui-controller.js';
import { wrapSpans } from '../terminal/wrap.js';
import { LineInput } from './line-input.js';
import { LinesRows } from './lines-text.js';
import { SelectList } from './select-list.js';
import { nextStep, type SetupChoice, type SetupStep } from './setup-step.js';

/** Where a local OpenAI-compatible server usually listens (Ollama). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:11434/v1';

const OTHER_MODEL = 'Another model (type its id)';

interface SetupFlowProps {
  readonly providers: readonly ProviderChoice[];
  readonly width: number;
  readonly rows: number;
  /** Configures the provider; rejects with what to tell the person. */
  onConfigure(setup: ProviderSetup): Promise<unknown>;
  onSkip(): void;
}

interface StepProps extends SetupFlowProps {
  readonly step: SetupStep;
  go(step: SetupStep): void;
  save(choice: SetupChoice, model: string): void;
}

function modelItems(provider: ProviderChoice | undefined): { label: string; detail?: string }[] {
  const models = provider?.models ?? [];
  return [...models.map((m) => ({ label: m.id, ...(m.input !== undefined ? { detail: `$${m.input} in / $${m.output ?? '?'} out per million tokens` } : {}) })), { label: OTHER_MODEL }];
}

/** The input of one step. */
function StepBody({ step, providers, width, rows, onSkip, go, save }: StepProps): ReactNode {
  switch (step.name) {
    case 'provider':
      return <SelectList key="provider" items={providers.map((p) => ({ label: p.id, detail: p.description }))} width={width} rows={rows} onCancel={onSkip} onSelect={(i) => go(nextStep(providers, { provider: providers[i]!.id }, 'provider'))} />;
    case 'key':
      return <LineInput key="key" label={`${step.choice.provider} API key`} mask width={width} onCancel={onSkip} onSubmit={(apiKey) => apiKey && go(nextStep(providers, { ...step.choice, apiKey }, 'key'))} />;
    case 'baseUrl':
      return <LineInput key="url" label="Base URL" initial={DEFAULT_BASE_URL} width={width} onCancel={onSkip} onSubmit={(baseUrl) => go(nextStep(providers, { ...step.choice, baseUrl: baseUrl || DEFAULT_BASE_URL }, 'baseUrl'))} />;
    case 'model': {
      const models = providers.find((p) => p.id === step.choice.provider)?.models ?? [];
      return <SelectList key="model" items={modelItems(providers.find((p) => p.id === step.choice.provider))} width={width} rows={rows} onCancel={onSkip} onSelect={(i) => (i < models.length ? save(step.choice, models[i]!.id) : go({ name: 'typedModel', choice: step.choice }))} />;
    }
    case 'typedModel':
      return <LineInput key="model" label="Model id" width={width} onCancel={onSkip} onSubmit={(model) => save(step.choice, model)} />;
    case 'saving':
      return <LinesRows lines={[[{ text: `Configuring ${step.choice.provider}…`, style: { dim: true } }]]} />;
    case 'failed':
      return (
        <Box flexDirection="column">
          <LinesRows lines={wrapSpans([{ text: '✗ ', style: { fg: 'red' } }, { text: step.message }], width)} />
          <SelectList key="failed" items={[{ label: 'Try again' }, { label: 'Skip the setup' }]} width={width} rows={2} onCancel={onSkip} onSelect={(i) => (i === 0 ? go({ name: 'provider' }) : onSkip())} />
        </Box>
      );
  }
}

/**
 * The first-run setup: a provider, then its key (masked) or its base URL, then a model, configured
 * through the agent (the key goes to the keychain, bound to the provider's host). A failure shows its
 * remediation; "Try again" starts over, Esc skips the setup.
 */
export function SetupFlow(props: SetupFlowProps) {
  const [step, go] = useState<SetupStep>({ name: 'provider' });
  const save = (choice: SetupChoice, model: string): void => {
    if (!model) return go({ name: 'typedModel', choice });
    go({ name: 'saving', choice });
    props.onConfigure({ ...choice, model }).catch((error: unknown) => go({ name: 'failed', message: error instanceof Error ? error.message : String(error) }));
  };
  return (
    <Box flexDirection="column">
      <LinesRows lines={[[{ text: 'Set up a model provider', style: { bold: true } }, { text: '  (first run · Esc skips)', style: { dim: true } }]]} />
      <StepBody {...props} step={step} go={go} save={save} />
    </Box>
  );
}
