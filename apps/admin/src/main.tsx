import { createRoot } from 'react-dom/client';

// The operator console's entry: the app itself lands with issue 23's first pages.
createRoot(document.getElementById('root') as HTMLElement).render(<p>Verdant operator console</p>);
