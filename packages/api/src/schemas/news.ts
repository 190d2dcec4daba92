// Notices written by operators (news/list, news/detail of spec §7) and the user's personal
// messages (news/messages*). Rules: docs/decisions.md ("Notices and messages").
import { type Static, Type } from '@sinclair/typebox';
import { LANGS } from '../lang.ts';
import { Literals, Str } from './common.ts';

export const NEWS_KINDS = ['notice', 'announcement'] as const;
export type NewsKind = (typeof NEWS_KINDS)[number];
/** draft: only operators see it; published: everyone does. */
export const NEWS_STATES = ['draft', 'published'] as const;
export type NewsState = (typeof NEWS_STATES)[number];
/** Every event a user is told of by a personal message. */
export const MESSAGE_KINDS = [
  'deposit_passed',
  'deposit_rejected',
  'withdrawal_passed',
  'withdrawal_rejected',
  'verification_passed',
  'verification_rejected',
  'option_delivered',
  // several options of one user delivered in one settlement pass: one message for them all
  'options_delivered',
  'position_liquidated',
  'subscription_passed',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const NEWS_TITLE_MAX = 120;
export const NEWS_BODY_MAX = 5000;

const Iso = (description: string) => Type.String({ description: `${description}, ISO 8601` });
const PageFields = {
  page: Str('Page number from 1 (default 1)', { maxLength: 9 }),
  limit: Str('Rows per page (default 20, at most 100)', { maxLength: 9 }),
};

export const NewsListBody = Type.Object(PageFields);
export type NewsListBody = Static<typeof NewsListBody>;

export const NewsItem = Type.Object({
  id: Type.Integer(),
  kind: Literals(NEWS_KINDS),
  title: Type.String({ description: "In the request's language, else English" }),
  summary: Type.String({ description: 'The start of the body, for lists and the notice bar' }),
  published_at: Iso('When it was published'),
  read: Type.Boolean({ description: 'Opened by this user (always false when not logged in)' }),
});
export type NewsItem = Static<typeof NewsItem>;

export const NewsPage = Type.Object({
  items: Type.Array(NewsItem),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
  unread: Type.Integer({ description: 'Published notices this user has not opened (0 when not logged in)' }),
});
export type NewsPage = Static<typeof NewsPage>;

export const NewsDetailBody = Type.Object({ id: Str('Notice id; required', { maxLength: 9 }) });
export type NewsDetailBody = Static<typeof NewsDetailBody>;

export const NewsDetail = Type.Object({
  ...NewsItem.properties,
  body: Type.String({ description: 'Plain text with line breaks' }),
});
export type NewsDetail = Static<typeof NewsDetail>;

export const Message = Type.Object({
  id: Type.String(),
  kind: Literals(MESSAGE_KINDS),
  title: Type.String({ description: "In the request's language (live pushes: the user's language)" }),
  body: Type.String(),
  read: Type.Boolean(),
  created_at: Iso('When the event happened'),
});
export type Message = Static<typeof Message>;

export const MessagePage = Type.Object({
  items: Type.Array(Message),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
  unread: Type.Integer(),
});
export type MessagePage = Static<typeof MessagePage>;

export const MessageUnread = Type.Object({
  messages: Type.Integer({ description: 'Unread personal messages' }),
  notices: Type.Integer({ description: 'Published notices not opened yet' }),
});
export type MessageUnread = Static<typeof MessageUnread>;

export const MessageReadBody = Type.Object({
  id: Str('A message id, or "all" for every message', { maxLength: 20 }),
});
export type MessageReadBody = Static<typeof MessageReadBody>;

// ---- operators ----

/** Text per language code; English required, the rest optional (they fall back to English). */
export const NewsTexts = Type.Record(Type.String(), Type.String());
export type NewsTexts = Record<string, string>;

export const AdminNews = Type.Object({
  id: Type.Integer(),
  kind: Literals(NEWS_KINDS),
  status: Literals(NEWS_STATES),
  title: NewsTexts,
  body: NewsTexts,
  published_at: Type.Union([Iso('When published'), Type.Null()]),
  created_at: Iso('Created'),
  updated_at: Iso('Last edited'),
});
export type AdminNews = Static<typeof AdminNews>;

export const AdminNewsQuery = Type.Object({
  status: Str('draft, published or all (default all)', { maxLength: 20 }),
  ...PageFields,
});
export type AdminNewsQuery = Static<typeof AdminNewsQuery>;

const textFields = Object.fromEntries(
  LANGS.flatMap((l) => [
    [`title_${l}`, Str(`Title in ${l}${l === 'en' ? ' (required)' : ''}`, { maxLength: 1000 })],
    [`body_${l}`, Str(`Body in ${l}${l === 'en' ? ' (required)' : ''}`, { maxLength: 20000 })],
  ]),
);

/** A notice as an operator writes it: one title and body field per language (title_en, body_th...). */
export const AdminNewsBody = Type.Object({
  id: Str('Notice id (edit only)', { maxLength: 9 }),
  kind: Str('notice (default) or announcement', { maxLength: 20 }),
  ...textFields,
});
export type AdminNewsBody = Static<typeof AdminNewsBody> & Record<string, string | undefined>;

export const AdminNewsIdBody = Type.Object({ id: Str('Notice id; required', { maxLength: 9 }) });
export type AdminNewsIdBody = Static<typeof AdminNewsIdBody>;
