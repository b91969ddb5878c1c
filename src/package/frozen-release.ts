// The frozen v1 release: the shipped SHA-256 list (§9.2) and the block table of §3; compares nothing itself.
import { readFile } from 'node:fs/promises'
import * as z from 'zod'
import { PackageError } from './errors.ts'
import { Sha256Schema } from './schemas.ts'

/** Relative package path → SHA-256, as shipped by the reference runner (§9.2). */
export const FrozenHashListSchema = z.record(z.string(), Sha256Schema)
export type FrozenHashList = z.infer<typeof FrozenHashListSchema>

const FROZEN_LIST_URL = new URL('./data/frozen-hashes.json', import.meta.url)

/** Reads and checks the frozen SHA-256 list shipped with the harness (`src/package/data/frozen-hashes.json`). */
export async function loadFrozenHashList(): Promise<FrozenHashList> {
  const text = await readFile(FROZEN_LIST_URL, 'utf8')
  const parsed = FrozenHashListSchema.safeParse(JSON.parse(text))
  if (!parsed.success) {
    throw new PackageError('PACKAGE_SCHEMA', {
      file: 'src/package/data/frozen-hashes.json',
      message: `the shipped frozen hash list is damaged: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      fix: 'Reinstall the harness; this file is read-only data',
    })
  }
  return parsed.data
}

/** One row of the frozen block table (§3). */
export interface FrozenBlock {
  name: string
  configId: string
}

/** The five blocks of the published release, in their frozen order (§3). */
export const FROZEN_BLOCKS: readonly FrozenBlock[] = [
  { name: 'partnet-none', configId: 'prep-v1-s0-i0-987553cbcd58' },
  { name: 'partnet-final-image', configId: 'prep-v1-s0-i0-987553cbcd58' },
  { name: 'ikea-manualbook', configId: 'prep-v1-s0-i0-823ea008b2b1' },
  { name: 'assemblybench-manualbook', configId: 'prep-v1-s0-i0-5201fd352313' },
  { name: 'fantastic-breaks-none', configId: 'prep-v1-s0-i0-a49b9f0e6b8e' },
]
export const FROZEN_SAMPLES_PER_BLOCK = 20
export const FROZEN_TOTAL_SAMPLES = 100
