import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1000,
    // Browsers with CSS light-dark(): older targets make the CSS minifier rewrite it into
    // variables that only its own color-scheme rules define, and the colours vanish.
    cssTarget: ['chrome123', 'edge123', 'firefox120', 'safari17.5'],
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:4680' },
  },
});
