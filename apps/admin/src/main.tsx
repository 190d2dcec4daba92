import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { App } from './shell/App';

async function start() {
  await initI18n();
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App />);
}

void start();
