import { defineConfig } from 'tsup';

// One bundle for the binary; `serve` and the server are split out so `import` starts fast.
export default defineConfig({
  entry: { cli: 'cli/main.ts' },
  outDir: 'dist',
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  splitting: true,
  sourcemap: true,
  clean: false,
  // Native and Node-only dependencies stay external: npm installs them beside the package.
  external: ['better-sqlite3'],
});
