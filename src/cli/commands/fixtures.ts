// `awb fixtures [--size mini|full] --out DIR [--seed N]`: generates a synthetic package deterministically
// (fixtures/generator): awb-mini in memory, or the full-size awb-full straight to disk (default under ~/.cache);
// `--check` verifies a full-size copy against the committed SHA-256 list. The demonstration scripts go to a
// `demonstrations` folder next to DIR. Thin adapter: no generation logic here.
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import * as z from 'zod'
import { parseFlags } from '../flags.ts'
import { UsageError } from '../usage-error.ts'

const FixturesFlagsSchema = z.looseObject({
  out: z.string().min(1).optional(),
  seed: z.coerce.number().int().min(0).optional(),
  size: z.enum(['mini', 'full']).optional(),
  triangles: z.coerce.number().int().min(0).optional(),
  scanTriangles: z.coerce.number().int().min(0).optional(),
  check: z.boolean().optional(),
})
type FixturesFlags = z.infer<typeof FixturesFlagsSchema>

/** Where `--size full` writes without --out: `~/.cache/assembly-world-bench/full-<seed>/awb-full` (XDG_CACHE_HOME honoured). */
export function defaultFullSizeDir(seed: number, env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache')
  return join(cache, 'assembly-world-bench', `full-${seed}`, 'awb-full')
}

/** Exit: 0 written (or checked equal), 1 generation, writing or the check failed (incl. no page renderer), 2 usage. */
export async function run(args: unknown[]): Promise<number> {
  const flags = parseFlags('fixtures', FixturesFlagsSchema, args.at(-1))
  const size = flags.size ?? 'mini'
  if (size === 'mini' && (flags.triangles !== undefined || flags.scanTriangles !== undefined || flags.check === true)) {
    throw new UsageError('fixtures: --triangles, --scan-triangles and --check apply to --size full only')
  }
  const seed = flags.seed ?? 0
  if (size === 'mini' && flags.out === undefined) throw new UsageError('fixtures needs --out <dir> (a new folder for the package)')
  const out = resolve(flags.out ?? defaultFullSizeDir(seed))
  const demonstrationsDir = join(dirname(out), 'demonstrations')
  if (flags.check === true) return check(out, demonstrationsDir)
  return generate(size, flags, { out, seed, demonstrationsDir })
}

async function generate(size: 'mini' | 'full', flags: FixturesFlags, where: { out: string; seed: number; demonstrationsDir: string }): Promise<number> {
  const generator = await import('../../../fixtures/generator/index.ts')
  const { ScoringPool } = await import('../../scoring/workers/index.ts')
  const { out, seed, demonstrationsDir } = where
  const log = (line: string): void => { process.stderr.write(`awb fixtures: ${line}\n`) }
  const pageRenderer = await generator.resolvePageRenderer()
  const pool = new ScoringPool()
  const started = performance.now()
  try {
    let evaluations: number, files: number, demonstrations: Map<string, Uint8Array>
    if (size === 'mini') {
      const generated = await generator.generatePackage({ seed, pool, pageRenderer, log })
      await generator.writePackage(out, generated.files)
      ;({ demonstrations } = generated)
      evaluations = generated.entries.length
      files = generated.files.size
    } else {
      const profile = generator.fullSizeProfile({ trianglesPerPart: flags.triangles, scanTrianglesPerPart: flags.scanTriangles })
      const emitted = await generator.writePackageFrom(out, sink => generator.emitPackage({ seed, pool, pageRenderer, log, profile }, sink))
      ;({ demonstrations, evaluations, files } = emitted)
    }
    await generator.writeDemonstrations(demonstrationsDir, demonstrations)
    log(`wrote the demonstrations to ${demonstrationsDir}`)
    process.stdout.write(`awb fixtures: wrote ${out} (${size}, seed ${seed}, ${evaluations} evaluations, ${files} files, ${Math.round((performance.now() - started) / 1000)} s)\n`)
    return 0
  } finally {
    await Promise.all([pool.close(), pageRenderer?.close()])
  }
}

async function check(out: string, demonstrationsDir: string): Promise<number> {
  const { checkFullPackage, FULL_SIZE_HASH_LIST } = await import('../../../fixtures/generator/index.ts')
  const result = await checkFullPackage(out, demonstrationsDir)
  const problems = [...result.missing.map(p => `missing ${p}`), ...result.extra.map(p => `not in the list ${p}`), ...result.changed.map(p => `differs ${p}`)]
  if (problems.length === 0) {
    process.stdout.write(`awb fixtures: ${out} and ${demonstrationsDir} match ${FULL_SIZE_HASH_LIST} (${result.checked} files; rendered pages and pages.json are not listed)\n`)
    return 0
  }
  for (const line of problems.slice(0, 20)) process.stderr.write(`awb fixtures: ${line}\n`)
  if (problems.length > 20) process.stderr.write(`awb fixtures: … and ${problems.length - 20} more\n`)
  process.stderr.write(`awb fixtures: FIXTURES_CHECK ${out} does not match ${FULL_SIZE_HASH_LIST} (${problems.length} problems); the list covers seed 0 at the default --triangles: regenerate with \`awb fixtures --size full\`\n`)
  return 1
}
