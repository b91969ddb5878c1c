// A reusable pool of worker threads that runs the alignment starts of one sample at a time; results never depend on the worker count.
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { runStarts } from '../align.ts'
import { ScoringError } from '../errors.ts'
import type { StartResult } from '../icp.ts'
import { finishSample, planSample, type SampleScore, type ScoreOptions } from '../score-sample.ts'
import type { SampleInput } from '../prepare-sample.ts'
import type { IcpKernel } from '../objective.ts'
import type { AlignmentStart } from '../starts.ts'
import { CELL_CHUNK_POINTS, layoutCellChunks, type CellChunk, type SharedCells } from './cell-chunks.ts'
import type { StartsJob, WorkerJob, WorkerReply } from './worker-messages.ts'

/** Default cap on worker threads (beyond this the 24 + n starts leave threads idle). */
export const MAX_DEFAULT_WORKERS = 8
/**
 * Most worker threads one pool may start: a sample has 24 + n alignment starts (n ≤ ~40 parts), so more threads
 * only cost memory, and a mistyped 10000 would exhaust it before a single sample is scored.
 */
export const MAX_SCORING_WORKERS = 64

export interface ScoringPoolOptions {
  /** Worker threads; 0 runs everything in the calling thread. Default: CPU count, at most MAX_DEFAULT_WORKERS. */
  workers?: number
  /** ICP objective implementation (same results, different speed). Default: `cells`. */
  kernel?: IcpKernel
}

/**
 * Node 20 cannot run .ts files itself, and `--import tsx` in a worker's execArgv is not honoured everywhere (Vitest):
 * a tiny CommonJS bootstrap registers tsx's ESM hooks inside the worker, then imports the TypeScript entry.
 */
function typeScriptWorker(url: URL): Worker {
  const tsxRoot = new URL('./', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json')))
  const tsxApi = new URL('dist/esm/api/index.mjs', tsxRoot).href
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(api => { api.register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(bootstrap, { eval: true })
}

/** CPU count (os.availableParallelism), capped at MAX_DEFAULT_WORKERS. */
export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(MAX_DEFAULT_WORKERS, availableParallelism()))
}

/**
 * Scores samples with the (24 + n) starts of each spread over worker threads; the winner is chosen afterwards with
 * the strict-< rule in start order (scoring.md §6.5), so any worker count gives bit-identical rows. With the `cells`
 * kernel a sample runs in two phases: the workers first build the Voronoi cells of both clouds in chunks, which this
 * thread lays out once in shared memory, then run the starts on them. Workers start on first use and are unref'ed
 * while idle, so an idle pool never keeps the process alive; `close()` ends them. One sample at a time: concurrent
 * calls queue. A crashed worker fails the sample in progress only; the next sample gets fresh workers.
 */
export class ScoringPool {
  /** Number of worker threads (0 = in-thread). */
  readonly workers: number
  /** The ICP objective implementation every sample uses (results never depend on it). */
  readonly kernel: IcpKernel
  private threads: Worker[] = []
  private nextId = 0
  private queue: Promise<unknown> = Promise.resolve()
  private closed = false
  /** The last target cloud (a copy) and its cells, reused while the next sample has the same target. */
  private targetCells: { target: Float64Array; cells: SharedCells } | undefined
  /** How many samples reused the previous target's cells (for tests and benchmarks). */
  targetCellsReused = 0

  constructor(options: ScoringPoolOptions = {}) {
    const workers = options.workers ?? defaultWorkerCount()
    if (!Number.isInteger(workers) || workers < 0 || workers > MAX_SCORING_WORKERS) {
      throw new ScoringError('SCORING_BAD_INPUT', `workers: expected a whole number from 0 to ${MAX_SCORING_WORKERS}, got ${workers}`)
    }
    this.workers = workers
    this.kernel = options.kernel ?? 'cells'
  }

  /** Scores one sample (same result as `scoreSample` in this thread). */
  async scoreSample(input: SampleInput, options: ScoreOptions = {}): Promise<SampleScore> {
    const plan = planSample(input, options)
    const results = await this.runStarts(plan.prepared.prediction, plan.prepared.target, plan.starts)
    return finishSample(plan, results, options)
  }

  /** ICP from every start (results in start order), spread over the workers. */
  runStarts(prediction: Float64Array, target: Float64Array, starts: readonly AlignmentStart[]): Promise<StartResult[]> {
    if (this.closed) return Promise.reject(new ScoringError('SCORING_WORKER_FAILED', 'the scoring pool is closed; create a new ScoringPool'))
    if (this.workers === 0) return Promise.resolve(runStarts(prediction, target, starts, this.kernel))
    const run = this.queue.then(() => this.dispatch(prediction, target, starts))
    this.queue = run.catch(() => undefined)
    return run
  }

  /**
   * Starts the worker threads now, so they load and compile the scoring code while the caller still reads and parses
   * its input (otherwise that happens on the first sample, in series). No-op in-thread or when already started.
   */
  start(): void {
    if (this.workers > 0 && !this.closed) this.spawn()
  }

  /** Terminates the workers. */
  async close(): Promise<void> {
    this.closed = true
    const threads = this.threads
    this.threads = []
    await Promise.all(threads.map(t => t.terminate()))
  }

  private spawn(): Worker[] {
    if (this.threads.length === 0) {
      const isTypeScript = import.meta.url.endsWith('.ts')
      const url = new URL(isTypeScript ? './start-runner.ts' : './start-runner.js', import.meta.url)
      for (let i = 0; i < this.workers; i++) {
        const worker = isTypeScript ? typeScriptWorker(url) : new Worker(url)
        worker.on('error', () => this.discard(worker))
        worker.on('exit', () => this.discard(worker))
        worker.unref()
        this.threads.push(worker)
      }
    }
    return this.threads
  }

  /**
   * A crashed or exited worker poisons its set: drop every thread so the next job starts fresh ones. Events of a set
   * already dropped (the exits its own termination causes) leave the current set alone.
   */
  private discard(worker: Worker): void {
    if (!this.threads.includes(worker)) return
    const threads = this.threads
    this.threads = []
    for (const t of threads) void t.terminate()
  }

  private async dispatch(prediction: Float64Array, target: Float64Array, starts: readonly AlignmentStart[]): Promise<StartResult[]> {
    const id = this.nextId++
    let cells: [SharedCells, SharedCells] | undefined
    if (this.kernel === 'cells') {
      // A point's cell depends only on its cloud: the same target (every step of one sample's curve) keeps its cells.
      const kept = this.targetCells !== undefined && sameBits(this.targetCells.target, target) ? this.targetCells.cells : undefined
      const replies = await this.broadcast({ kind: 'cells', id, prediction, target, chunk: CELL_CHUNK_POINTS, counter: sharedCounter(), predictionOnly: kept !== undefined })
      const byCloud: [CellChunk[], CellChunk[]] = [[], []]
      for (const reply of replies) if (reply.kind === 'cells') for (const chunk of reply.chunks) byCloud[chunk.cloud].push(chunk)
      const n = prediction.length / 3
      cells = [layoutCellChunks(n, byCloud[0]), kept ?? layoutCellChunks(n, byCloud[1])]
      if (kept === undefined) this.targetCells = { target: target.slice(), cells: cells[1] }
      else this.targetCellsReused++
    }
    const job: StartsJob = { kind: 'starts', id, prediction, target, starts: [...starts], kernel: this.kernel, claims: claimGroups(starts), counter: sharedCounter() }
    if (cells !== undefined) job.cells = cells
    const replies = await this.broadcast(job)
    const results = new Array<StartResult | undefined>(starts.length)
    for (const reply of replies) if (reply.kind === 'starts') for (const { index, result } of reply.results) results[index] = result
    return results.map((r, i) => {
      if (r === undefined) throw new ScoringError('SCORING_WORKER_FAILED', `alignment start ${starts[i]?.name ?? i} got no result from any worker`)
      return r
    })
  }

  /** Sends `job` to every worker and collects one reply from each; rejects on a worker's error or crash. */
  private broadcast(job: WorkerJob): Promise<Exclude<WorkerReply, { error: string }>[]> {
    return Promise.all(this.spawn().map(worker => new Promise<Exclude<WorkerReply, { error: string }>>((resolve, reject) => {
      const onMessage = (reply: WorkerReply): void => {
        if (reply.id !== job.id) return
        cleanup()
        if ('error' in reply) reject(new ScoringError('SCORING_WORKER_FAILED', `alignment worker failed: ${reply.error}`))
        else resolve(reply)
      }
      const onError = (error: Error): void => {
        cleanup()
        reject(new ScoringError('SCORING_WORKER_FAILED', `alignment worker crashed: ${error.message}`, { cause: error }))
      }
      // A worker that ends without an error event (terminated, process.exit) would otherwise leave the sample waiting forever.
      const onExit = (code: number): void => {
        cleanup()
        reject(new ScoringError('SCORING_WORKER_FAILED', `alignment worker exited (code ${code}) before replying`))
      }
      const cleanup = (): void => {
        worker.off('message', onMessage)
        worker.off('error', onError)
        worker.off('exit', onExit)
        worker.unref()
      }
      worker.ref()
      worker.on('message', onMessage)
      worker.on('error', onError)
      worker.on('exit', onExit)
      worker.postMessage(job)
    })))
  }
}

/**
 * Largest difference of any rotation or translation entry between starts claimed together. Scheduling only: starts
 * this close (part starts of parts placed by one common motion differ by roundoff) usually meet after their first
 * fit, and a worker reuses a trajectory only from the starts it ran itself. Results never depend on it.
 */
export const CLAIM_GROUP_TOLERANCE = 1e-9

/** The starts' indices grouped into claims (see StartsJob.claims), in order of each group's first start. */
export function claimGroups(starts: readonly AlignmentStart[]): number[][] {
  const groups: number[][] = []
  for (let i = 0; i < starts.length; i++) {
    const group = groups.find(g => isNear(starts[g[0]!]!, starts[i]!))
    if (group === undefined) groups.push([i])
    else group.push(i)
  }
  return groups
}

function isNear(a: AlignmentStart, b: AlignmentStart): boolean {
  for (let k = 0; k < 9; k++) if (!(Math.abs(a.rotation[k]! - b.rotation[k]!) <= CLAIM_GROUP_TOLERANCE)) return false
  for (let k = 0; k < 3; k++) if (!(Math.abs(a.translation[k]! - b.translation[k]!) <= CLAIM_GROUP_TOLERANCE)) return false
  return true
}

/** True when both arrays hold the same float64 bits (NaN never occurs: inputs are checked finite). */
function sameBits(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] || Object.is(a[i], -0) !== Object.is(b[i], -0)) return false
  return true
}

/** An Int32Array(1) counter over a SharedArrayBuffer, for workers to claim work with Atomics.add. */
function sharedCounter(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4))
}
