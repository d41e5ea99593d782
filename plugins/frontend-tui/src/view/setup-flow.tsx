import { Box } from 'ink';
import type { ProviderChoice } from '@nodwyn/protocol';
import { useState } from 'react';
import type { ProviderSetup } from '../session/tui-controller.js';
import type { Line } from '../terminal/paint.js';
import { wrapSpans } from '../terminal/wrap.js';
import { LineInput } from './line-input.js';
import { LinesRows } from './lines-text.js';
import { SelectList } from './select-list.js';

/** Where a local OpenAI-compatible server usually listens (Ollama). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:11434/v1';

type Step =
  | { readonly name: 'provider' }
  | { readonly name: 'key' | 'baseUrl' | 'model' | 'typedModel' | 'saving'; readonly choice: Partial<ProviderSetup> & { provider: string } }
  | { readonly name: 'failed'; readonly message: string };

interface SetupFlowProps {
  readonly providers: readonly ProviderChoice[];
  readonly width: number;
  readonly rows: number;
  /** Configures the provider; rejects with what to tell the person. */
  onConfigure(setup: ProviderSetup): Promise<unknown>;
  onSkip(): void;
}

const OTHER_MODEL = 'Another model (type its id)';

/**
 * The first-run setup: a provider, then its key (masked) or its base URL, then a model, configured
 * through the agent (the key goes to the keychain, bound to the provider's host). A failure shows its
 * remediation; Enter starts over, Esc skips the setup.
 */
export function SetupFlow({ providers, width, rows, onConfigure, onSkip }: SetupFlowProps) {
  const [step, setStep] = useState<Step>({ name: 'provider' });
  const providerOf = (id: string): ProviderChoice => providers.find((p) => p.id === id)!;
  const after = (choice: Partial<ProviderSetup> & { provider: string }, done: 'provider' | 'key' | 'baseUrl'): Step => {
    const p = providerOf(choice.provider);
    if (done === 'provider' && p.needsKey) return { name: 'key', choice };
    if ((done === 'provider' || done === 'key') && p.needsBaseUrl) return { name: 'baseUrl', choice };
    return { name: p.models.length > 0 ? 'model' : 'typedModel', choice };
  };
  const save = (choice: Partial<ProviderSetup> & { provider: string }, model: string): void => {
    if (!model) return setStep({ name: 'typedModel', choice });
    setStep({ name: 'saving', choice });
    onConfigure({ ...choice, model }).catch((error: unknown) => setStep({ name: 'failed', message: error instanceof Error ? error.message : String(error) }));
  };
  const head: Line = [{ text: 'Set up a model provider', style: { bold: true } }, { text: '  (first run · Esc skips)', style: { dim: true } }];
  let body;
  switch (step.name) {
    case 'provider':
      body = (
        <SelectList
          key="provider"
          items={providers.map((p) => ({ label: p.id, detail: p.description }))}
          width={width}
          rows={rows}
          onSelect={(i) => setStep(after({ provider: providers[i]!.id }, 'provider'))}
          onCancel={onSkip}
        />
      );
      break;
    case 'key':
      body = <LineInput key="key" label={`${step.choice.provider} API key`} mask width={width} onCancel={onSkip} onSubmit={(apiKey) => apiKey && setStep(after({ ...step.choice, apiKey }, 'key'))} />;
      break;
    case 'baseUrl':
      body = <LineInput key="url" label="Base URL" initial={DEFAULT_BASE_URL} width={width} onCancel={onSkip} onSubmit={(baseUrl) => setStep(after({ ...step.choice, baseUrl: baseUrl || DEFAULT_BASE_URL }, 'baseUrl'))} />;
      break;
    case 'model': {
      const models = providerOf(step.choice.provider).models;
      const items = [...models.map((m) => ({ label: m.id, ...(m.input !== undefined ? { detail: `$${m.input} in / $${m.output ?? '?'} out per million tokens` } : {}) })), { label: OTHER_MODEL }];
      body = <SelectList key="model" items={items} width={width} rows={rows} onCancel={onSkip} onSelect={(i) => (i < models.length ? save(step.choice, models[i]!.id) : setStep({ name: 'typedModel', choice: step.choice }))} />;
      break;
    }
    case 'typedModel':
      body = <LineInput key="model" label="Model id" width={width} onCancel={onSkip} onSubmit={(model) => save(step.choice, model)} />;
      break;
    case 'saving':
      body = <LinesRows lines={[[{ text: `Configuring ${step.choice.provider}…`, style: { dim: true } }]]} />;
      break;
    case 'failed':
      body = (
        <Box flexDirection="column">
          <LinesRows lines={wrapSpans([{ text: '✗ ', style: { fg: 'red' } }, { text: step.message }], width)} />
          <SelectList key="failed" items={[{ label: 'Try again' }, { label: 'Skip the setup' }]} width={width} rows={2} onCancel={onSkip} onSelect={(i) => (i === 0 ? setStep({ name: 'provider' }) : onSkip())} />
        </Box>
      );
      break;
  }
  return (
    <Box flexDirection="column">
      <LinesRows lines={[head]} />
      {body}
    </Box>
  );
}
