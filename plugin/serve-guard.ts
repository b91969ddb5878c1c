// Keeps the benchmark's answers off the test server: the package (ground truth in every evaluation.json), earlier
// runs (their final episodes are solutions), the demonstrations (scripts that solve samples) and the bundled
// fixtures (their generator). Page code and any local process reach the server; neither may read these.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { realpathSync } from 'node:fs'
import { join, posix, resolve } from 'node:path'
import { runFoldersOf } from '../src/runs/index.ts'
import { insideAnswersFolder } from '../src/shared/answer-folders.ts'
import { BUNDLED_FIXTURES, BUNDLED_GENERATOR, PACKAGE_ROOT } from '../src/shared/package-root.ts'

/** Vite's own default `server.fs.deny`: setting the option replaces it, so it is repeated here. */
const VITE_DEFAULT_DENY = ['.env', '.env.*', '*.{crt,pem,key,p12,pfx,cer,der}', '.npmrc', '.yarnrc.yml', '**/.git/**']

/** A file name that is ground truth wherever it sits (another package on the same machine, a copy). */
const GROUND_TRUTH_NAME = 'evaluation.json'

/** How often a URL is percent-decoded before it is judged (double and triple encodings included). */
const DECODE_ROUNDS = 4

export interface ServeGuardOptions {
  /** The Vite root (root-relative URLs resolve against it). */
  root: string
  /** Absolute directories of which nothing is served. */
  protectedDirs: readonly string[]
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void

/** The directories as given and as the file system resolves them (a symlinked package is the same package). */
export function expandProtectedDirs(dirs: readonly string[]): string[] {
  const all = new Set<string>()
  for (const dir of dirs) {
    const absolute = resolve(dir)
    all.add(absolute)
    try {
      all.add(realpathSync(absolute))
    } catch {
      // Not there (yet): a runs folder is created by the first sample; its given path is enough.
    }
  }
  return [...all]
}

/** `server.fs.deny` patterns for the protected directories (Vite's defaults kept). */
export function fsDenyPatterns(protectedDirs: readonly string[]): string[] {
  return [...VITE_DEFAULT_DENY, `**/${GROUND_TRUTH_NAME}`, ...protectedDirs.flatMap(dir => [dir, `${dir}/**`])]
}

/**
 * Whether a request URL could reach a protected file: by a root-relative path, `/@fs/`, `/@id/`, a path in any
 * query parameter (`?path=`, `?importer=`), encoded or double-encoded separators and dots, or `..` segments.
 * Judged on every decoding of the URL, so no encoding slips past; it errs towards refusing.
 */
export function isProtectedUrl(url: string, options: ServeGuardOptions): boolean {
  const dirs = options.protectedDirs.map(dir => dir.toLowerCase())
  for (const text of decodings(url)) {
    if (text.toLowerCase().includes(GROUND_TRUTH_NAME)) return true
    for (const candidate of pathCandidates(text, options.root)) {
      const path = candidate.toLowerCase()
      if (dirs.some(dir => path === dir || path.startsWith(`${dir}/`))) return true
      // A run or report folder wherever it was copied or published (src/shared/answer-folders.ts).
      if (insideAnswersFolder(candidate)) return true
    }
  }
  return false
}

/** A connect middleware that answers 404 for protected URLs, ahead of everything Vite and Vitest serve. */
export function createServeGuard(options: ServeGuardOptions): Middleware {
  return (req, res, next) => {
    if (!isProtectedUrl(req.url ?? '', options)) return next()
    const body = 'Not served: benchmark package files, runs and demonstrations are not agent-visible inputs.'
    res.writeHead(404, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' })
    res.end(req.method === 'HEAD' ? undefined : body)
  }
}

/** The URL and each successive percent-decoding of it, until it stops changing. */
function decodings(url: string): string[] {
  const out = [url]
  let current = url
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    let next: string
    try {
      next = decodeURIComponent(current)
    } catch {
      // A malformed escape: decode the ASCII escapes (separators, dots) and judge that too.
      next = current.replace(/%[0-7][0-9a-f]/gi, escape => String.fromCharCode(Number.parseInt(escape.slice(1), 16)))
    }
    if (next === current) break
    out.push(next)
    current = next
  }
  return out
}

/** File paths a URL text may name: its path part and each query value, as root-relative, `/@fs/`, `/@id/` or absolute. */
function pathCandidates(text: string, root: string): string[] {
  const unified = text.replace(/\\/g, '/')
  const [path = '', ...rest] = unified.split(/[?#]/)
  const parts = [path, ...rest.join('?').split('&').flatMap(pair => pair.split('='))]
  const candidates: string[] = []
  for (const part of parts) {
    if (part === '') continue
    const normalized = posix.normalize(part.startsWith('/') ? part : `/${part}`)
    candidates.push(normalized, posix.join(toPosix(root), normalized))
    for (const prefix of ['/@fs/', '/@id/']) {
      if (normalized.startsWith(prefix)) candidates.push(posix.normalize(`/${normalized.slice(prefix.length)}`))
    }
  }
  return candidates
}

function toPosix(path: string): string {
  return path.replace(/\\/g, '/')
}

/** The folders of a run's settings that hold answers, and the earlier runs it reads (`earlierRunFolders`). */
export interface ProtectedSettings {
  benchmark: string
  runsRoot: string
  demonstrations: string
  agent: string
  /** Run folders outside `runsRoot` the run reads: the baseline's and the resumed chain's (their final episodes solve samples). */
  earlierRuns?: readonly string[] | undefined
}

/**
 * What no page of a run may read: the package, the runs (earlier final episodes solve samples) wherever they lie (the
 * runs folder, a baseline or resumed run kept elsewhere), the demonstrations (scripts that solve samples) and the
 * bundled fixtures with their generator, from sources and compiled (a checkout where `npm run build` ran has
 * `dist/fixtures/generator` too). None may contain this project's own files, which the page needs, nor a page agent module.
 */
export function runProtectedDirs(settings: ProtectedSettings, packageRoot: string): string[] {
  const dirs = [packageRoot, settings.benchmark, settings.runsRoot, settings.demonstrations, ...(settings.earlierRuns ?? []), BUNDLED_FIXTURES, BUNDLED_GENERATOR, join(PACKAGE_ROOT, 'dist', 'fixtures')]
  for (const dir of dirs) {
    if (PACKAGE_ROOT === dir || PACKAGE_ROOT.startsWith(`${dir}/`)) {
      throw new Error(`assemblyWorld: ${dir} (benchmark, runsRoot, demonstrations, or a baseline or resumed run) contains the plugin itself; agents must not read it, so it needs a folder of its own`)
    }
    if (settings.agent.startsWith(`${dir}/`)) {
      throw new Error(`assemblyWorld: the agent module ${settings.agent} lies in ${dir}, which is never served to the page (benchmark, runs, demonstrations, a baseline or resumed run); move it elsewhere in the project`)
    }
  }
  return [...new Set(dirs)]
}

/**
 * The earlier runs a run reads, with every run they are made from: the baseline (`AWB_BASELINE`) and the run it
 * resumes (`AWB_RESUME`; `latest` lies in `runsRoot`, protected anyway).
 */
export async function earlierRunFolders(settings: { baseline: string | undefined; resume: string | undefined }): Promise<string[]> {
  const starts = [settings.baseline, settings.resume === 'latest' ? undefined : settings.resume].filter((dir): dir is string => dir !== undefined)
  return (await Promise.all(starts.map(dir => runFoldersOf(dir)))).flat()
}
