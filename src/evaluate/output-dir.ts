// Creates the evaluation output directory atomically (all files or none) at a path that must be new.
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path'
import { RunError } from '../runs/index.ts'

/**
 * Throws `RunError` when `output` exists, or lies inside (or equals) one of `protectedDirs`
 * (run directories, the package): an evaluation never writes into its inputs.
 */
export async function assertNewOutputDir(output: string, protectedDirs: readonly string[]): Promise<void> {
  const target = resolve(output)
  const exists = await stat(target).then(() => true, () => false)
  if (exists) throw new RunError('RUN_OUTPUT_EXISTS', 'the output directory already exists; choose a new path (earlier evaluations are never overwritten)', { file: target })
  for (const dir of protectedDirs) {
    const rel = relative(resolve(dir), target)
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
      throw new RunError('RUN_OUTPUT_INSIDE_INPUT', `the output directory lies inside ${dir}; write evaluations outside run directories and the package`, { file: target })
    }
  }
}

/** Writes `files` (name → text or bytes) into a temporary sibling, then renames it to `output` in one step. */
export async function writeOutputDir(output: string, files: Readonly<Record<string, string | Uint8Array>>): Promise<void> {
  const target = resolve(output)
  await mkdir(dirname(target), { recursive: true })
  const staging = await mkdtemp(join(dirname(target), `.${basename(target)}.tmp-`))
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(join(staging, name), text)
    await rename(staging, target)
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    throw error
  }
}
