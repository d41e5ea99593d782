import { createToken, definePlugin } from '@nodwyn/plugin-api';

export interface Clock {
  now(): Date;
}

export const ClockToken = createToken<Clock>('acme.clock');

export const clockPlugin = definePlugin({
  manifest: { name: '@acme/nodwyn-plugin-clock', version: '1.0.0', apiVersion: '^0.1.0', provides: ['service:acme.clock'] },
  register(ctx) {
    ctx.services.provide(ClockToken, { now: () => new Date() });
  },
});
