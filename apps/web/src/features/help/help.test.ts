import type { SupportHistory, SupportMessage } from '@verdant/api';
import { describe, expect, it } from 'vitest';
import { type MessagePages, withMessage, withRead } from './api';

const msg = (id: number, sender: 'user' | 'support', read = false): SupportMessage => ({
  id,
  conversation_id: 1,
  sender,
  operator: null,
  text: `m${id}`,
  picture: null,
  client_id: null,
  read,
  created_at: '2026-01-01T00:00:00.000Z',
});
const pages = (...lists: SupportMessage[][]): MessagePages => ({
  pages: lists.map((items): SupportHistory => ({ items, has_more: false, unread: 0 })),
  pageParams: lists.map((_, i) => i),
});
const ids = (d: MessagePages | undefined) => d?.pages.map((p) => p.items.map((m) => m.id));

describe('the chat cache', () => {
  it('adds a new message on top of the newest page, once even when the ack and the event both bring it', () => {
    const start = pages([msg(3, 'user'), msg(2, 'support')], [msg(1, 'user')]);
    const once = withMessage(start, msg(4, 'support'));
    expect(ids(once)).toEqual([[4, 3, 2], [1]]);
    expect(ids(withMessage(once, msg(4, 'support')))).toEqual([[4, 3, 2], [1]]);
  });

  it('replaces a known message with its newer copy (its read state) where it is', () => {
    const start = pages([msg(3, 'user')], [msg(1, 'user')]);
    const after = withMessage(start, msg(1, 'user', true));
    expect(after?.pages[1]?.items[0]?.read).toBe(true);
    expect(ids(after)).toEqual([[3], [1]]);
  });

  it('marks read only the sender’s messages up to the mark', () => {
    const start = pages([msg(4, 'user'), msg(3, 'support'), msg(2, 'user')]);
    const after = withRead(start, 'user', 2);
    expect(after?.pages[0]?.items.map((m) => [m.id, m.read])).toEqual([
      [4, false],
      [3, false],
      [2, true],
    ]);
  });
});
