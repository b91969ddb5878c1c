// `awb validate [package-dir] [--json]`: prints every problem of a package and exits 0 only when clean; episodes are
// decoded and compiled too. Without a directory it checks the package a Vitest run would use (AWB_BENCHMARK, else the
// bundled awb-mini).
import { stat } from 'node:fs/promises'
import * as z from 'zod'
import { isNotFoundError } from '../../shared/fs-errors.ts'
import { readVariable } from '../../settings/variables/index.ts'
import { BUNDLED_BENCHMARK } from '../../shared/package-root.ts'
import { UsageError } from '../usage-error.ts'

const ValidateOptionsSchema = z.looseObject({ json: z.boolean().optional() })

/** cac passes the positional `[package-dir]` then its options object. Exit: 0 clean, 1 problems, 2 usage. */
export async function run(args: unknown[]): Promise<number> {
  const [given, rawOptions] = args
  const dir = typeof given === 'string' && given !== '' ? given : defaultPackageDir()
  const options = ValidateOptionsSchema.safeParse(rawOptions ?? {})
  if (!options.success) throw new UsageError(`validate: invalid options (${options.error.issues[0]?.message ?? 'unknown'})`)
  if (!(await isDirectory(dir))) throw new UsageError(`validate: package directory not found: ${dir} (pass the folder that contains benchmark.json)`)

  const { validatePackage } = await import('../../package/index.ts')
  const { checkInitialEpisode } = await import('../../world/index.ts')
  const report = await validatePackage(dir, { checkEpisode: checkInitialEpisode })
  if (options.data.json === true) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    return report.ok ? 0 : 1
  }
  const lines: string[] = []
  for (const problem of report.problems) lines.push(`error [${problem.code}] ${problem.message}`)
  for (const warning of report.warnings) lines.push(`warning [${warning.code}] ${warning.file}: ${warning.message}`)
  const { counts } = report
  const kind = report.frozenRelease ? 'the frozen release' : 'not the frozen release'
  const verdict = report.ok ? 'ok' : `${report.problems.length} problem${report.problems.length === 1 ? '' : 's'}`
  lines.push(`awb validate ${dir}: ${verdict}, ${report.warnings.length} warning${report.warnings.length === 1 ? '' : 's'} (${counts.blocks} blocks, ${counts.samples} samples, ${counts.pages} pages; ${kind}; protocol ${report.protocol ?? 'unknown'})`)
  process.stdout.write(`${lines.join('\n')}\n`)
  return report.ok ? 0 : 1
}

function defaultPackageDir(): string {
  return readVariable(process.env, 'AWB_BENCHMARK') ?? BUNDLED_BENCHMARK
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch (error) {
    // A path that does not exist is reported as not found, a usage error; one we may not read is not "not found".
    if (isNotFoundError(error)) return false
    throw new UsageError(`validate: cannot read the package directory ${path} (${error instanceof Error ? error.message : String(error)}); check its permissions and those of the folders above it`)
  }
}
