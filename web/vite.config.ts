import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // The contracts are consumed from source, so web and services validate with the same schemas.
    alias: {
      '@artemis-studio/contracts': fileURLToPath(new URL('../libs/contracts/src/index.ts', import.meta.url)),
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  // STUDIO_ONE_BUNDLE builds the console as one script, as it shipped before it was split by route:
  // the baseline of the console-first-load benchmark, never shipped.
  build: process.env.STUDIO_ONE_BUNDLE ? { rolldownOptions: { output: { codeSplitting: false } } } : {},
  test: { environment: 'node', include: ['src/**/*.spec.{ts,tsx}'] },
});
