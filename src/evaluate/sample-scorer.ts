// The scoring backend the evaluation glue calls: the CPU KD-tree scorer (worker threads or this thread) or, when
// chosen (--backend / AWB_SCORING_BACKEND), the certified GPU backend; every row names the one actually used.
import type { IcpKernel, SampleInput, SampleScore } from '../scoring/index.ts'
import { ScoringPool } from '../scoring/workers/index.ts'
import {
  DeviceBatchScorer, decideBackend, scoringBackendFromEnv, classifyRenderer,
  type BackendDecision, type NearestDevice, type ScoringBackendChoice,
} from '../scoring/gpu/index.ts'

/** Scores one sample; implementations return the same result whatever their parallelism or device. */
export interface SampleScorer {
  /** Reported as `backend` in rows and CLI output: the backend actually used (known after the first score). */
  readonly backend: string
  /** Worker threads in use (0 = the calling thread). */
  readonly workers: number
  /** ICP objective implementation (results do not depend on it). */
  readonly kernel: IcpKernel
  score(input: SampleInput): Promise<SampleScore>
  close(): Promise<void>
}

/** Every evaluation.json carries exactly this many points per part. */
const POINTS_PER_PART = 1000
/** Row label of the CPU backend. */
export const CPU_BACKEND_LABEL = 'cpu-kdtree'

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
  /** `auto` (default: AWB_SCORING_BACKEND, else auto), `cpu` or `gpu`. */
  backend?: ScoringBackendChoice
}

/**
 * A scorer for `options.backend`. The choice is made on the first `score` (so `cpu` and an `auto` without a GPU never
 * start a browser); `backend` names the CPU until then. A device failure fails the sample (an error row), it never
 * falls back silently.
 */
export function createScorer(options: CreateScorerOptions = {}): SampleScorer {
  const pool = new ScoringPool(options)
  const choice = options.backend ?? scoringBackendFromEnv(process.env)
  // Until the first score decides: the CPU for cpu / auto (auto keeps it unless a GPU wins), the GPU for gpu.
  let label = choice === 'gpu' ? GPU_BACKEND_LABEL : CPU_BACKEND_LABEL
  let decided: Promise<{ decision: BackendDecision; device: NearestDevice | undefined; batch: DeviceBatchScorer | undefined }> | undefined
  const cpuScore = (input: SampleInput): Promise<SampleScore> => pool.scoreSample(input, { pointsPerPart: POINTS_PER_PART })
  const decide = () => decided ??= decideBackend({ choice, cpuScore: input => pool.scoreSample(input) }).then(({ decision, device }) => {
    if (device !== undefined) label = gpuBackendLabel(device)
    return { decision, device, batch: device === undefined ? undefined : new DeviceBatchScorer(device, { pointsPerPart: POINTS_PER_PART }) }
  })
  return {
    get backend() { return label },
    workers: pool.workers,
    kernel: pool.kernel,
    score: async input => {
      if (choice === 'cpu') return cpuScore(input)
      const { batch } = await decide()
      return batch === undefined ? cpuScore(input) : batch.score(input)
    },
    close: async () => {
      const state = decided === undefined ? undefined : await decided.catch(() => undefined)
      await state?.device?.close()
      await pool.close()
    },
  }
}
