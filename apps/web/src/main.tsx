import './shared/antd-react19';
import 'antd-mobile/es/global';
import './app/theme.css';
import { setDefaultConfig } from 'antd-mobile/es/components/config-provider';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadAntdLocale } from './app/antd-locale';
import { preloadPage } from './app/routes';
import { loadDialog } from './shared/dialog';
import { initI18n, loadAllTexts, storedLang } from './shared/i18n';
import { applyTheme, storedTheme } from './shared/theme';
import { loadToast } from './shared/toast';

// Theme first, so the page never flashes the wrong colours.
applyTheme(storedTheme());

async function start() {
  // the page's chunk downloads beside the language files, not after them
  preloadPage(window.location.hash.slice(1).split('?')[0] || '/');
  const lang = storedLang();
  const [, antdLocale] = await Promise.all([initI18n(lang), loadAntdLocale(lang)]);
  setDefaultConfig({ locale: antdLocale });
  const root = document.getElementById('root');
  if (!root) return;
  // A transition: React renders the first screen in slices of a few milliseconds, yielding to the
  // browser between them, instead of one task of a few hundred on a slow phone (Lighthouse's
  // Total Blocking Time). The boot bar stays until the commit.
  const app = createRoot(root);
  startTransition(() => {
    app.render(
      <StrictMode>
        <App antdLocale={antdLocale} />
      </StrictMode>,
    );
  });
}

void start();

// The first toast or dialog usually answers a tap, and a tap usually opens another page: fetch
// their code and the rest of the language's texts at the first interaction, so they are there without
// delay yet stay out of the first load.
const INTERACTIONS = ['pointerdown', 'touchstart', 'keydown'] as const;
function warm() {
  void loadToast();
  void loadDialog();
  void loadAllTexts().catch(() => {}); // the page that needs them reports a failure
  for (const type of INTERACTIONS) window.removeEventListener(type, warm, true);
}
for (const type of INTERACTIONS) window.addEventListener(type, warm, { capture: true, passive: true });
