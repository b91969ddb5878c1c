import { describe, expect, it } from 'vitest'
import { SampleAccessError, SampleGate, type SampleAccessCode } from '../../../src/harness/node/index.ts'

const blocks = new Map([['ikea', new Set(['a', 'b'])], ['partnet', new Set(['a'])]])
const ikea = { project: 'ikea' }
const LIMIT = 60_000

async function refusal(action: () => unknown): Promise<SampleAccessCode> {
  try {
    await action()
  } catch (error) {
    if (error instanceof SampleAccessError) return error.code
    throw error
  }
  throw new Error('the action was not refused')
}

describe('SampleGate', () => {
  it('lets a project start, save once and finish once its own running sample, then closes it', async () => {
    const gate = new SampleGate({ blocks })
    const open = await gate.open(ikea, 'ikea', 'a', 'page', LIMIT)
    expect(gate.active(ikea, 'ikea', 'a', 'record')).toBe(open)
    gate.claimSave(ikea, 'ikea', 'a')
    expect(await refusal(() => gate.claimSave(ikea, 'ikea', 'a'))).toBe('ALREADY_SAVED')
    gate.claimFinish(ikea, 'ikea', 'a')
    expect(await refusal(() => gate.claimFinish(ikea, 'ikea', 'a'))).toBe('ALREADY_FINISHED')
    expect(await refusal(() => gate.active(ikea, 'ikea', 'a', 'record'))).toBe('ALREADY_FINISHED')
    expect(await refusal(() => gate.open(ikea, 'ikea', 'a', 'page', LIMIT))).toBe('ALREADY_STARTED')
    await gate.open(ikea, 'ikea', 'b', 'page', LIMIT)
  })

  it('refuses another project\'s block, unknown samples, paths and a second open sample', async () => {
    const gate = new SampleGate({ blocks })
    expect(await refusal(() => gate.open(ikea, 'partnet', 'a', 'page', LIMIT))).toBe('WRONG_PROJECT')
    expect(await refusal(() => gate.open(ikea, '../../etc', 'a', 'page', LIMIT))).toBe('WRONG_PROJECT')
    expect(await refusal(() => gate.open(ikea, 'ikea', '../../a', 'page', LIMIT))).toBe('UNKNOWN_SAMPLE')
    expect(await refusal(() => gate.open(ikea, 'ikea', 42 as unknown as string, 'page', LIMIT))).toBe('UNKNOWN_SAMPLE')
    await gate.open(ikea, 'ikea', 'a', 'page', LIMIT)
    expect(await refusal(() => gate.open(ikea, 'ikea', 'b', 'page', LIMIT))).toBe('ANOTHER_SAMPLE_OPEN')
    expect(await refusal(() => gate.claimSave(ikea, 'ikea', 'b'))).toBe('NOT_OPEN')
    expect(await refusal(() => gate.claimFinish(ikea, 'ikea', 'b'))).toBe('NOT_OPEN')
    expect(await refusal(() => gate.claimSave({ project: 'partnet' }, 'ikea', 'a'))).toBe('WRONG_PROJECT')
  })

  it('starts only the sample of the test Vitest reports running', async () => {
    const gate = new SampleGate({
      blocks,
      awaitRunningTest: async (block, sampleId) => {
        if (sampleId !== 'b') throw new SampleAccessError('NOT_RUNNING_TEST', `${block} / ${sampleId} is not running`)
      },
    })
    expect(await refusal(() => gate.open(ikea, 'ikea', 'a', 'page', LIMIT))).toBe('NOT_RUNNING_TEST')
    await gate.open(ikea, 'ikea', 'b', 'page', LIMIT)
  })

  it('starts a sample once even when two starts race', async () => {
    let release!: () => void
    const held = new Promise<void>(resolve => { release = resolve })
    const gate = new SampleGate({ blocks, awaitRunningTest: () => held })
    const first = gate.open(ikea, 'ikea', 'a', 'page', LIMIT)
    const second = gate.open(ikea, 'ikea', 'a', 'page', LIMIT)
    release()
    const outcomes = await Promise.allSettled([first, second])
    expect(outcomes.filter(o => o.status === 'fulfilled')).toHaveLength(1)
  })

  it('ends the agent\'s Node-side work at save, at finish and at the time limit', async () => {
    const gate = new SampleGate({ blocks })
    const saved = await gate.open(ikea, 'ikea', 'a', 'api', LIMIT)
    expect(saved.signal.aborted).toBe(false)
    gate.claimSave(ikea, 'ikea', 'a')
    expect(saved.signal.aborted).toBe(true)
    gate.claimFinish(ikea, 'ikea', 'a')
    const timed = await gate.open(ikea, 'ikea', 'b', 'api', 20)
    await new Promise(resolve => timed.signal.addEventListener('abort', resolve))
    expect(String(timed.signal.reason)).toMatch(/time limit/)
  })

  it('runs the CLI agent only for a CLI-agent sample, once', async () => {
    const gate = new SampleGate({ blocks })
    await gate.open(ikea, 'ikea', 'a', 'page', LIMIT)
    expect(await refusal(() => gate.claimCli(ikea, 'ikea', 'a'))).toBe('WRONG_AGENT')
    gate.claimFinish(ikea, 'ikea', 'a')
    await gate.open(ikea, 'ikea', 'b', 'cli', LIMIT)
    gate.claimCli(ikea, 'ikea', 'b')
    expect(await refusal(() => gate.claimCli(ikea, 'ikea', 'b'))).toBe('ALREADY_RUNNING')
  })

  it('abandons a sample left open by its test, so the project goes on', async () => {
    const gate = new SampleGate({ blocks })
    const open = await gate.open(ikea, 'ikea', 'a', 'page', LIMIT)
    expect(gate.abandon('ikea', 'a', 'page crashed')).toBe(true)
    expect(open.signal.aborted).toBe(true)
    expect(gate.abandon('ikea', 'a', 'again')).toBe(false)
    expect(await refusal(() => gate.claimFinish(ikea, 'ikea', 'a'))).toBe('ALREADY_FINISHED')
    await gate.open(ikea, 'ikea', 'b', 'page', LIMIT)
  })
})
