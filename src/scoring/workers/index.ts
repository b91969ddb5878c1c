// Public entry of the scoring worker pool (the only scoring code that touches node:worker_threads / node:os).
export { MAX_DEFAULT_WORKERS, MAX_SCORING_WORKERS, ScoringPool, defaultWorkerCount, type ScoringPoolOptions } from './pool.ts'
