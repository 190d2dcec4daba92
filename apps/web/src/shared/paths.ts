import type en from '../locales/en.json';

/** Every hash route of the app (spec §2), verbatim. The one place a path is written. */
export const paths = {
  home: '/',
  homeAlias: '/pages/index/index',
  trade: '/pages/trade/index',
  option: '/pages/option/detail',
  template: '/pages/template/index',
  assets: '/pages/assets/index',

  settings: '/pages/settings/index',
  language: '/pages/settings/language/language',
  account: '/pages/settings/account/index',
  security: '/pages/settings/security/index',
  changePassword: '/pages/settings/security/changePassword',
  changePayPassword: '/pages/settings/security/changePayPassword',

  loginChoose: '/pages/user/login/choose',
  login: '/pages/user/login/login',
  register: '/pages/user/login/register',
  forgetPassword: '/pages/user/login/forgetPassword',
  addressList: '/pages/user/address/index',
  address: '/pages/user/address/address',
  addressCreate: '/pages/user/address/create',

  notices: '/pages/notice/index',
  notice: '/pages/index/notice/notice',
  publication: '/pages/publication/index',
  publicationDetails: '/pages/publication/details',
  publicationPurchase: '/pages/publication/purchase',
  kline: '/pages/trade/kline',
  lever: '/pages/lever/index',
  verification: '/pages/verification/index',
  verificationBasic: '/pages/verification/basic',
  verificationAdvanced: '/pages/verification/advanced',

  tradeAccount: '/pages/assets/tradeAccount',
  transfer: '/pages/assets/transfer/index',
  transferRecord: '/pages/assets/transfer/record',
  deposit: '/pages/assets/deposit/index',
  depositCharge: '/pages/assets/deposit/charge',
  /** not in spec §2: Home's "VIP recharge channel" needs a page of its own (docs/decisions.md) */
  depositVip: '/pages/assets/deposit/vip',
  withdraw: '/pages/assets/withdraw/index',
  withdrawDetail: '/pages/assets/withdraw/detail',
  withdrawBank: '/pages/assets/withdraw/bank/bank',
  record: '/pages/assets/record',

  finance: '/pages/finance/index',
  financeBuy: '/pages/finance/buyPage',
  financeOrders: '/pages/finance/ordersPage',
  financeRules: '/pages/finance/rulePage',
  promotion: '/pages/promotion/index',

  helpCenter: '/pages/help-center/center',
  helpCenterAlias: '/pages/help/center/center',
  chat: '/pages/help-center/chat',
  helpDetail: '/pages/help-center/detail',
  bankCards: '/pages/bankbind/index',
  addBank: '/pages/bankbind/addbank',

  previewImage: '/preview-image',
  chooseLocation: '/choose-location',
  openLocation: '/open-location',
} as const;

export type PageName = keyof typeof paths;
export type TitleKey = keyof typeof en.titles;

export interface PageMeta {
  /** Shown in the navigation bar (or the tab header) and the document title. */
  title: TitleKey;
  /** Login required (spec §4, §6): visitors are sent to login with a backpage. */
  auth: boolean;
  /** One of the five bottom-bar tabs. */
  tab: boolean;
}

const meta = (title: TitleKey, auth = false, tab = false): PageMeta => ({ title, auth, tab });

export const pages: Record<PageName, PageMeta> = {
  home: meta('home', false, true),
  homeAlias: meta('home', false, true),
  trade: meta('trade', false, true),
  option: meta('option', false, true),
  template: meta('template', false, true),
  assets: meta('assets', true, true),

  settings: meta('settings'),
  language: meta('language'),
  account: meta('account', true),
  security: meta('security', true),
  changePassword: meta('changePassword', true),
  changePayPassword: meta('changePayPassword', true),

  loginChoose: meta('loginChoose'),
  login: meta('login'),
  register: meta('register'),
  forgetPassword: meta('forgetPassword'),
  addressList: meta('addressList', true),
  address: meta('address', true),
  addressCreate: meta('addressCreate', true),

  notices: meta('notices'),
  notice: meta('notice'),
  publication: meta('publication'),
  publicationDetails: meta('publicationDetails'),
  publicationPurchase: meta('publicationPurchase', true),
  kline: meta('kline'),
  lever: meta('lever'),
  verification: meta('verification', true),
  verificationBasic: meta('verificationBasic', true),
  verificationAdvanced: meta('verificationAdvanced', true),

  tradeAccount: meta('tradeAccount', true),
  transfer: meta('transfer', true),
  transferRecord: meta('transferRecord', true),
  deposit: meta('deposit', true),
  depositCharge: meta('depositCharge', true),
  depositVip: meta('depositVip', true),
  withdraw: meta('withdraw', true),
  withdrawDetail: meta('withdrawDetail', true),
  withdrawBank: meta('withdrawBank', true),
  record: meta('record', true),

  finance: meta('finance'),
  financeBuy: meta('financeBuy', true),
  financeOrders: meta('financeOrders', true),
  financeRules: meta('financeRules'),
  promotion: meta('promotion', true),

  helpCenter: meta('helpCenter'),
  helpCenterAlias: meta('helpCenter'),
  chat: meta('chat', true),
  helpDetail: meta('helpDetail'),
  bankCards: meta('bankCards', true),
  addBank: meta('addBank', true),

  previewImage: meta('previewImage'),
  chooseLocation: meta('chooseLocation'),
  openLocation: meta('openLocation'),
};

/** The five tabs in bottom-bar order. */
export const TAB_PAGES = [
  'home',
  'trade',
  'option',
  'template',
  'assets',
] as const satisfies readonly PageName[];

const byPath = new Map<string, PageName>(
  (Object.entries(paths) as [PageName, string][]).map(([name, path]) => [path, name]),
);

export function pageOf(pathname: string): PageName | undefined {
  return byPath.get(pathname);
}

export function isProtectedPath(pathname: string): boolean {
  const name = pageOf(pathname);
  return name ? pages[name].auth : false;
}

type Query = Record<string, string | number | undefined | null>;

/** A path with its query string, e.g. href('helpDetail', { id: 'pricing' }). */
export function href(name: PageName, query?: Query): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  }
  const s = search.toString();
  return s ? `${paths[name]}?${s}` : paths[name];
}

const LOGIN_PAGES: readonly string[] = [paths.loginChoose, paths.login, paths.register, paths.forgetPassword];

export function isLoginPath(pathname: string): boolean {
  return LOGIN_PAGES.includes(pathname);
}

/**
 * The login page for a return path (spec §2: backpage is the encoded path, backtype defaults to 1).
 * A login page as backpage would loop, so it is dropped.
 */
export function loginHref(backpage?: string, backtype = 1): string {
  const back = backpage && !isLoginPath(backpage.split('?')[0] ?? '') ? backpage : undefined;
  const parts = back ? [`backpage=${encodeURIComponent(back)}`, `backtype=${backtype}`] : [];
  return parts.length ? `${paths.login}?${parts.join('&')}` : paths.login;
}

/**
 * The in-app path a login page should return to, or null. Only app paths are accepted (never
 * another site), and a value still percent-encoded once more is decoded.
 */
export function safeBackpage(raw: string | null): string | null {
  if (!raw) return null;
  let value = raw;
  if (!value.startsWith('/') && /%2F/i.test(value)) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  if (isLoginPath(value.split('?')[0] ?? '')) return null;
  return value;
}
