// The Vitest run's extras: the baseline section of summary.md from the resolved settings (their parsing: test/unit/settings).
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareWithBaseline } from '../../../src/report/index.ts'
import { scoredRow } from '../../helpers/metrics-rows.ts'

const row = (sample_id: string, SR: number, PA: number) => scoredRow({ block: 'b', sample_id, SR, PA, SCD: 1 })
let baseline: string

beforeAll(async () => {
  baseline = await mkdtemp(join(tmpdir(), 'awb-baseline-'))
  const base = [row('s1', 1, 1), row('s2', 1, 1)].map(r => JSON.stringify(r))
  await writeFile(join(baseline, 'metrics.jsonl'), `${base.join('\n')}\n`)
})

afterAll(async () => {
  if (baseline !== undefined) await rm(baseline, { recursive: true, force: true })
})

describe('compareWithBaseline', () => {
  it('adds the comparison section and checks the vs_baseline gate', async () => {
    const section = await compareWithBaseline([row('s1', 1, 1), row('s2', 0, 0.5)], { baseline }, { vs_baseline: { SR: -0.05 } })
    expect(section.markdown).toContain('### vs baseline')
    expect(section.verdictLine).toContain('0 wins, 1 losses, 1 ties')
    // One loss is not significant (p = 1): the gate passes.
    expect(section.gates.map(g => g.status)).toEqual(['passed'])
  })

  it('fails the gate when the baseline cannot be read, and leaves it unmeasured without a baseline', async () => {
    const missing = await compareWithBaseline([row('s1', 1, 1)], { baseline: join(baseline, 'nope') }, { vs_baseline: { SR: -0.05 } })
    expect(missing.gates.map(g => g.status)).toEqual(['failed'])
    expect(missing.markdown).toContain('could not be read')
    const none = await compareWithBaseline([row('s1', 1, 1)], { baseline: undefined }, { vs_baseline: { SR: -0.05 } })
    expect(none).toMatchObject({ markdown: '', verdictLine: null })
    expect(none.gates.map(g => g.status)).toEqual(['not-measured'])
  })
})
