#!/usr/bin/env node
// The `caretaker` command. Node >= 22.18 / 24 runs the TypeScript sources directly (type stripping:
// the sources use erasable syntax only, enforced by tsconfig `erasableSyntaxOnly`), so nothing is
// compiled at start-up and a fresh clone needs no build step. `npm run build` still emits dist/
// for images that prefer plain JavaScript (`node dist/cli.js serve`).
if (!process.features.typescript) {
  process.stderr.write(
    `caretaker: Node ${process.version} cannot run the TypeScript sources; use Node 24 (npm start / npm run ` +
      'use the pinned one from devDependencies) or Node >= 22.18.\n',
  );
  process.exit(1);
}
await import('../src/cli.ts');
