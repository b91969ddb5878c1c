// `awb mcp`: one standalone environment (headless Chromium, or `--node` without rendering) served to any MCP client
// over stdio or Streamable HTTP. It answers `initialize` at once (the browser starts in parallel; tool calls wait for
// it) and saves the episode atomically after every tool call, so any exit, SIGKILL included, leaves the last state
// exported. `awb mcp --connect URL` is the stdio bridge agent CLIs spawn. Wiring only: the surfaces live in
// src/mcp, the page in src/headless.
import { basename, dirname, join, resolve } from 'node:path'
import * as z from 'zod'
import type { ReferencePage } from '../../agents/index.ts'
import type { ToolRelay } from '../../mcp/index.ts'
import { pageMimeType } from '../../package/index.ts'
import { writeFileAtomic } from '../../shared/atomic-write.ts'
import { parseFlags } from '../flags.ts'
import { readInputFile } from '../read-input-file.ts'
import { UsageError } from '../usage-error.ts'

const McpFlagsSchema = z.looseObject({
  episode: z.string().optional(),
  http: z.coerce.number().int().min(0).max(65_535).optional(),
  surface: z.enum(['benchmark', 'direct']).default('benchmark'),
  out: z.string().optional(),
  page: z.union([z.string(), z.array(z.string())]).optional(),
  node: z.boolean().optional(),
  connect: z.string().optional(),
})

/** Media types of reference pages by extension (benchmark-package.md §13.3: PNG, JPEG, WebP). */

/** A running environment: its relay, and how to export and stop it. */
interface Environment {
  relay: ToolRelay
  exportEpisode(): Promise<Uint8Array>
  close(): Promise<void>
  describe: string
}

export async function run(args: unknown[]): Promise<number> {
  const flags = parseFlags('mcp', McpFlagsSchema, args.at(-1))
  const mcp = await import('../../mcp/index.ts')
  if (flags.connect !== undefined) {
    await mcp.runStdioBridge({ url: flags.connect })
    return 0
  }
  if (flags.episode === undefined) throw new UsageError('mcp needs --episode <episode.zip> (or --connect <url> to bridge stdio to a running endpoint)')
  const out = resolve(flags.out ?? defaultOut(flags.episode))
  if (out === resolve(flags.episode)) throw new UsageError(`mcp: --out ${flags.out ?? out} is the input episode; the final episode must go to a new file`)
  const episodeBytes = await readInputFile(flags.episode, '--episode')
  const pages = await readPages(flags.page === undefined ? [] : [flags.page].flat())
  // A client that closes our stderr (or exits) must not turn the next log line into an EPIPE crash.
  process.stderr.on('error', () => undefined)
  // Installed before anything starts and kept until the export is written: a second signal (or a client's
  // SIGTERM after closing stdin) must not kill the process mid-export.
  const stop = listenForStop()
  const opening = flags.node === true ? openInNode(episodeBytes, flags.episode, pages) : openInBrowser(episodeBytes, flags.episode, pages)
  const ready = opening.then(environment => {
    log(`awb mcp: ${flags.episode} open (${environment.describe}), ${flags.surface} surface`)
    return environment.relay
  })
  const save = async (): Promise<void> => writeFileAtomic(out, await (await opening).exportEpisode())
  const relay = mcp.saveAfterEachCall({
    relay: mcp.createDeferredRelay({ page: { id: 1, url: `awb://episode/${basename(flags.episode)}`, title: 'AssemblyWorldBench environment' }, referencePages: pages, ready }),
    save,
    onSaveError: error => log(`awb mcp: saving ${out} after a tool call failed: ${describeError(error)}`),
  })
  // Serving ends when the client leaves, on a signal, or when the environment cannot open.
  const failedToOpen = opening.then(() => new Promise<never>(() => undefined), (error: unknown) => error)
  try {
    const surface = mcp.createMcpSurface({ relay, surface: flags.surface })
    let openError: unknown
    if (flags.http === undefined) {
      openError = await Promise.race([mcp.serveStdio(surface).then(() => undefined), stop.stopped.then(() => undefined), failedToOpen])
    } else {
      const server = await mcp.startMcpHttpServer({ surface, port: flags.http })
      process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)
      log(`awb mcp: serving ${server.url} (stop with Ctrl-C)`)
      try {
        openError = await Promise.race([stop.stopped.then(() => undefined), failedToOpen])
      } finally {
        await server.close()
      }
    }
    if (openError !== undefined) {
      log(`awb mcp: ${flags.episode} could not be opened: ${describeError(openError)}`)
      return 1
    }
    const environment = await opening
    try {
      await save()
      log(`awb mcp: wrote ${out} (${surface.calls} tool calls)`)
      return 0
    } finally {
      await environment.close()
    }
  } finally {
    stop.dispose()
  }
}

/** Writes one stderr line; a closed stderr is ignored (the client may have gone). */
function log(line: string): void {
  try {
    process.stderr.write(`${line}\n`)
  } catch {
    // EPIPE: nobody is listening any more; the saved episode is what matters.
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

/** `<dir>/<name>.final.episode.zip` next to the input (`name` without `.episode.zip` / `.zip`). */
function defaultOut(episode: string): string {
  const name = basename(episode).replace(/(\.episode)?\.zip$/i, '')
  return join(dirname(episode), `${name}.final.episode.zip`)
}

async function readPages(files: string[]): Promise<ReferencePage[]> {
  const pages: ReferencePage[] = []
  for (const [index, file] of files.entries()) {
    const mimeType = pageMimeType(file)
    if (mimeType === undefined) throw new UsageError(`mcp: --page ${file}: a reference page must be .png, .jpg, .jpeg or .webp`)
    pages.push({ page: index + 1, mimeType, bytes: await readInputFile(file, '--page') })
  }
  return pages
}

/**
 * `stopped` resolves on the first SIGINT / SIGTERM; later signals are absorbed until `dispose()` (the export
 * is being written). The handlers replace the default ones that would end the process at once.
 */
function listenForStop(): { stopped: Promise<void>, dispose(): void } {
  let stop: (() => void) | undefined
  const stopped = new Promise<void>(resolve => {
    stop = resolve
  })
  const onSignal = (signal: NodeJS.Signals): void => {
    log(`awb mcp: ${signal}: stopping and exporting the final episode`)
    stop?.()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return {
    stopped,
    dispose: () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    },
  }
}

async function openInNode(bytes: Uint8Array, source: string, pages: ReferencePage[]): Promise<Environment> {
  const { decodeEpisode, encodeEpisode } = await import('../../episode/index.ts')
  const { loadMujoco, WorldRuntime } = await import('../../world/index.ts')
  const { createRuntimeRelay } = await import('../../mcp/index.ts')
  const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode: await decodeEpisode(bytes, { source }), source })
  return {
    relay: createRuntimeRelay({ runtime, referencePages: pages }),
    exportEpisode: () => encodeEpisode(runtime.exportEpisode(), { source }),
    close: async () => runtime.dispose(),
    describe: 'in Node, capture_scene unsupported',
  }
}

async function openInBrowser(bytes: Uint8Array, source: string, pages: ReferencePage[]): Promise<Environment> {
  const { openEpisodeSession } = await import('../../headless/index.ts')
  const session = await openEpisodeSession({ episode: bytes, source, hasOwnSignalHandling: true })
  return {
    relay: {
      page: { id: 1, url: session.url, title: 'AssemblyWorldBench environment' },
      referencePages: pages,
      listTools: () => session.listTools(),
      callTool: (name, input) => session.callTool(name, input),
    },
    exportEpisode: () => session.exportEpisode(),
    close: () => session.close(),
    describe: `headless Chromium, ${session.renderer} on ${session.gpu}`,
  }
}
