// Help centre (spec §2: pages/help-center/*): common questions, feedback, and the live chat with
// support, answered by operators through admin/support/*. Rules: docs/decisions.md ("Help centre").
import { type Static, Type } from '@sinclair/typebox';
import { Literals, Str } from './common.ts';

/** The categories common questions are grouped by, in the order the centre shows them. */
export const HELP_CATEGORIES = ['account', 'deposit', 'trading', 'fees', 'contact'] as const;
export type HelpCategory = (typeof HELP_CATEGORIES)[number];
/** A conversation is open until support closes it; the user writing again opens it again. */
export const SUPPORT_CONVERSATION_STATES = ['open', 'closed'] as const;
export type SupportConversationState = (typeof SUPPORT_CONVERSATION_STATES)[number];
/** Who wrote a chat message. */
export const SUPPORT_SENDERS = ['user', 'support'] as const;
export type SupportSender = (typeof SUPPORT_SENDERS)[number];

/** A chat message's text, and a feedback's, in characters. */
export const SUPPORT_TEXT_MAX = 2000;
/** Pictures one feedback may carry. */
export const FEEDBACK_PICTURES_MAX = 3;
/** An article's title and body, in characters (operators' input). */
export const HELP_TITLE_MAX = 200;
export const HELP_BODY_MAX = 20000;
/** Search words, in characters. */
export const HELP_SEARCH_MAX = 100;
/** The customer-service address an operator may set, in characters. */
export const CUSTOMER_URL_MAX = 500;

export const SupportPaths = {
  articles: 'help/articles', // GET ?category&q
  article: 'help/article', // GET ?id (number or slug)
  feedback: 'help/feedback',
  messages: 'support/messages', // GET ?before&limit: the chat history, newest first
  send: 'support/send', // the same as the socket's support:send
  read: 'support/read',
  unread: 'support/unread', // GET
} as const;

export const AdminSupportPaths = {
  articles: 'admin/help/articles', // GET
  saveArticle: 'admin/help/save',
  deleteArticle: 'admin/help/delete',
  conversations: 'admin/support/conversations', // GET ?status&mine
  messages: 'admin/support/messages', // GET ?conversation_id&before&limit
  reply: 'admin/support/reply', // text and/or picture (a name from admin/support/upload)
  upload: 'admin/support/upload', // multipart "file", ?conversation_id: stored as the user's upload
  picture: 'admin/support/picture', // GET admin/support/picture/:name
  operators: 'admin/support/operators', // GET: who a chat can be assigned to
  context: 'admin/support/context', // GET ?conversation_id: the user beside the chat
  read: 'admin/support/read',
  typing: 'admin/support/typing',
  assign: 'admin/support/assign',
  close: 'admin/support/close',
  feedback: 'admin/help/feedback', // GET
  customerUrl: 'admin/support/customer_url', // GET the setting, POST to change it
} as const;

/**
 * Socket.IO events of the chat. A user's socket sends `send` (ack: SupportAck), `typing` and
 * `read`; it receives `message`, `typing` and `read` in its own room. Operators connect to the
 * `/operators` namespace with `auth.token` (an operator token) and receive every conversation's
 * `message`, `typing`, `read` and `conversation` events there.
 */
export const SupportEvents = {
  send: 'support:send',
  message: 'support:message',
  typing: 'support:typing',
  read: 'support:read',
  conversation: 'support:conversation',
} as const;
export const OPERATOR_NAMESPACE = '/operators';

const Iso = (description: string) => Type.String({ description: `${description}, ISO 8601` });

export const HelpArticle = Type.Object({
  id: Type.Integer(),
  slug: Type.Union([Type.String(), Type.Null()], { description: 'Stable name links use (e.g. pricing)' }),
  category: Literals(HELP_CATEGORIES),
  title: Type.String({ description: "In the request's language, English when it has none" }),
  body: Type.String({ description: 'Plain text; blank lines separate paragraphs' }),
  lang: Type.String({ description: 'The language the text is in' }),
  updated_at: Iso('Last edited'),
});
export type HelpArticle = Static<typeof HelpArticle>;

export const HelpArticlesQuery = Type.Object({
  category: Str('One category; all when empty', { maxLength: 20 }),
  q: Str('Search words (title and text)', { maxLength: HELP_SEARCH_MAX }),
});
export type HelpArticlesQuery = Static<typeof HelpArticlesQuery>;

export const HelpArticleQuery = Type.Object({ id: Str('Article id or slug', { maxLength: 60 }) });
export type HelpArticleQuery = Static<typeof HelpArticleQuery>;

export const FeedbackBody = Type.Object({
  content: Str('What you want to tell us; required', { maxLength: SUPPORT_TEXT_MAX * 2 }),
  pictures: Str('Stored upload names, comma separated (at most 3)', { maxLength: 300 }),
});
export type FeedbackBody = Static<typeof FeedbackBody>;

export const Feedback = Type.Object({
  id: Type.Integer(),
  content: Type.String(),
  pictures: Type.Array(Type.String()),
  created_at: Iso('Sent'),
});
export type Feedback = Static<typeof Feedback>;

export const SupportMessage = Type.Object({
  id: Type.Integer(),
  conversation_id: Type.Integer(),
  sender: Literals(SUPPORT_SENDERS),
  operator: Type.Union([Type.String(), Type.Null()], { description: "Support's username, operators only" }),
  text: Type.String(),
  picture: Type.Union([Type.String(), Type.Null()], { description: 'Stored upload name' }),
  client_id: Type.Union([Type.String(), Type.Null()], { description: "The sender's own id, echoed" }),
  read: Type.Boolean({ description: 'The other side has read it' }),
  created_at: Iso('Stored'),
});
export type SupportMessage = Static<typeof SupportMessage>;

export const SupportSendBody = Type.Object({
  text: Str('Message text (or a picture)', { maxLength: SUPPORT_TEXT_MAX * 2 }),
  picture: Str('Stored upload name (POST /api/upload first)', { maxLength: 64 }),
  client_id: Str("The client's own id for this message: sending it twice stores it once", {
    maxLength: 64,
  }),
});
export type SupportSendBody = Static<typeof SupportSendBody>;

/** Answer to a socket `support:send`. */
export type SupportAck = { ok: true; message: SupportMessage } | { ok: false; error: string };

export const SupportHistoryQuery = Type.Object({
  before: Str('Messages older than this id; the newest when empty', { maxLength: 18 }),
  limit: Str('How many (1-100, default 20)', { maxLength: 3 }),
});
export type SupportHistoryQuery = Static<typeof SupportHistoryQuery>;

export const SupportHistory = Type.Object({
  items: Type.Array(SupportMessage, { description: 'Newest first' }),
  has_more: Type.Boolean(),
  unread: Type.Integer({ description: 'Messages from the other side not read yet' }),
});
export type SupportHistory = Static<typeof SupportHistory>;

export const SupportReadBody = Type.Object({
  up_to: Str('The newest message id read', { maxLength: 18 }),
});
export type SupportReadBody = Static<typeof SupportReadBody>;

export const SupportUnread = Type.Object({ unread: Type.Integer() });
export type SupportUnread = Static<typeof SupportUnread>;

/** Socket payload of `support:read`: the other side read everything up to `up_to`. */
export interface SupportReadEvent {
  conversation_id: number;
  reader: SupportSender;
  up_to: number;
}
/** Socket payload of `support:typing`. */
export interface SupportTypingEvent {
  conversation_id: number;
  sender: SupportSender;
}

// ---- operators ---------------------------------------------------------------------------------

export const AdminConversation = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  user_account: Type.String(),
  status: Literals(SUPPORT_CONVERSATION_STATES),
  assigned_to: Type.Union([Type.Integer(), Type.Null()]),
  assigned_username: Type.Union([Type.String(), Type.Null()]),
  unread: Type.Integer({ description: "The user's messages support has not read" }),
  last_text: Type.String({ description: 'The newest message (empty for a picture)' }),
  last_at: Type.Union([Iso('The newest message'), Type.Null()]),
});
export type AdminConversation = Static<typeof AdminConversation>;

export const AdminConversationsQuery = Type.Object({
  status: Str('open (default), closed or all', { maxLength: 10 }),
  mine: Str('1: only those assigned to me', { maxLength: 1 }),
  page: Str('Page from 1', { maxLength: 9 }),
  limit: Str('Rows per page', { maxLength: 3 }),
});
export type AdminConversationsQuery = Static<typeof AdminConversationsQuery>;

export const AdminSupportHistoryQuery = Type.Object({
  conversation_id: Str('Conversation id; required', { maxLength: 9 }),
  before: Str('Messages older than this id', { maxLength: 18 }),
  limit: Str('How many (1-100, default 20)', { maxLength: 3 }),
});
export type AdminSupportHistoryQuery = Static<typeof AdminSupportHistoryQuery>;

export const AdminReplyBody = Type.Object({
  conversation_id: Str('Conversation id; required', { maxLength: 9 }),
  text: Str('Reply text', { maxLength: SUPPORT_TEXT_MAX * 2 }),
});
export type AdminReplyBody = Static<typeof AdminReplyBody>;

export const AdminConversationBody = Type.Object({
  conversation_id: Str('Conversation id; required', { maxLength: 9 }),
  operator_id: Str('assign: the operator to assign (empty: yourself)', { maxLength: 9 }),
  up_to: Str('read: the newest message id read', { maxLength: 18 }),
});
export type AdminConversationBody = Static<typeof AdminConversationBody>;

/** What support sees of the user beside a chat: the account, its verification and balances. */
export const AdminSupportContext = Type.Object({
  user_id: Type.Integer(),
  account: Type.String(),
  nickname: Type.String(),
  lang: Type.String(),
  status: Type.String({ description: 'normal or frozen (login)' }),
  withdraw_frozen: Type.Boolean(),
  verification: Type.String(),
  advanced_verification: Type.String(),
  created_at: Iso('Registered'),
  last_login_at: Type.Union([Iso('Last login'), Type.Null()]),
  balances: Type.Array(
    Type.Object({
      type: Type.String({ description: 'spot, option, contract or trust' }),
      symbol: Type.String(),
      available: Type.String({ description: 'Decimal string' }),
      frozen: Type.String({ description: 'Decimal string' }),
    }),
    { description: 'Accounts holding something' },
  ),
});
export type AdminSupportContext = Static<typeof AdminSupportContext>;

export const AdminArticle = Type.Object({
  id: Type.Integer(),
  slug: Type.Union([Type.String(), Type.Null()]),
  category: Literals(HELP_CATEGORIES),
  sort: Type.Integer(),
  published: Type.Boolean(),
  texts: Type.Record(Type.String(), Type.Object({ title: Type.String(), body: Type.String() }), {
    description: 'Per language (th, en, ja, ko, es, zh, hk); English is required',
  }),
  updated_at: Iso('Last edited'),
});
export type AdminArticle = Static<typeof AdminArticle>;

export const AdminArticleBody = Type.Object({
  id: Str('Article id; empty to create one', { maxLength: 9 }),
  slug: Str('Stable name (a-z, 0-9, -); optional', { maxLength: 40 }),
  category: Str('One of the categories; required', { maxLength: 20 }),
  sort: Str('Order in its category (smaller first)', { maxLength: 6 }),
  published: Str('1 or 0 (default 1)', { maxLength: 1 }),
  texts: Str('JSON: { "en": { "title", "body" }, "th": … }; English required', { maxLength: 200_000 }),
});
export type AdminArticleBody = Static<typeof AdminArticleBody>;

export const AdminArticleIdBody = Type.Object({ id: Str('Article id; required', { maxLength: 9 }) });
export type AdminArticleIdBody = Static<typeof AdminArticleIdBody>;

export const AdminFeedback = Type.Intersect([
  Feedback,
  Type.Object({ user_id: Type.Integer(), user_account: Type.String() }),
]);
export type AdminFeedback = Static<typeof AdminFeedback>;

export const CustomerUrlSetting = Type.Object({
  url: Type.String({ description: 'What "online service" opens' }),
  external: Type.Union([Type.String(), Type.Null()], {
    description: 'The external address an operator set; null: the built-in chat',
  }),
});
export type CustomerUrlSetting = Static<typeof CustomerUrlSetting>;

export const CustomerUrlBody = Type.Object({
  url: Str('An https:// address; empty to use the built-in chat again', { maxLength: CUSTOMER_URL_MAX }),
});
export type CustomerUrlBody = Static<typeof CustomerUrlBody>;
