// The one place the plugin meets Vitest's internals and undocumented behaviour, with one adapter per supported major
// (vitest-4.ts, vitest-5.ts) and a startup check that names the version and what is on. Everything else in plugin/,
// reporters/ and suites/ uses Vitest's public API only (the boundaries test enforces it).
export type { ApiPermissions, RecoveryInternals, VitestAdapter } from './adapter.ts'
export { adapterFor, runningAdapter, SUPPORTED_VITEST, VitestCompatError, type VitestCompatCode } from './select.ts'
export { refusedVitestCommands } from './commands.ts'
export { DEFENCES, describeCapabilities, reportCapabilitiesOnce, verifyBlockProject } from './defences.ts'
export { BrowserRecoveryError, describeLoss, MAX_PAGE_RECOVERIES, recoveringPlaywright, type PageLoss, type PageLossKind, type RecoveryHooks } from './browser-recovery.ts'
export { BlockJUnitReporter, useBlockJUnit } from './junit.ts'
export { drainOnInterrupt } from './sigint.ts'
export { installOfferedReporters, offerReporters } from './reporters.ts'
export { deniesCanonicalForm, guardFsPathForms } from './vite-fs.ts'
export { blockOfConfiguredProject, blockOfProject } from './projects.ts'
export { stableShards } from './block-shards.ts'
export { amendTestRecord, type TestAnnotation, type TestRecordAmendment } from './test-record.ts'
export { BROWSER_API_PATH, CLOSED_SESSION, guardBrowserApi, guardRunCancel, onRefusal, refusalOf, rememberVitest, SessionProjects } from './browser-api-gate.ts'
