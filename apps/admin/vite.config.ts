import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/admin/',
  plugins: [
    react(),
    // .br and .gz beside every text file, sent as is by the server (http/static.ts), like the H5 app
    compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' }),
  ],
  resolve: { dedupe: ['react', 'react-dom'] },
  server: {
    proxy: {
      '/api': { target: api, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // a desktop console on office connections: antd in one main chunk (about 350 kB gzip) is fine
    chunkSizeWarningLimit: 1500,
    // hashed files under static/: the server caches that folder for good, index.html never
    rolldownOptions: {
      output: {
        entryFileNames: 'static/js/[name]-[hash].js',
        chunkFileNames: 'static/js/[name]-[hash].js',
        assetFileNames: 'static/media/[name]-[hash][extname]',
      },
    },
  },
});
