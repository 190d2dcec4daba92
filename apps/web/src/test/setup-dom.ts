import '../shared/antd-react19';
import { cleanup, configure } from '@testing-library/react';
import Toast from 'antd-mobile/es/components/toast';
import { afterEach, beforeAll, vi } from 'vitest';
import { initI18n } from '../shared/i18n';

// Lazy pages are compiled on first use in tests; give them time to arrive.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no scrolling; the shell scrolls to the top on every page change.
window.scrollTo = () => {};

beforeAll(async () => {
  // Tests read the English texts, as a user of the English interface would.
  await initI18n('en');
});

afterEach(() => {
  cleanup();
  Toast.clear();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
