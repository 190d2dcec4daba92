import '../shared/antd-react19';
import { cleanup, configure } from '@testing-library/react';
import Dialog from 'antd-mobile/es/components/dialog';
import Toast from 'antd-mobile/es/components/toast';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { initI18n, loadAllTexts } from '../shared/i18n';

// Lazy pages are compiled on first use in tests; give them time to arrive.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no scrolling; the shell scrolls to the top on every page change.
window.scrollTo = () => {};

beforeAll(async () => {
  // Tests read the English texts, as a user of the English interface would.
  await initI18n('en');
  await loadAllTexts(); // pages render here without lazy-page.ts, which waits for them in the app
});

afterEach(() => {
  cleanup();
  Dialog.clear();
  Toast.clear();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// Dialogs and toasts render into roots of their own, which cleanup() doesn't know, and unmount
// them when their closing animation ends. Let that happen before the DOM is torn down, or React
// finishes the work on a document that no longer exists ("window is not defined").
afterAll(async () => {
  Dialog.clear();
  Toast.clear();
  await new Promise((resolve) => setTimeout(resolve, 500));
});
