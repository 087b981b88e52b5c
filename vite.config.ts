/// <reference types="vitest/config" />
import path from 'node:path'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

const here = import.meta.dirname
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`

export default defineConfig({
  plugins: [react()],
  root: path.join(here, 'src/client'),
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    // test/bench/bundle-size.bench.ts reads it to add up what the login route loads.
    manifest: true,
    rolldownOptions: {
      output: {
        // A stable React chunk (cached across releases) and a named chunk for ECharts, which only the
        // lazy workplace chart imports: the login route must stay under 300 KB of gzipped JavaScript
        // (npm run bench -- bundle-size). antd, tiptap and the rest are left to automatic splitting so a
        // page loads only what it uses. Groups pull in their dependencies: pulling them out instead
        // (includeDependenciesRecursively: false) broke tiptap's module order at run time.
        codeSplitting: {
          groups: [
            { name: 'react-vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 30 },
            { name: 'echarts', test: /node_modules[\\/](echarts|zrender)[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
  // ws: the message bus socket (/cloud-api/bus) goes through the same proxy.
  server: { port: 5173, proxy: { '/cloud-api': { target: apiTarget, ws: true } } },
  test: {
    projects: [
      {
        root: here,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['./test/unit/setup/fail-on-wasm-abort.ts'],
        },
      },
      {
        root: here,
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 120000,
          fileParallelism: false,
          // One worker imports the server once for all files instead of once per file (each file still
          // starts its own app on its own database): the SQLite stage took 333 s isolated, 151 s not.
          // Module state must therefore not carry one file's data into another (test/support counters).
          isolate: false,
          globalSetup: ['./test/api/setup/template-database.ts'],
          setupFiles: ['./test/api/setup/use-template.ts'],
        },
      },
    ],
  },
})
