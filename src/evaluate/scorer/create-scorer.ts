// The scoring backend the evaluation glue calls: the CPU scorer (worker threads or this thread, one sample at a time)
// or, when chosen (--backend / AWB_SCORING_BACKEND), the certified GPU backend. Every row names the backend and kernel
// actually used, and a CPU sample's wait for the shared pool is measured apart from its computation.
import { EVALUATION_POINTS_PER_PART } from '../../package/index.ts'
import type { IcpKernel, SampleInput, SampleScore } from '../../scoring/index.ts'
import { ScoringPool } from '../../scoring/workers/index.ts'
import {
  DEFAULT_SCORING_BACKEND, DeviceBatchScorer, cpuRequestedDecision, decideBackend, classifyRenderer,
  type BackendDecision, type NearestDevice, type ScoringBackendChoice,
} from '../../scoring/gpu/index.ts'

/**
 * The GPU page device for decideBackend. src/headless (Vite, Playwright) is imported only when a GPU is tried, so a
 * CPU run never loads it.
 */
async function openGpuPage(extraArgs: readonly string[]): Promise<NearestDevice> {
  const { openPageDevice } = await import('../../headless/index.ts')
  return openPageDevice({ extraArgs })
}

/** Time one `score` call took, in ms: waiting for the samples queued before it, then computing. */
export interface ScoringTiming {
  queueMs: number
  computeMs: number
}

/** Scores one sample; implementations return the same result whatever their parallelism or device. */
export interface SampleScorer {
  /**
   * Reported as `backend` in rows, result.json and CLI output: the backend actually used (known after the first
   * score), naming the CPU kernel that ran (`cpu-cells`, …) or the GPU's renderer class (`gpu-gpujs:hardware`).
   */
  readonly backend: string
  /** How the backend was chosen and why (`awb doctor`'s words); undefined until the first score decides it. */
  readonly decision: BackendDecision | undefined
  /**
   * Samples worth handing over at once: 1 on the CPU (its pool spreads one sample's starts over every worker, so a
   * second sample only waits, holding its clouds), GPU_SAMPLES_AT_ONCE on the GPU (concurrent samples share one
   * lockstep batch, fewer round trips). Known after the first score, like `backend`.
   */
  readonly samplesAtOnce: number
  /** Worker threads in use (0 = the calling thread). */
  readonly workers: number
  /** ICP objective implementation (results do not depend on it). */
  readonly kernel: IcpKernel
  /** Starts the backend's threads ahead of the first sample (see ScoringPool.start). */
  start(): void
  /**
   * Makes the backend choice now, as the first `score` would (opening the GPU page when one is tried), and resolves to
   * it: `awb doctor` asks this without scoring a sample.
   */
  chooseBackend(): Promise<BackendDecision>
  /**
   * Scores `input` after every sample queued before it (the pool runs one sample at a time). With `timing`, writes
   * the call's queue and compute times into it, also when scoring fails.
   */
  score(input: SampleInput, options?: { timing?: ScoringTiming }): Promise<SampleScore>
  close(): Promise<void>
}

/** The CPU backend's label for each kernel: what finds nearest points (Voronoi cells, or KD-tree searches) and where. */
export const SCORING_BACKENDS = {
  cells: 'cpu-cells',
  wasm: 'cpu-kdtree-wasm',
  js: 'cpu-kdtree-js',
} as const satisfies Record<IcpKernel, string>

/** Samples a GPU scorer takes at once (see SampleScorer.samplesAtOnce); bounds the archives and clouds held together. */
export const GPU_SAMPLES_AT_ONCE = 8

/** Row label of the GPU backend before its renderer is known. */
export const GPU_BACKEND_LABEL = 'gpu-gpujs'

/** Row label of the GPU backend on a device: `gpu-gpujs:hardware` or `gpu-gpujs:software` (forced on SwiftShader). */
export function gpuBackendLabel(device: NearestDevice): string {
  return `gpu-gpujs:${classifyRenderer(device.renderer, device.mode)}`
}

export interface CreateScorerOptions {
  /** Worker threads; 0 scores in this thread; default: the CPU count, at most 8. */
  workers?: number
  /** ICP objective implementation; default `cells` (fastest). */
  kernel?: IcpKernel
  /** `auto` (default), `cpu` or `gpu`; callers resolve `--backend` / AWB_SCORING_BACKEND through src/settings. */
  backend?: ScoringBackendChoice
}

/**
 * A scorer for `options.backend`. The choice is made on the first `score` (so `cpu` and an `auto` without a GPU never
 * start a browser); `backend` names the CPU until then. A device failure fails the sample (an error row), it never
 * falls back silently.
 */
export function createScorer(options: CreateScorerOptions = {}): SampleScorer {
  const pool = new ScoringPool(options)
  const choice = options.backend ?? DEFAULT_SCORING_BACKEND
  const cpuLabel = SCORING_BACKENDS[pool.kernel]
  // Until the first score decides: the CPU for cpu / auto (auto keeps it unless a GPU wins), the GPU for gpu.
  let label = choice === 'gpu' ? GPU_BACKEND_LABEL : cpuLabel
  let decision = choice === 'cpu' ? cpuRequestedDecision() : undefined
  let decided: Promise<{ device: NearestDevice | undefined; batch: DeviceBatchScorer | undefined }> | undefined
  const decide = () => decided ??= decideBackend({ choice, cpuScore: input => pool.scoreSample(input), openDevice: openGpuPage }).then(({ decision: made, device }) => {
    decision = made
    if (device !== undefined) label = gpuBackendLabel(device)
    return { device, batch: device === undefined ? undefined : new DeviceBatchScorer(device, { pointsPerPart: EVALUATION_POINTS_PER_PART }) }
  })
  // CPU samples take turns here (the pool runs one at a time), so the time one waits for those before it is measured
  // apart from its own. GPU samples are not queued: concurrent ones share one lockstep batch on the device.
  let turn: Promise<unknown> = Promise.resolve()
  const cpuScore = (input: SampleInput, timing: ScoringTiming | undefined): Promise<SampleScore> => {
    const queued = performance.now()
    const run = turn.then(async () => {
      const started = performance.now()
      try {
        return await pool.scoreSample(input, { pointsPerPart: EVALUATION_POINTS_PER_PART })
      } finally {
        if (timing !== undefined) {
          timing.queueMs = started - queued
          timing.computeMs = performance.now() - started
        }
      }
    })
    turn = run.catch(() => undefined)
    return run
  }
  const deviceScore = async (batch: DeviceBatchScorer, input: SampleInput, timing: ScoringTiming | undefined): Promise<SampleScore> => {
    const started = performance.now()
    try {
      return await batch.score(input)
    } finally {
      if (timing !== undefined) {
        timing.queueMs = 0
        timing.computeMs = performance.now() - started
      }
    }
  }
  return {
    get backend() { return label },
    get decision() { return decision },
    get samplesAtOnce() { return label === cpuLabel ? 1 : GPU_SAMPLES_AT_ONCE },
    workers: pool.workers,
    kernel: pool.kernel,
    start: () => { if (choice !== 'gpu') pool.start() },
    chooseBackend: async () => {
      if (choice !== 'cpu') await decide()
      return decision!
    },
    score: async (input, scoreOptions = {}) => {
      if (choice === 'cpu') return cpuScore(input, scoreOptions.timing)
      const { batch } = await decide()
      return batch === undefined ? cpuScore(input, scoreOptions.timing) : deviceScore(batch, input, scoreOptions.timing)
    },
    close: async () => {
      const state = decided === undefined ? undefined : await decided.catch(() => undefined)
      await state?.device?.close()
      await pool.close()
    },
  }
}
