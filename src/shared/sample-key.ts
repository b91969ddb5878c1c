// One sample of a benchmark as a map key: its block and its id. Page-safe and pure; the one definition (the
// package, the runs, the scoring summary, the report and the harness all key samples with it).

/**
 * The key of sample `sampleId` of block `block` (a sample id can appear in several blocks, e.g. a PartNet shape with
 * and without a reference image). NUL separates them: neither a block name nor a sample id contains it, while a
 * sample id may contain `/`. A key for maps and sets only: messages and outputs name a sample as `block / id`.
 */
export function sampleKey(block: string, sampleId: string): string {
  return `${block}\u0000${sampleId}`
}
