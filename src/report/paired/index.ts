// Public entry of paired run comparison: deltas, exact McNemar, paired bootstrap, verdict, the vs-baseline gate.
export { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, mcnemarExact, pairedBootstrap95 } from './paired-stats.ts'
export { PAIRED_ALPHA, comparePaired, type PairedComparison, type PairedInputRow, type PairedSample } from './paired-comparison.ts'
export { checkBaselineGate } from './baseline-gate.ts'
export { formatComparisonMarkdown } from './format-comparison.ts'
