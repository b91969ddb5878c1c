// Protocol markers and fixed protocol constants (§1, §12 of the package spec); no file access.

/** Both names of the one assembly-evaluation protocol (§12): v1 is the published name, v2 the original runner's. */
export const EVALUATION_PROTOCOLS = ['assembly-evaluation-v1', 'assembly-evaluation-v2'] as const
export type EvaluationProtocol = (typeof EVALUATION_PROTOCOLS)[number]

export const PREPARATION_PROTOCOL = 'assembly-preparation-v1'
export const RUNTIME_CONTRACT = '3dwebagent-runtime-1'
export const ENGINE_VERSION = '3.12.0'
export const SIMILARITY_POLICY = 'geometry'
/** Chamfer threshold of the geometry similarity policy, in divisor-normalized squared units. */
export const SIMILARITY_THRESHOLD = 0.0001

/** Preparation parameters every package identity carries (§6). */
export const PREPARATION_PARAMETERS = {
  surface_points: 4096,
  fps_points: 1000,
  sampling_seed: 0,
  initialization_seed: 0,
  min_gap: 0.02,
} as const

export function isEvaluationProtocol(value: unknown): value is EvaluationProtocol {
  return typeof value === 'string' && (EVALUATION_PROTOCOLS as readonly string[]).includes(value)
}
