// Node-side entry of the harness (files, scoring); page code imports `src/harness/index.ts` instead.
export { createAgentRealmBundler, type AgentRealmBundler, type AgentRealmBundlerOptions, type RealmEntry } from './agent-bundle.ts'
export { BenchmarkSession, MAX_CAPTURE_BYTES, MAX_FINAL_EPISODE_BYTES, MAX_RECORD_CHARS, type BenchmarkSessionOptions } from './benchmark-session.ts'
export { HUNG_PAGE_GRACE_MS, HungPageWatch, MIN_HUNG_PAGE_GRACE_S, type HungPageWatchOptions } from './hung-pages.ts'
export type { LostStatus } from './lost-samples.ts'
export { resolveResumeRun } from './run-plan.ts'
export { SampleAccessError, SampleGate, type CommandCaller, type GatedAgentKind, type OpenSample, type SampleAccessCode, type SampleGateOptions } from './sample-gate.ts'
export { ledgerMeta, ledgerVerdict, SampleLedger, type LedgerEntry, type Thresholds } from './ledger.ts'
export { RecordedRuns, recordedEntry } from './recorded-ledger.ts'
