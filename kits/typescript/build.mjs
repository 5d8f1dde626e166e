// The adapter type-checked (tsc's rules, tsconfig.json: `strict`) and bundled into one
// file, dist/adapter.js, with everything it imports: this kit, and your engine from any
// folder (`import { Game } from "../../my42/src/game"`), extensionless imports and
// CommonJS packages included. `npm run build` builds the example; `npm run build --
// src/adapter.ts` (or `node build.mjs src/adapter.ts`) another entry, checked the same
// way: the entry and every file it imports, wherever tsconfig.json's `include` points.
// The bundle carries its source map: run it with `node --enable-source-maps` and a crash's
// stack names the .ts file and line, not the bundle's.
import { build } from "esbuild";
import ts from "typescript";

const entry = process.argv[2] ?? "example/adapter.ts";

const { config, error } = ts.readConfigFile("tsconfig.json", ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(config ?? {}, ts.sys, process.cwd());
const program = ts.createProgram({ rootNames: [entry], options: parsed.options });
const NO_INPUTS = 18003; // `include` matches nothing: the entry is the input here
const problems = [...(error ? [error] : []),
  ...parsed.errors.filter((d) => d.code !== NO_INPUTS), ...ts.getPreEmitDiagnostics(program)];
if (problems.length) {
  process.stdout.write(ts.formatDiagnostics(problems, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: ts.sys.getCurrentDirectory,
    getNewLine: () => ts.sys.newLine,
  }));
  console.error(`build.mjs: ${problems.length} type error(s) in ${entry} or what it imports: no bundle written`);
  process.exit(2);
}

await build({
  entryPoints: [entry],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node18",
  outfile: "dist/adapter.js",
  sourcemap: "inline", // one file still: it runs from anywhere, its map with it
  sourcesContent: false, // the map needs the files' names and lines, not their text
  // an ES module has no `require`: CommonJS code of the engine or its packages gets one, a
  // global (a top-level name here would clash with the same name in the engine's code)
  banner: {
    js: "import { createRequire as t42CreateRequire } from 'node:module';\n"
      + "globalThis.require ??= t42CreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
