// A reusable pool of worker threads that runs the alignment starts of one sample at a time; results never depend on the worker count.
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { runStarts } from '../align.ts'
import { ScoringError } from '../errors.ts'
import type { StartResult } from '../icp.ts'
import { finishSample, planSample, type SampleScore, type ScoreOptions } from '../score-sample.ts'
import type { SampleInput } from '../sample.ts'
import type { AlignmentStart } from '../starts.ts'
import type { StartsJob, StartsReply } from './protocol.ts'

/** Default cap on worker threads (beyond this the 24 + n starts leave threads idle). */
export const MAX_DEFAULT_WORKERS = 8

export interface ScoringPoolOptions {
  /** Worker threads; 0 runs everything in the calling thread. Default: CPU count, at most MAX_DEFAULT_WORKERS. */
  workers?: number
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
 * the strict-< rule in start order (scoring.md §6.5), so any worker count gives bit-identical rows. Workers start on
 * first use and are unref'ed while idle, so an idle pool never keeps the process alive; `close()` ends them.
 * One sample at a time: concurrent calls queue.
 */
export class ScoringPool {
  /** Number of worker threads (0 = in-thread). */
  readonly workers: number
  private threads: Worker[] = []
  private nextId = 0
  private queue: Promise<unknown> = Promise.resolve()
  private closed = false

  constructor(options: ScoringPoolOptions = {}) {
    const workers = options.workers ?? defaultWorkerCount()
    if (!Number.isInteger(workers) || workers < 0) {
      throw new ScoringError('SCORING_BAD_INPUT', `workers: expected a whole number ≥ 0, got ${workers}`)
    }
    this.workers = workers
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
    if (this.workers === 0) return Promise.resolve(runStarts(prediction, target, starts))
    const run = this.queue.then(() => this.dispatch(prediction, target, starts))
    this.queue = run.catch(() => undefined)
    return run
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
        worker.on('error', () => this.discard())
        worker.unref()
        this.threads.push(worker)
      }
    }
    return this.threads
  }

  /** A crashed worker poisons the set: drop every thread so the next job starts fresh ones. */
  private discard(): void {
    const threads = this.threads
    this.threads = []
    for (const t of threads) void t.terminate()
  }

  private async dispatch(prediction: Float64Array, target: Float64Array, starts: readonly AlignmentStart[]): Promise<StartResult[]> {
    const threads = this.spawn()
    const id = this.nextId++
    const counter = new Int32Array(new SharedArrayBuffer(4))
    const job: StartsJob = { id, prediction, target, starts: [...starts], counter }
    const results = new Array<StartResult | undefined>(starts.length)
    const replies = threads.map(worker => new Promise<void>((resolve, reject) => {
      const onMessage = (reply: StartsReply): void => {
        if (reply.id !== id) return
        cleanup()
        if ('error' in reply) {
          reject(new ScoringError('SCORING_WORKER_FAILED', `alignment worker failed: ${reply.error}`))
          return
        }
        for (const { index, result } of reply.results) results[index] = result
        resolve()
      }
      const onError = (error: Error): void => {
        cleanup()
        reject(new ScoringError('SCORING_WORKER_FAILED', `alignment worker crashed: ${error.message}`, { cause: error }))
      }
      const cleanup = (): void => {
        worker.off('message', onMessage)
        worker.off('error', onError)
        worker.unref()
      }
      worker.ref()
      worker.on('message', onMessage)
      worker.on('error', onError)
      worker.postMessage(job)
    }))
    await Promise.all(replies)
    return results.map((r, i) => {
      if (r === undefined) throw new ScoringError('SCORING_WORKER_FAILED', `alignment start ${starts[i]?.name ?? i} got no result from any worker`)
      return r
    })
  }
}
