// Per-block file checks: task.txt against prompt_sha256 and config.json against the block (§5.1, §6).
import type { ParsedBlock } from './benchmark-rules.ts'
import { type CheckSink, ScopedSink } from './check-sink.ts'
import { configIdFor } from './config-id.ts'
import { PackageError } from './errors.ts'
import { sha256Bytes } from './hashing.ts'
import { deepEqualJson } from './json-values.ts'
import { configPath, episodeFileName, taskPath } from './layout.ts'
import { checkFrozenHash, type PackageFiles, parseJsonBytes, readPackageBytes } from './package-files.ts'
import { ENGINE_VERSION, PREPARATION_PARAMETERS, PREPARATION_PROTOCOL, RUNTIME_CONTRACT } from './protocol-constants.ts'
import { parseWithSchema } from './schema-problems.ts'
import { type ConfigRecord, ConfigSchema } from './schemas.ts'

/** Reads `<block>/task.txt`, checks it against `prompt_sha256` and decodes it as strict UTF-8 (not trimmed). */
export async function checkTaskText(files: PackageFiles, block: ParsedBlock, parent: CheckSink): Promise<string | undefined> {
  const sink = new ScopedSink(parent)
  const file = taskPath(block.folders)
  const bytes = await sink.captureAsync(() => readPackageBytes(files, file))
  if (bytes === undefined) return undefined
  const actual = sha256Bytes(bytes)
  if (actual !== block.record.prompt_sha256) {
    sink.problem(new PackageError('PACKAGE_HASH_MISMATCH', {
      file,
      message: `SHA-256 of the task text is ${actual} but benchmark.json blocks[${block.index}].prompt_sha256 is ${block.record.prompt_sha256}`,
      fix: 'The task text is fixed per block: restore task.txt from the package (never edit it)',
    }))
    return undefined
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch (error) {
    sink.problem(new PackageError('PACKAGE_TASK_ENCODING', { file, message: 'the task text is not valid UTF-8', fix: 'Restore task.txt from the package', cause: error }))
    return undefined
  }
}

/**
 * Reads the block's config.json and checks it against the frozen list, the block (§6) and the block's
 * benchmark.json sample records (§5.2). Undefined when the file is missing, not frozen-clean or unparsable.
 */
export async function checkConfig(files: PackageFiles, block: ParsedBlock, sink: CheckSink): Promise<ConfigRecord | undefined> {
  const file = configPath(block.folders)
  const scoped = new ScopedSink(sink)
  const bytes = await scoped.captureAsync(() => readPackageBytes(files, file))
  if (bytes === undefined || !checkFrozenHash(files, file, bytes, sink)) return undefined
  const value = parseJsonBytes(file, bytes, sink)
  if (value === undefined) return undefined
  const config = parseWithSchema(ConfigSchema, value, { file, what: 'config.json' }, sink)
  if (config === undefined) return undefined
  const { record } = block
  const fail = (field: string, message: string): void =>
    sink.problem(new PackageError('PACKAGE_MISMATCH', { file, field, message, fix: 'config.json and benchmark.json disagree: restore both from the same package revision' }))

  if (config.config_id !== record.config_id) fail('config_id', `config_id ${JSON.stringify(config.config_id)} must equal the block's config_id ${JSON.stringify(record.config_id)}`)
  const { identity } = config
  if (identity.dataset !== record.repo_id) fail('identity.dataset', `identity.dataset ${JSON.stringify(identity.dataset)} must equal the block's repo_id ${JSON.stringify(record.repo_id)}`)
  if (identity.revision !== record.revision) fail('identity.revision', `identity.revision ${identity.revision} must equal the block's revision ${record.revision}`)
  if (identity.protocol !== PREPARATION_PROTOCOL) fail('identity.protocol', `identity.protocol must be "${PREPARATION_PROTOCOL}", got ${JSON.stringify(identity.protocol)}`)
  if (identity.contract !== RUNTIME_CONTRACT) fail('identity.contract', `identity.contract must be "${RUNTIME_CONTRACT}", got ${JSON.stringify(identity.contract)}`)
  if (identity.engine !== ENGINE_VERSION) fail('identity.engine', `identity.engine must be "${ENGINE_VERSION}", got ${JSON.stringify(identity.engine)}`)
  if (!deepEqualJson(identity.preparation, PREPARATION_PARAMETERS)) fail('identity.preparation', `identity.preparation must be ${JSON.stringify(PREPARATION_PARAMETERS)}`)
  const derived = configIdFor(identity)
  if (derived !== config.config_id) {
    // §6: equality with benchmark.json is the rule; the derivation can differ only by number formatting.
    sink.warning({ code: 'PACKAGE_CONFIG_ID_DERIVATION', file, message: `config_id ${config.config_id} differs from ${derived} derived from identity (serializers may format numbers differently; equality with benchmark.json is what counts)` })
  }

  const configIds = new Set(Object.keys(config.samples))
  for (const sample of block.samples) {
    const entry = config.samples[sample.id]
    const field = `samples.${sample.id}`
    if (entry === undefined) {
      fail(field, `sample ${JSON.stringify(sample.id)} of benchmark.json block ${record.name} is missing from config.json`)
      continue
    }
    configIds.delete(sample.id)
    if (entry.episode !== episodeFileName(sample.slug)) fail(`${field}.episode`, `episode must be ${JSON.stringify(episodeFileName(sample.slug))}, got ${JSON.stringify(entry.episode)}`)
    if (entry.sha256 !== sample.record.sha256) fail(`${field}.sha256`, `sha256 ${entry.sha256} differs from benchmark.json (${sample.record.sha256})`)
    if (entry.parts !== sample.record.parts) fail(`${field}.parts`, `parts ${entry.parts} differs from benchmark.json (${sample.record.parts})`)
    if (entry.episode_id !== sample.record.episode_id) fail(`${field}.episode_id`, `episode_id ${entry.episode_id} differs from benchmark.json (${sample.record.episode_id})`)
  }
  for (const extra of configIds) fail(`samples.${extra}`, `sample ${JSON.stringify(extra)} is in config.json but not in benchmark.json block ${record.name}`)
  return config
}
