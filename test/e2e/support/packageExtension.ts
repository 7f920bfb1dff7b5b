// Builds the bundles and packages the extension into a .vsix, as a user's install would get it.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

/** Runs a command in the repository root; rejects with its output when it fails. */
export function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? repoRoot, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => reject(new Error(`${command} could not start: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolvePromise(output);
      else reject(new Error(`\`${command} ${args.join(' ')}\` failed (${signal ?? `exit ${code}`}):\n${output.trim()}`));
    });
  });
}

/**
 * `npm run build`, then `vsce package --no-dependencies` into outDir. Resolves to the .vsix path.
 * The bundles are built by esbuild, so the package needs no node_modules.
 */
export async function packageExtension(outDir: string): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const vsix = join(outDir, 'attention-inspector.vsix');
  await run(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')]);
  await run(process.execPath, [
    join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'),
    'package',
    '--no-dependencies',
    '--no-rewrite-relative-links',
    '--out',
    vsix,
  ]);
  return vsix;
}
