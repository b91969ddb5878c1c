import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RunError, selectAttempts, type SelectedAttempt } from '../../../src/runs/index.ts'
import { COMPLETED_RESULT, writeRun } from '../../helpers/run-fixture.ts'

const FAILED = { ...COMPLETED_RESULT, status: 'failed', execution: { status: 'failed', error: 'RuntimeError: boom' } }
const RUNNING = { status: 'running', execution: { status: 'pending' }, archive: { status: 'not_saved' } }
const PENDING = { status: 'pending' }

let root: string
beforeEach(async () => { root = await mkdtemp(join(tmpdir(), 'awb-runs-')) })
afterEach(async () => { await rm(root, { recursive: true, force: true }) })

function summary(selected: SelectedAttempt[]): string[] {
  return selected.map(s => `${s.block}/${s.sampleId}: ${s.kind === 'attempt' ? `${s.attempt.run.split('/').at(-1)} ${s.attempt.result?.status}` : s.error.split(':')[0]}`)
}

describe('selectAttempts', () => {
  it('takes the newest attempt along a resume chain, and a newer failure never falls back to an older success', async () => {
    const a = await writeRun({ dir: join(root, 'a'), attempts: [
      { block: 'b1', sampleId: 's1' }, { block: 'b1', sampleId: 's2' }, { block: 'b1', sampleId: 's3', result: FAILED },
    ] })
    const b = await writeRun({ dir: join(root, 'b'), sourceRun: a, attempts: [
      { block: 'b1', sampleId: 's2', result: FAILED }, { block: 'b1', sampleId: 's3' },
    ] })
    expect(summary(await selectAttempts([b]))).toEqual(['b1/s1: a completed', 'b1/s2: b failed', 'b1/s3: b completed'])
  })

  it('skips pending records but treats a running latest attempt as the one to report (no fallback)', async () => {
    const a = await writeRun({ dir: join(root, 'a'), attempts: [{ block: 'b1', sampleId: 's1' }, { block: 'b1', sampleId: 's2' }] })
    const b = await writeRun({ dir: join(root, 'b'), sourceRun: a, attempts: [
      { block: 'b1', sampleId: 's1', result: PENDING }, { block: 'b1', sampleId: 's2', result: RUNNING },
    ] })
    expect(summary(await selectAttempts([b]))).toEqual(['b1/s1: a completed', 'b1/s2: b running'])
  })

  it('rejects two resumes of the same ancestor as ambiguous siblings', async () => {
    const a = await writeRun({ dir: join(root, 'a'), attempts: [{ block: 'b1', sampleId: 's1', result: FAILED }] })
    const b = await writeRun({ dir: join(root, 'b'), sourceRun: a, attempts: [{ block: 'b1', sampleId: 's1' }] })
    const c = await writeRun({ dir: join(root, 'c'), sourceRun: a, attempts: [{ block: 'b1', sampleId: 's1', result: FAILED }] })
    expect(summary(await selectAttempts([b, c]))).toEqual(['b1/s1: Ambiguous sibling attempts'])
  })

  it('rejects the same sample in unrelated runs', async () => {
    const a = await writeRun({ dir: join(root, 'a'), attempts: [{ block: 'b1', sampleId: 's1' }] })
    const b = await writeRun({ dir: join(root, 'b'), attempts: [{ block: 'b1', sampleId: 's1' }, { block: 'b1', sampleId: 's2' }] })
    expect(summary(await selectAttempts([a, b]))).toEqual(['b1/s1: Duplicate sample in unrelated runs', 'b1/s2: b completed'])
  })

  it('orders rows by block and sample id in code-point order and keeps ids with slashes', async () => {
    const a = await writeRun({ dir: join(root, 'a'), attempts: [
      { block: 'ikea', sampleId: 'Chair/reidar' }, { block: 'ikea', sampleId: 'Bench/applaro' }, { block: 'ab', sampleId: '603' }, { block: 'ab', sampleId: '1386' },
    ] })
    expect(summary(await selectAttempts([a]))).toEqual(['ab/1386: a completed', 'ab/603: a completed', 'ikea/Bench/applaro: a completed', 'ikea/Chair/reidar: a completed'])
  })

  it('keeps a sample whose result.json is broken, as an attempt carrying the record error', async () => {
    const a = await writeRun({ dir: join(root, 'a'), attempts: [{ block: 'b1', sampleId: 's1' }] })
    await writeFile(join(a, 'blocks/b1/samples/s1/result.json'), '{"status": "exploded"}')
    const [only] = await selectAttempts([a])
    expect(only?.kind === 'attempt' && only.attempt.recordError).toMatch(/result\.json: status/)
  })

  it('reads a run without samples as one with no attempts, but a samples folder it cannot list as an error, never as empty', async () => {
    const empty = await writeRun({ dir: join(root, 'empty'), attempts: [] })
    expect(await selectAttempts([empty])).toEqual([])
    const a = await writeRun({ dir: join(root, 'a'), attempts: [{ block: 'b1', sampleId: 's1' }] })
    // A link to itself cannot be listed (ELOOP, even for root): the sample in it must not silently vanish.
    const samples = join(a, 'blocks', 'b1', 'samples')
    await rm(samples, { recursive: true })
    await symlink(samples, samples)
    await expect(selectAttempts([a])).rejects.toMatchObject({ code: 'RUN_RECORD_INVALID', file: samples, message: expect.stringContaining('ELOOP') as unknown })
  })

  it('detects a source_run cycle and a missing run', async () => {
    const a = await writeRun({ dir: join(root, 'a'), sourceRun: join(root, 'b'), attempts: [] })
    await writeRun({ dir: join(root, 'b'), sourceRun: a, attempts: [] })
    await expect(selectAttempts([a])).rejects.toMatchObject({ code: 'RUN_CHAIN_CYCLE' })
    await expect(selectAttempts([join(root, 'nope')])).rejects.toBeInstanceOf(RunError)
  })
})
