import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import pkg from './package.json' with { type: 'json' };

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/h5/',
  plugins: [
    react(),
    // Every text file also as .br (brotli 11) and .gz (gzip 9) beside it: compressed once here at
    // the highest levels, sent by the server as is to clients that accept them (http/static.ts).
    compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' }),
  ],
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
  },
  resolve: {
    // One React 19 at the repository root today; dedupe keeps every library on that one copy
    // should a dependency ever bring its own (two Reacts break hooks).
    dedupe: ['react', 'react-dom'],
  },
  server: {
    proxy: {
      '/api': { target: api, changeOrigin: true },
      '/socket.io': { target: api, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Spec §7: static chunks load from /h5/static/js.
    rolldownOptions: {
      output: {
        entryFileNames: 'static/js/[name]-[hash].js',
        chunkFileNames: 'static/js/[name]-[hash].js',
        assetFileNames: (info) =>
          info.names.some((n) => n.endsWith('.css'))
            ? 'static/css/[name]-[hash][extname]'
            : 'static/media/[name]-[hash][extname]',
      },
    },
  },
});
