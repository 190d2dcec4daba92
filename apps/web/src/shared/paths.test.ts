import { describe, expect, it } from 'vitest';
import { href, isProtectedPath, loginHref, pages, paths, safeBackpage } from './paths';

describe('paths', () => {
  it('build the login address with the encoded backpage and backtype 1', () => {
    expect(loginHref('/pages/assets/index?coin=USDT')).toBe(
      '/pages/user/login/login?backpage=%2Fpages%2Fassets%2Findex%3Fcoin%3DUSDT&backtype=1',
    );
    expect(loginHref()).toBe('/pages/user/login/login');
    expect(loginHref('/pages/user/login/register')).toBe('/pages/user/login/login');
  });

  it('accept only in-app backpages', () => {
    expect(safeBackpage('/pages/assets/index?coin=USDT')).toBe('/pages/assets/index?coin=USDT');
    expect(safeBackpage('%2Fpages%2Fassets%2Findex')).toBe('/pages/assets/index');
    expect(safeBackpage('https://evil.example')).toBeNull();
    expect(safeBackpage('//evil.example')).toBeNull();
    expect(safeBackpage('/pages/user/login/login')).toBeNull();
    expect(safeBackpage(null)).toBeNull();
  });

  it('mark the protected pages of the spec', () => {
    for (const p of [
      paths.assets,
      paths.deposit,
      paths.verificationBasic,
      paths.addressCreate,
      paths.addBank,
    ]) {
      expect(isProtectedPath(p), p).toBe(true);
    }
    for (const p of [paths.home, paths.trade, paths.kline, paths.settings, paths.language, paths.login]) {
      expect(isProtectedPath(p), p).toBe(false);
    }
    expect(pages.promotion.auth && pages.financeBuy.auth && pages.chat.auth).toBe(true);
    expect(pages.finance.auth || pages.helpCenter.auth || pages.notices.auth).toBe(false);
  });

  it('add a query string', () => {
    expect(href('helpDetail', { id: 'pricing' })).toBe('/pages/help-center/detail?id=pricing');
    expect(href('settings')).toBe('/pages/settings/index');
  });
});
