// Public entry of run records: reading runs, following resume chains, selecting attempts to score.
export { RunError, RUN_ERROR_CODES, type RunErrorCode } from './errors.ts'
export { RUN_KIND, RUN_VERSION, RunJsonSchema, ResultJsonSchema, InputJsonSchema, type RunJson, type ResultJson, type InputJson } from './schemas.ts'
export { readRun, type AttemptRecord, type RunRecord } from './read-run.ts'
export { readRunChain } from './run-chain.ts'
export { selectAttempts, type SelectedAttempt } from './select-attempts.ts'
export { RunWriter, newRunId, type CreateRunOptions, type RunStatus } from './run-writer.ts'
export { chainStatus, currentProcess, isRunAlive, needsRun, runState, type ChainSample, type ChainStatus, type RunProcess, type RunState, type SampleState } from './chain-status.ts'
export { codeCommit, runVersions } from './provenance.ts'
