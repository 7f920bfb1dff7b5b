// The engine's request handlers: the session behind the typed protocol. Results are fresh copies, so
// their buffers can be transferred without detaching what the session keeps.
import type { AttentionTrace, Tensor } from '../engine';
import type { EngineRequests } from '../protocol/engine';
import { ENGINE_PROGRESS } from '../protocol/engine-progress';
import { defineTemplates, errorArg, MessageError, msg, type MessageParts } from '../protocol/message';
import type { InspectSession } from '../models/session';
import { openSnapshot } from '../weights/snapshot';
import { recordingHandlers, type TraceFolderReader } from './recording-handlers';
import type { HandlerContext, Handlers } from './server';

const READ_ERRORS = defineTemplates(
  {
    cannotRead: '{0}: cannot read the file ({1})',
    noSuchFile: 'the file does not exist',
    permission: 'permission denied',
  },
  'error',
);

/** Reads a local file for the worker (node's fs in the real worker; a fake in tests). */
export type FileReader = (path: string) => Promise<Uint8Array>;

export function engineHandlers(session: InspectSession, readFile: FileReader, readTraceFolder: TraceFolderReader): Handlers<EngineRequests> {
  return {
    ...recordingHandlers(readTraceFolder),

    async configureModel(source, ctx) {
      if (source.kind === 'folder') {
        ctx.progress(0, msg(ENGINE_PROGRESS.reading, source.fileName));
        const snapshot = await openSnapshot((name) => readIfPresent(readFile, joinPath(source.path, name), `${source.fileName}/${name}`), source.fileName, {
          progress: (f, m) => ctx.progress(f, m),
        });
        await ctx.checkpoint();
        return { result: session.configureSnapshot(snapshot, source.seed) };
      }
      let resolved = source;
      if (source.kind === 'file' && !source.bytes) {
        if (!source.path) throw new Error(`${source.fileName}: neither a path nor the file's bytes were given`);
        ctx.progress(0, msg(ENGINE_PROGRESS.reading, source.fileName));
        resolved = { ...source, bytes: await readFileClearly(readFile, source.path, source.fileName) };
      }
      await ctx.checkpoint();
      return { result: await session.configure(resolved) };
    },

    async run(payload, ctx) {
      const result = await session.run(payload, sessionContext(ctx));
      const transfer = [result.thumbnails.data.buffer, result.headEntropy.buffer, ...(result.attentions ? [result.attentions.buffer] : [])];
      return { result, transfer: transfer as ArrayBuffer[] };
    },

    async attention(payload, ctx) {
      const result = await session.attentionCancellable(payload, sessionContext(ctx));
      return { result, transfer: [result.data.buffer as ArrayBuffer] };
    },

    async trace(payload) {
      const result = session.trace(payload);
      return { result, transfer: traceBuffers(result) };
    },
  };
}

function sessionContext(ctx: HandlerContext) {
  return { checkpoint: () => ctx.checkpoint(), progress: (f: number, m: MessageParts) => ctx.progress(f, m) };
}

async function readFileClearly(readFile: FileReader, path: string, fileName: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (e) {
    const code = (e as { code?: string }).code;
    const why = code === 'ENOENT' ? msg(READ_ERRORS.noSuchFile) : code === 'EACCES' ? msg(READ_ERRORS.permission) : errorArg(e);
    throw new MessageError(msg(READ_ERRORS.cannotRead, fileName, why));
  }
}

/** A file of a model folder, or undefined when the folder has no such file. */
async function readIfPresent(readFile: FileReader, path: string, label: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return undefined;
    return readFileClearly(readFile, path, label);
  }
}

/** folder + '/' + name, with the separator the folder's path uses. */
function joinPath(folder: string, name: string): string {
  const sep = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  return folder.endsWith(sep) ? folder + name : folder + sep + name;
}

/** The typed arrays of a trace are its own (freshly computed), so they can all be transferred. */
function traceBuffers(trace: AttentionTrace): ArrayBuffer[] {
  const tensors: { data: ArrayBufferView }[] = [trace.scores, trace.scaled, trace.bias, trace.masked, trace.allowed, trace.probs, trace.output];
  if (trace.rope) tensors.push(trace.rope.qBefore, trace.rope.kBefore, trace.rope.q, trace.rope.k);
  if (trace.softcap) tensors.push(trace.softcap.before);
  const buffers = new Set<ArrayBuffer>();
  for (const t of tensors as (Tensor | { data: Uint8Array })[]) buffers.add(t.data.buffer as ArrayBuffer);
  return [...buffers];
}
