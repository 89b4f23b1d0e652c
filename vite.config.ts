import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { entryChunk } from './src/app/buildContract.ts';
import { parseEnv } from './src/config/envSchema.ts';

export default defineConfig(({ mode, isSsrBuild }) => {
  // Validate the operator's VITE_* values once, and hand the defaulted values to Vite.
  const source = { ...loadEnv(mode, import.meta.dirname, ['VITE_', 'SUPABASE_LOCAL_PORT']) };
  Object.assign(process.env, parseEnv(source));
  return {
    plugins: [react(), tailwindcss()],
    define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
    server: { port: Number(process.env.PORT ?? 5173), strictPort: true },
    preview: { port: Number(process.env.PORT ?? 4173) },
    build: {
      target: 'es2022',
      sourcemap: false,
      manifest: true,
      // The entry chunk's name is part of the build's contract with the entry (src/app/buildContract.ts).
      rolldownOptions: isSsrBuild ? {} : { output: { entryFileNames: entryChunk.fileNames } },
      modulePreload: {
        // No polyfill in the entry: every browser the site supports preloads modules itself (Chrome
        // 66, Safari 17, Firefox 115); an older one loads each module when it is imported.
        polyfill: false,
        // The entry's imports of the app (React DOM, then src/app/boot.tsx) get no preload links
        // from Vite: the entry preloads the app together with the page's own modules
        // (src/main.tsx), and a second <link rel=modulepreload> per module would cost the main
        // thread about 1 ms each on a phone for nothing.
        resolveDependencies: (_filename, deps, { hostId }) => (entryChunk.matches(hostId) ? [] : deps),
      },
    },
  };
});
