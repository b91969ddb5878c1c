// `awb status [RUN] [--runs DIR] [--json]`: where a run chain stands (runner.md §7.1), as JSON or a table per block,
// with each run's seals and why each damaged sample is damaged.
import * as z from 'zod'
import { UsageError } from '../usage-error.ts'

const StatusOptionsSchema = z.looseObject({ json: z.boolean().optional(), runs: z.string().min(1).optional() })

/** Exit: 0 (the status was read), 1 (no such run), 2 (usage). */
export async function run(args: unknown[]): Promise<number> {
  const [runArg, rawOptions] = args
  const options = StatusOptionsSchema.safeParse(rawOptions ?? {})
  if (!options.success) throw new UsageError(`status: invalid options (${options.error.issues[0]?.message ?? 'unknown'})`)
  const { chainStatus } = await import('../../runs/index.ts')
  const { resolveResumeRun } = await import('../../harness/node/index.ts')
  const runDir = await resolveResumeRun(typeof runArg === 'string' && runArg !== '' ? runArg : 'latest', options.data.runs ?? 'runs')
  const status = await chainStatus(runDir)
  const json = status.run.json as Record<string, unknown>
  if (options.data.json === true) {
    process.stdout.write(`${JSON.stringify({
      run: status.run.dir,
      status: status.state,
      ...(typeof json.pause_reason === 'string' ? { pause_reason: json.pause_reason } : {}),
      source_run: json.source_run ?? null,
      samples: Object.fromEntries(status.samples.map(sample => [`${sample.block}/${sample.sampleId}`, sample.state])),
      counts: status.counts,
      // Why each damaged sample is damaged, and each run's seals (runner.md §7.1 has no place for them: added here).
      damaged: Object.fromEntries(status.samples.filter(sample => sample.state === 'damaged').map(sample => [`${sample.block}/${sample.sampleId}`, sample.damage ?? null])),
      seals: status.seals.map(seals => ({
        run: seals.run,
        mode: seals.mode,
        count: seals.count,
        head: seals.head,
        chain_problems: seals.chainProblems,
        samples: Object.fromEntries(seals.samples.map(sample => [`${sample.block}/${sample.sampleId}`, sample.verdict])),
      })),
    }, null, 2)}\n`)
    return 0
  }
  process.stdout.write(`${formatStatus(status)}\n`)
  return 0
}

type Status = Awaited<ReturnType<typeof import('../../runs/index.ts').chainStatus>>

const COLUMNS = ['completed', 'failed', 'running', 'interrupted', 'pending', 'damaged'] as const

/** One line per block (done / failed / running / interrupted / pending / damaged, cost so far), then the run. */
export function formatStatus(status: Status): string {
  const json = status.run.json as Record<string, unknown>
  const selection = new Map<string, Set<string>>()
  for (const run of status.chain) {
    for (const [block, ids] of Object.entries(run.json.selection ?? {})) for (const id of ids) (selection.get(block) ?? selection.set(block, new Set()).get(block)!).add(id)
  }
  const blocks = [...new Set([...selection.keys(), ...status.samples.map(sample => sample.block)])].sort()
  const rows = blocks.map((block) => {
    const samples = status.samples.filter(sample => sample.block === block)
    const count = (state: string) => samples.filter(sample => sample.state === state).length
    // Selected in run.json but no folder yet: the run never got to them.
    const notStarted = [...(selection.get(block) ?? [])].filter(id => !samples.some(sample => sample.sampleId === id)).length
    const costs = samples.map(sample => sample.attempt.result?.execution?.cost_usd).filter((cost): cost is number => typeof cost === 'number')
    return [block, ...COLUMNS.map(state => String(count(state) + (state === 'pending' ? notStarted : 0))), costs.length === 0 ? '—' : `$${costs.reduce((a, b) => a + b, 0).toFixed(4)}`]
  })
  const header = ['block', ...COLUMNS, 'cost']
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map(row => row[i]!.length)))
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')
  const started = typeof json.started_at === 'string' ? Date.parse(json.started_at) : Number.NaN
  const ended = typeof json.finished_at === 'string' ? Date.parse(json.finished_at) : Date.now()
  const elapsed = Number.isFinite(started) ? `${((ended - started) / 1000).toFixed(0)} s` : 'unknown'
  const state = status.state === 'paused' && typeof json.pause_reason === 'string' ? `paused (${json.pause_reason})` : status.state === 'interrupted' ? 'interrupted (its process is gone; continue it with AWB_RESUME)' : status.state
  return [
    `run ${status.run.dir}: ${state}, ${elapsed}${status.chain.length > 1 ? `, resumes ${status.chain.length - 1} earlier run${status.chain.length > 2 ? 's' : ''}` : ''}`,
    line(header),
    line(widths.map(width => '─'.repeat(width))),
    ...rows.map(line),
    ...sealLines(status),
  ].join('\n')
}

/** Each run's seals in one line, then every damaged sample with why (which run, sample and file, what differs). */
export function sealLines(status: Status): string[] {
  const lines = status.seals.map((seals) => {
    const name = seals.run === status.run.dir ? 'this run' : seals.run
    if (seals.mode === 'legacy') return `seals (${name}): none; the run predates sealed records, so its files cannot be checked`
    const flagged = seals.flagged.length
    const chain = seals.chainProblems.length === 0 ? '' : `; ${seals.chainProblems.join('; ')}`
    return `seals (${name}): ${seals.count} sealed, ${flagged === 0 ? 'every sample intact' : `${flagged} flagged`}${chain}${seals.head === null ? '' : ` (head ${seals.head})`}`
  })
  const damaged = status.samples.filter(sample => sample.state === 'damaged')
  return [...lines, ...damaged.map(sample => `damaged ${sample.damage ?? `${sample.block} / ${sample.sampleId}`}; a resume runs it again`)]
}
