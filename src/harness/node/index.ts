// Node-side entry of the harness (files, scoring); page code imports `src/harness/index.ts` instead.
export { BenchmarkSession, type BenchmarkSessionOptions } from './benchmark-session.ts'
