import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { localeSplit } from './locale-split.ts';

export default defineProject({
  plugins: [localeSplit()],
  resolve: {
    // Pages import antd-mobile's root, whose "main" is CommonJS under Node; the React 19 render
    // bridge (src/shared/antd-react19.ts) patches the ES build. One build for both, as in the app.
    alias: [
      { find: /^antd-mobile$/, replacement: fileURLToPath(import.meta.resolve('antd-mobile/es/index.js')) },
    ],
  },
  define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', '*.test.ts'],
    setupFiles: ['src/test/setup-dom.ts'],
    // the first test of a file compiles its lazy pages on the spot
    testTimeout: 20_000,
    server: { deps: { inline: ['antd-mobile'] } },
  },
});
