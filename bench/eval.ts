// `awb eval` wall time on awb-mini: replays every demonstration into a temporary run once, then scores it with one
// sample in flight and with GPU_SAMPLES_AT_ONCE (reading one archive overlaps scoring another; on the GPU they share
// a lockstep batch). Why a CPU scorer takes one sample at a time. Checks both give the same rows; prints a table and
// one JSON line.
// Usage: tsx bench/eval.ts [--backend cpu|gpu|auto] [--workers N] [--repeat K]
import { mkdtemp, rm } from 'node:fs/promises'
import { availableParallelism, cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createScorer, evaluateRuns, GPU_SAMPLES_AT_ONCE } from '../src/evaluate/index.ts'
import { ScoringBackendChoiceSchema } from '../src/scoring/gpu/index.ts'
import { BENCH_PACKAGE, replayDemonstrationsRun } from './replay-run.ts'

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}
const workers = flag('--workers') === undefined ? undefined : Number(flag('--workers'))
if (workers !== undefined && (!Number.isInteger(workers) || workers < 0)) throw new Error(`--workers: expected a whole number ≥ 0, got ${flag('--workers')}`)
const backend = ScoringBackendChoiceSchema.parse(flag('--backend') ?? 'cpu')
const repeat = Number(flag('--repeat') ?? 2)
if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat: expected a whole number ≥ 1, got ${flag('--repeat')}`)

const work = await mkdtemp(join(tmpdir(), 'awb-bench-eval-'))
try {
  const runDir = await replayDemonstrationsRun(join(work, 'run'))
  const scorer = createScorer({ backend, ...(workers === undefined ? {} : { workers }) })
  scorer.start()
  const seconds: Record<string, number[]> = { 1: [], [GPU_SAMPLES_AT_ONCE]: [] }
  const outputs = new Set<string>()
  let outputCount = 0
  try {
    // Untimed warm-up: worker start-up and kernel compilation belong to no configuration.
    await evaluateRuns({ runDirs: [runDir], packageDir: BENCH_PACKAGE, outputDir: join(work, `eval-${++outputCount}`), scorer })
    for (let k = 0; k < repeat; k++) {
      for (const concurrency of [1, GPU_SAMPLES_AT_ONCE]) {
        const started = performance.now()
        const { rows } = await evaluateRuns({ runDirs: [runDir], packageDir: BENCH_PACKAGE, outputDir: join(work, `eval-${++outputCount}`), scorer, concurrency })
        seconds[concurrency]!.push((performance.now() - started) / 1000)
        outputs.add(JSON.stringify(rows.map(({ run: _run, ...row }) => row)))
      }
    }
  } finally {
    await scorer.close()
  }
  const best = (list: number[]) => Math.min(...list)
  console.log(`awb eval on awb-mini (20 samples, replayed demonstrations), ${scorer.backend}, ${scorer.workers} workers; ${cpus()[0]?.model ?? 'cpu'} ×${availableParallelism()}; best of ${repeat}`)
  console.log('| samples in flight | seconds |')
  console.log('|---:|---:|')
  for (const [concurrency, list] of Object.entries(seconds)) console.log(`| ${concurrency} | ${best(list).toFixed(2)} |`)
  console.log(JSON.stringify({ bench: 'eval', backend: scorer.backend, workers: scorer.workers, seconds: Object.fromEntries(Object.entries(seconds).map(([c, list]) => [c, best(list)])), identical: outputs.size === 1 }))
  if (outputs.size !== 1) {
    console.error('bench eval: the rows differ between concurrency settings: a bug')
    process.exitCode = 1
  }
} finally {
  await rm(work, { recursive: true, force: true })
}
