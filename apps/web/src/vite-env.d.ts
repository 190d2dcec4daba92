/// <reference types="vite/client" />

/** The web package's version, injected by vite.config.ts (shown in Settings). */
declare const __APP_VERSION__: string;
