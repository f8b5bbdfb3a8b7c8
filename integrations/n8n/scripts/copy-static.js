// After tsc: copies the icons beside the compiled nodes (n8n reads `file:` icons relative to the
// compiled .js) and marks dist/ as CommonJS, the format n8n loads community nodes in (the
// sources are ES modules so that the Caretaker repository's tests import them as they are).
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';

mkdirSync('dist/icons', { recursive: true });
cpSync('icons', 'dist/icons', { recursive: true });
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
