import type { ClientEvent } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { chunk } from '../../test/session-events.js';
import { EventFeed } from './event-feed.js';

describe('EventFeed', () => {
  it('delivers the events of a frame together, in order', async () => {
    const delivered: (readonly ClientEvent[])[] = [];
    const feed = new EventFeed((events) => delivered.push(events), () => 's', 5);
    feed.push(chunk('s', 'a'));
    feed.push(chunk('s', 'b'));
    expect(delivered).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(delivered).toEqual([[chunk('s', 'a'), chunk('s', 'b')]]);
  });

  it('holds the events of a session not shown, and hands them over when it is', () => {
    let shown = 's';
    const delivered: ClientEvent[] = [];
    const feed = new EventFeed((events) => delivered.push(...events), () => shown, 5);
    feed.push(chunk('new', 'early'));
    feed.push(chunk('s', 'now'));
    feed.flush();
    expect(delivered).toEqual([chunk('s', 'now')]);
    shown = 'new';
    feed.adopt('new');
    feed.flush();
    expect(delivered).toEqual([chunk('s', 'now'), chunk('new', 'early')]);
    feed.close();
  });
});
