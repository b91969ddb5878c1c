// Reads the optional index/samples.parquet (§15) and compares it with benchmark.json; only ever warns.
import { parquetReadObjects } from 'hyparquet'
import type { ParsedBlock } from './benchmark-rules.ts'
import type { CheckSink } from './check-sink.ts'
import { sampleKey } from '../shared/sample-key.ts'
import { PackageError } from './errors.ts'
import { INDEX_FILE } from './layout.ts'
import { type PackageFiles, packageFileExists, readPackageBytes } from './package-files.ts'

/** Column names tried, in order, for the two key columns; the schema is undocumented (§15). */
const BLOCK_COLUMNS = ['block', 'data', 'block_name']
const SAMPLE_COLUMNS = ['sample_id', 'sample', 'id']
/** Columns compared with the benchmark.json sample record when present. */
const COMPARED_COLUMNS = ['category', 'parts', 'band', 'sha256', 'episode_id'] as const
/** More disagreements than this are summarized in one warning. */
const MAX_INDEX_WARNINGS = 20

/**
 * Never required and never authoritative: a missing, unreadable or disagreeing index is a warning and
 * benchmark.json wins. Columns are discovered at run time and each is optional.
 */
export async function checkSamplesIndex(files: PackageFiles, blocks: readonly ParsedBlock[], sink: CheckSink): Promise<void> {
  const file = INDEX_FILE
  const unreadable = (error: unknown): void => {
    const reason = error instanceof PackageError || error instanceof Error ? error.message : String(error)
    sink.warning({ code: 'PACKAGE_INDEX_UNREADABLE', file, message: `index/samples.parquet could not be read and is ignored (${reason})` })
  }
  let exists: boolean
  try {
    exists = await packageFileExists(files.root, file)
  } catch (error) {
    unreadable(error)
    return
  }
  if (!exists) {
    sink.warning({ code: 'PACKAGE_INDEX_MISSING', file, message: 'index/samples.parquet is absent; benchmark.json is the sample list (the index is optional)' })
    return
  }
  let rows: Record<string, unknown>[]
  try {
    const bytes = await readPackageBytes(files, file)
    rows = await parquetReadObjects({ file: new Uint8Array(bytes).buffer })
  } catch (error) {
    unreadable(error)
    return
  }
  const columns = new Set(rows.flatMap(row => Object.keys(row)))
  const blockColumn = BLOCK_COLUMNS.find(name => columns.has(name))
  const sampleColumn = SAMPLE_COLUMNS.find(name => columns.has(name))
  if (blockColumn === undefined || sampleColumn === undefined) {
    sink.warning({ code: 'PACKAGE_INDEX_DISAGREES', file, message: `index/samples.parquet has no recognisable block and sample columns (columns: ${[...columns].join(', ')}); ignored` })
    return
  }
  const disagreements: string[] = []
  const known = new Map(blocks.map(block => [block.record.name, new Map(block.samples.map(sample => [sample.id, sample.record]))]))
  const seen = new Set<string>()
  for (const [index, row] of rows.entries()) {
    const blockName = String(row[blockColumn])
    const sampleId = String(row[sampleColumn])
    seen.add(sampleKey(blockName, sampleId))
    const record = known.get(blockName)?.get(sampleId)
    if (record === undefined) {
      disagreements.push(`row ${index} (${blockName}, ${sampleId}) is not a sample of benchmark.json`)
      continue
    }
    for (const column of COMPARED_COLUMNS) {
      if (!columns.has(column)) continue
      const indexValue = normalize(row[column])
      const packageValue = normalize(record[column])
      if (indexValue !== packageValue) disagreements.push(`row ${index} (${blockName}, ${sampleId}) ${column} is ${indexValue} but benchmark.json says ${packageValue}`)
    }
  }
  for (const block of blocks) {
    for (const sample of block.samples) {
      if (!seen.has(sampleKey(block.record.name, sample.id))) disagreements.push(`(${block.record.name}, ${sample.id}) of benchmark.json has no row`)
    }
  }
  for (const message of disagreements.slice(0, MAX_INDEX_WARNINGS)) {
    sink.warning({ code: 'PACKAGE_INDEX_DISAGREES', file, message: `${message}; benchmark.json is kept` })
  }
  if (disagreements.length > MAX_INDEX_WARNINGS) {
    sink.warning({ code: 'PACKAGE_INDEX_DISAGREES', file, message: `${disagreements.length - MAX_INDEX_WARNINGS} more disagreements with benchmark.json; benchmark.json is kept` })
  }
}

/** Parquet integers may come back as bigint and absent values as undefined or null: compare as text. */
function normalize(value: unknown): string {
  if (value === undefined || value === null) return 'null'
  if (typeof value === 'bigint' || typeof value === 'number') return String(value)
  return JSON.stringify(value)
}
