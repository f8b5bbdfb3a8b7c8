#!/usr/bin/env node
// The `caretaker` command. Runs the TypeScript sources through tsx's loader, so a fresh clone needs
// no build step; `npm run build` produces dist/ for deployments that prefer plain JavaScript.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
