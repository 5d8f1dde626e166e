// The adapter bundled into one file, dist/adapter.js, with everything it imports: this
// kit, and your engine from any folder (`import { Game } from "../../my42/src/game"`),
// extensionless imports and CommonJS packages included. `npm run build` type-checks first
// (tsc, tsconfig.json); node build.mjs [ENTRY] bundles another entry than the example.
import { build } from "esbuild";

const entry = process.argv[2] ?? "example/adapter.ts";
await build({
  entryPoints: [entry],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node18",
  outfile: "dist/adapter.js",
  // an ES module has no `require`: CommonJS code of the engine or its packages gets one, a
  // global (a top-level name here would clash with the same name in the engine's code)
  banner: {
    js: "import { createRequire as t42CreateRequire } from 'node:module';\n"
      + "globalThis.require ??= t42CreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
