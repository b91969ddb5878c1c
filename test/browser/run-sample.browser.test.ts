import { describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { runSample } from '../../src/harness/index.ts'
import { fakeHost, fixtureEpisode, loadMujoco, renderer, serving } from './support/fake-sample-host.ts'

describe('runSample', () => {
  it('runs the agent, exports and saves the final episode, and reports the phases', async () => {
    const realm = await commands.awbTestRealmCode({ kind: 'built-in' })
    const { host, finished, saved, records } = fakeHost({ agent: { kind: 'replay', source: 'demo', script: '{"name":"translate_objects","arguments":{"ids":["part-0001"],"delta":[0.1,0,0]}}\n', realm } })
    const report = await runSample(host, { mujoco: await loadMujoco(), createRenderer: () => renderer, fetch: serving(await fixtureEpisode()) })
    expect(report.failure).toBeUndefined()
    expect(saved).toHaveLength(1)
    expect(finished[0]).toMatchObject({ execution: { status: 'completed' }, archive: { status: 'saved', calls: 1 }, toolCalls: 1, agentOutcome: { status: 'completed' } })
    expect(records.map(entry => entry.type)).toEqual(['message', 'tool_call', 'tool_result', 'message'])
    // The conversation a replay always wrote: the harness records the calls with the replay's own ids.
    expect(records[1]).toEqual({ type: 'tool_call', id: 'replay-0', name: 'translate_objects', arguments: { ids: ['part-0001'], delta: [0.1, 0, 0] } })
    expect(records[2]).toMatchObject({ type: 'tool_result', id: 'replay-0' })
    expect(report.capture).toBe(btoa(String.fromCharCode(0x89, 0x50, 0x4e, 0x47)))
    // The realm's frame is gone with the run.
    expect(document.querySelectorAll('iframe[data-awb-realm="running"]')).toHaveLength(0)
  })

  it('turns an environment that fails to open into an error row and a failure, without saving anything', async () => {
    const { host, finished, saved } = fakeHost({ agent: { kind: 'idle', realm: await commands.awbTestRealmCode({ kind: 'built-in' }) } })
    const report = await runSample(host, { mujoco: await loadMujoco(), createRenderer: () => renderer, fetch: serving(undefined) })
    expect(report.failure).toMatch(/the environment failed to open: .*404/)
    expect(saved).toEqual([])
    expect(finished[0]).toMatchObject({ execution: { status: 'failed' }, archive: { status: 'not_saved' } })
    expect(report.response.row).toMatchObject({ status: 'error', SCD: null, PA: 0, SR: 0 })
    expect(document.querySelectorAll('iframe[data-awb-realm="running"]')).toHaveLength(0)
  })

  it('still exports and saves the world when the agent is unavailable or times out', async () => {
    const unavailable = fakeHost({ agent: { kind: 'unavailable', reason: 'no demonstration for b/s' } })
    const episode = await fixtureEpisode()
    const first = await runSample(unavailable.host, { mujoco: await loadMujoco(), createRenderer: () => renderer, fetch: serving(episode) })
    expect(first.failure).toMatch(/the agent failed: Error: no demonstration for b\/s/)
    expect(unavailable.finished[0]).toMatchObject({ execution: { status: 'failed' }, archive: { status: 'saved' } })

    const realm = await commands.awbTestRealmCode({ kind: 'api' })
    const slow = fakeHost({ timeoutMs: 50, agent: { kind: 'api', spec: { provider: 'openai', model: 'm', maxTurns: 5, maxOutputTokens: 10 }, realm } })
    const hanging = { send: () => new Promise<never>(() => {}) }
    const second = await runSample(slow.host, { mujoco: await loadMujoco(), createRenderer: () => renderer, fetch: serving(episode), modelTransport: hanging })
    expect(second.failure).toMatch(/the agent timed out/)
    expect(slow.finished[0]).toMatchObject({ execution: { status: 'timeout' }, archive: { status: 'saved' } })
  })

  it('fails a replay whose script has a bad line before its realm runs, and still saves the world', async () => {
    const { host, finished } = fakeHost({ agent: { kind: 'replay', source: 'demo.jsonl', script: '{"name":"get_scene"}\n{', realm: await commands.awbTestRealmCode({ kind: 'built-in' }) } })
    const report = await runSample(host, { mujoco: await loadMujoco(), createRenderer: () => renderer, fetch: serving(await fixtureEpisode()) })
    expect(report.failure).toMatch(/the agent failed: Error: demo\.jsonl line 2: not valid JSON/)
    expect(finished[0]).toMatchObject({ execution: { status: 'failed' }, archive: { status: 'saved' }, toolCalls: 0 })
  })
})
