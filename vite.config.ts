import zlib from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";

const basePath = process.env.BASE_PATH || "/";

export default defineConfig({
  base: basePath.endsWith("/") ? basePath : `${basePath}/`,
  plugins: [
    reactRouter(),
    // Static assets precompressed at build time, at the strongest settings (docs/architecture/request-path.md
    // §7.1): brotli 11 and gzip 9 beside each file; server.ts serves them with express-static-gzip,
    // so no asset is compressed per request. The plugin sees the server build too (its index.js and
    // its copy of the CSS), which nothing downloads: those are left out.
    compression({
      include: /\.(js|mjs|css|svg|json|txt|wasm)$/,
      exclude: [/^index\.js$/, /server-build-[^/]*\.css$/],
      threshold: 1024,
      algorithms: [
        defineAlgorithm("brotliCompress", { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm("gzip", { level: 9 }),
      ],
      logLevel: "silent",
    }),
  ],
  resolve: { tsconfigPaths: true },
  // The server build's input is the Express pipeline (server/app.ts), which imports React Router's
  // server build, as in React Router's node-custom-server template: server.ts loads it from
  // build/server/index.js, so the pipeline and the app share one copy of every module.
  // Named server-build, so that its CSS copy keeps the name the compression plugin leaves out; one
  // file (no chunks), since the server loads it whole at start anyway.
  // date-fns is bundled in (the four functions the app uses): loaded from node_modules, its ESM entry's
  // ~250 modules each made Node read its 200 KB package.json exports again, 1.4 s of a start.
  environments: {
    ssr: {
      resolve: { noExternal: ["date-fns"] },
      build: { rolldownOptions: { input: { "server-build": "./server/app.ts" }, output: { codeSplitting: false } } },
    },
  },
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // Two chunks of libraries instead of the bundler's automatic cut (docs/architecture/README.md §2
        // "client chunks"): React and React Router, which every page loads, in one file (the
        // automatic cut made four, 3.3 KiB more gzip on /login); conform, which only the pages with
        // a form load, in another. zod is left to the automatic cut: the browser loads it with a
        // form's checks, when the user reaches the form (app/hooks/useValidatedForm.ts).
        codeSplitting: {
          groups: [
            { name: "framework", test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/, priority: 3 },
            // The app's pieces that need conform ride with it: every page with a validated form loads both.
            { name: "forms", test: /node_modules[\\/]@conform-to[\\/]|app[\\/](components[\\/]PasswordField\.tsx|hooks[\\/]useValidatedForm\.ts)$/, priority: 1 },
            // What the document shell (root) shares with pages, and the fields and messages nearly every page
            // shows, in one file rather than five tiny ones. Above `forms`, which would otherwise take them
            // in as its modules' dependencies.
            { name: "shell", test: /app[\\/](components[\\/](Logo|TextOnly|Field)\.tsx|hooks[\\/]useHydrated\.ts|messages[\\/]shell\.ts)$/, priority: 2 },
          ],
        },
      },
    },
  },
});
