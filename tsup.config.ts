import { defineConfig } from 'tsup';

// One bundle for the binary; `serve` and the server are split out so `import` starts fast.
// Each worker (analytics and its episode reader, writer, analysis, comparison, an import's reader) is its own entry: a worker thread starts from a file.
export default defineConfig({
  entry: { cli: 'cli/main.ts', 'analytics-worker': 'server/analytics/worker.ts', 'episode-worker': 'server/analytics/episode-worker.ts', 'writer-worker': 'server/writer/worker.ts', 'analysis-worker': 'server/ai/worker.ts', 'compare-worker': 'server/evidence/compare-worker.ts', 'import-reader-worker': 'server/workers/import-reader.ts', reporter: 'reporter/index.ts' },
  outDir: 'dist',
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  splitting: true,
  sourcemap: true,
  // Stale chunks of earlier builds would ship in the package; vite writes dist/ui afterwards.
  clean: true,
  // Native and Node-only dependencies stay external: npm installs them beside the package.
  external: ['better-sqlite3'],
  // Kysely ships as ~140 ES modules: resolving and loading them one by one cost every command
  // (an import too) about 100 ms of CPU at start; bundled, what is used loads in a few ms.
  noExternal: ['kysely'],
});
