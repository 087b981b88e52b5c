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
      // Common-chunk merging moved the icons that the login page imports into the chunk of the whole
      // icon set (loaded lazily for menu icons), so /login fetched every icon: keep common chunks apart.
      experimental: { chunkOptimization: { mergeCommonChunks: false } },
      output: {
        // Stable vendor chunks (cached across releases) and one named chunk per heavy library, which
        // only lazy pages import: the login route must stay under 300 KB of gzipped JavaScript.
        // antd is left to automatic splitting so a page loads only the components it uses.
        codeSplitting: {
          // A group takes only its own library; shared dependencies (use-sync-external-store, …) stay where automatic splitting puts them.
          includeDependenciesRecursively: false,
          groups: [
            { name: 'react-vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 30 },
            { name: 'echarts', test: /node_modules[\\/](echarts|zrender)[\\/]/, priority: 20 },
            { name: 'monaco', test: /node_modules[\\/](monaco-editor|@monaco-editor)[\\/]/, priority: 20 },
            { name: 'spreadsheet', test: /node_modules[\\/]@fortune-sheet[\\/]/, priority: 20 },
            { name: 'rich-text', test: /node_modules[\\/](@tiptap|prosemirror-[a-z-]+)[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
  server: { port: 5173, proxy: { '/cloud-api': apiTarget } },
  test: {
    projects: [
      {
        root: here,
        test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'], environment: 'node' },
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
        },
      },
    ],
  },
})
