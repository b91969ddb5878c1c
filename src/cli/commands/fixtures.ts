// `awb fixtures --out DIR [--seed N]`: generates the synthetic awb-mini package deterministically (fixtures/generator);
// the demonstration scripts go to a `demonstrations` folder next to DIR. Thin adapter: no generation logic here.
import { dirname, join, resolve } from 'node:path'
import * as z from 'zod'
import { parseFlags } from '../flags.ts'
import { UsageError } from '../usage-error.ts'

const FixturesFlagsSchema = z.looseObject({
  out: z.string().min(1).optional(),
  seed: z.coerce.number().int().min(0).optional(),
})

/** Exit: 0 written, 1 generation or writing failed (incl. no page renderer), 2 usage. */
export async function run(args: unknown[]): Promise<number> {
  const flags = parseFlags('fixtures', FixturesFlagsSchema, args.at(-1))
  if (flags.out === undefined) throw new UsageError('fixtures needs --out <dir> (a new folder for the package)')
  const { generatePackage, resolvePageRenderer, writeDemonstrations, writePackage } = await import('../../../fixtures/generator/index.ts')
  const { ScoringPool } = await import('../../scoring/workers/index.ts')
  const out = resolve(flags.out)
  const seed = flags.seed ?? 0
  const pageRenderer = await resolvePageRenderer()
  const pool = new ScoringPool()
  try {
    const generated = await generatePackage({ seed, pool, pageRenderer, log: line => process.stderr.write(`awb fixtures: ${line}\n`) })
    await writePackage(out, generated.files)
    const demonstrationsDir = join(dirname(out), 'demonstrations')
    await writeDemonstrations(demonstrationsDir, generated.demonstrations)
    process.stderr.write(`awb fixtures: wrote the demonstrations to ${demonstrationsDir}\n`)
    process.stdout.write(`awb fixtures: wrote ${out} (seed ${seed}, ${generated.entries.length} evaluations, ${generated.files.size} files)\n`)
    return 0
  } finally {
    await Promise.all([pool.close(), pageRenderer?.close()])
  }
}
