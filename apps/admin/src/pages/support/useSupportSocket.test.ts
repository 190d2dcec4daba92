import { QueryClient } from '@tanstack/react-query';
import type { SupportHistory, SupportMessage } from '@verdant/api';
import { describe, expect, it } from 'vitest';
import { addMessage, applyRead, supportKeys } from './useSupportSocket';

const msg = (id: number, sender: 'user' | 'support', read = false): SupportMessage => ({
  id,
  conversation_id: 5,
  sender,
  operator: sender === 'support' ? 'ann' : null,
  text: `m${id}`,
  picture: null,
  client_id: null,
  read,
  created_at: '2026-11-25T10:00:00.000Z',
});

function withChat(items: SupportMessage[], unread = 0) {
  const qc = new QueryClient();
  qc.setQueryData<SupportHistory>(supportKeys.messages(5), { items, has_more: false, unread });
  return { qc, chat: () => qc.getQueryData<SupportHistory>(supportKeys.messages(5)) };
}

describe('the open chat follows the socket', () => {
  it("a user's message shows once, newest first, and counts as unread, even when it arrives twice", () => {
    const { qc, chat } = withChat([msg(2, 'support'), msg(1, 'user')]);
    addMessage(qc, msg(3, 'user'));
    addMessage(qc, msg(3, 'user'));
    expect(chat()?.items.map((m) => m.id)).toEqual([3, 2, 1]);
    expect(chat()?.unread).toBe(1);
  });

  it("support's own answer (the reply's answer and its event) shows once and is not unread", () => {
    const { qc, chat } = withChat([msg(1, 'user')]);
    addMessage(qc, msg(2, 'support'));
    addMessage(qc, msg(2, 'support'));
    expect(chat()?.items.map((m) => m.id)).toEqual([2, 1]);
    expect(chat()?.unread).toBe(0);
  });

  it('a chat nobody has open is left alone (it loads in full when opened)', () => {
    const qc = new QueryClient();
    addMessage(qc, msg(1, 'user'));
    expect(qc.getQueryData(supportKeys.messages(5))).toBeUndefined();
  });

  it("the user's read mark marks support's answers up to it as read, and no further", () => {
    const { qc, chat } = withChat([msg(4, 'support'), msg(3, 'support'), msg(2, 'user'), msg(1, 'support')]);
    applyRead(qc, { conversation_id: 5, reader: 'user', up_to: 3 });
    expect(chat()?.items.map((m) => [m.id, m.read])).toEqual([
      [4, false],
      [3, true],
      [2, false],
      [1, true],
    ]);
  });

  it("support's read mark (this operator's or another's) clears the unread count", () => {
    const { qc, chat } = withChat([msg(2, 'user'), msg(1, 'user')], 2);
    applyRead(qc, { conversation_id: 5, reader: 'support', up_to: 2 });
    expect(chat()?.unread).toBe(0);
  });
});
