// The rebuild of a lost sample's world from the calls Node recorded: exact for every agent kind's records, and
// `not_rebuilt` (never a guessed world) for a tampered or incomplete record.
import { describe, expect, it } from 'vitest'
import type { ConversationEntry } from '../../../src/agents/index.ts'
import { decodeEpisode, encodeEpisode, type Episode } from '../../../src/episode/index.ts'
import { rebuildWorld, REBUILT_CAPTURE_RENDERER, type RebuildDialect, type RebuildOutcome } from '../../../src/harness/node/rebuild-world.ts'
import { bytesToBase64 } from '../../../src/shared/base64.ts'
import { buildSetupEpisode, tinyPng } from '../../helpers/episode-fixture.ts'
import { conversationOf, historyOf, runApiAgent, runCliAgent, runPageAgent, stateBytes, type AgentCall, type LiveRun } from './live-world.ts'

const episode = buildSetupEpisode({ parts: 3 })
const PAGE: RebuildDialect = { kind: 'page' }
const RELAY_PAGE = { id: 1, url: 'awb://ikea-manualbook/Chair--fixture', title: 'ikea-manualbook / Chair/fixture' }

/** Edits, reads, a capture, an error and a refused name: every kind of call a page agent makes. */
const PAGE_CALLS: AgentCall[] = [
  { name: 'list_objects', arguments: {} },
  { name: 'translate_objects', arguments: { ids: ['part-0001'], delta: [0.25, -0.5, 0.125] } },
  { name: 'rotate_objects', arguments: { ids: ['part-0002', 'part-0003'], angles: [10, -35, 90] } },
  { name: 'group_objects', arguments: { ids: ['part-0001', 'part-0002'], name: 'Pair' } },
  { name: 'translate_objects', arguments: { ids: ['part-0001'], delta: [0, 0, 0.3], space: 'camera' } },
  { name: 'move_camera', arguments: { yaw: 20, pitch: -5, zoom: 0.8 } },
  { name: 'capture_scene' },
  { name: 'set_object_pose', arguments: { id: 'part-0003', position: [0.1, 0.2, 0.3], quaternion: [0, 0, 0, 0] } },
  { name: 'apply_force', arguments: { id: 'part-0001', force: [1, 0, 0] } },
  { name: 'set_object_pose', arguments: { id: 'part-0003', position: [0.1, 0.2, 0.3], quaternion: [0.5, 0.5, 0.5, 0.5] } },
  { name: 'get_state', arguments: {} },
]

async function rebuild(entries: readonly ConversationEntry[], dialect: RebuildDialect = PAGE): Promise<RebuildOutcome> {
  return rebuildWorld({ initialEpisode: await encodeEpisode(episode), initialSource: 'initial episode', conversation: conversationOf(entries), dialect })
}

/** The rebuilt episode, which must equal the live world's export in everything but times and the capture's renderer. */
async function expectExactRebuild(outcome: RebuildOutcome, live: LiveRun): Promise<Episode> {
  if (outcome.status !== 'rebuilt') throw new Error(`not rebuilt: ${outcome.reason}`)
  const rebuilt = await decodeEpisode(outcome.episode)
  const exported = live.runtime.exportEpisode()
  expect(stateBytes(rebuilt)).toEqual(stateBytes(exported))
  expect(Buffer.from(new Float64Array(rebuilt.states.at(-1)!.integration).buffer)).toEqual(Buffer.from(live.runtime.readState().buffer))
  expect(historyOf(rebuilt)).toEqual(historyOf(exported))
  expect(outcome.calls).toBe(exported.calls.length)
  return rebuilt
}

describe.concurrent('rebuildWorld from a complete record', () => {
  it('a page agent\'s record gives the live world exactly: every state bit for bit, every call and answer, the captured image', async () => {
    const live = await runPageAgent(episode, PAGE_CALLS)
    const outcome = await rebuild(live.entries)
    const rebuilt = await expectExactRebuild(outcome, live)
    // apply_force is not registered in benchmark episodes: the page's registry refused it, so the world never saw it.
    expect(outcome).toMatchObject({ status: 'rebuilt', toolCalls: 11, replayed: 10, calls: 10 })
    expect(rebuilt.calls.map(call => call.name)).not.toContain('apply_force')
    // The call rows carry the times Node recorded; the capture names where its image came from.
    expect(rebuilt.calls[0]!.timestamp).toBe('2026-01-01T00:00:01.000Z')
    expect(rebuilt.calls.find(call => call.name === 'capture_scene')!.producer.renderer).toBe(REBUILT_CAPTURE_RENDERER)
    expect(rebuilt.observations.size).toBe(1)
    live.runtime.dispose()
  })

  it('an API agent\'s record: calls its loop answered itself (arguments that are not JSON, a tool it was not offered) are not replayed', async () => {
    const live = await runApiAgent(episode, [
      { name: 'translate_objects', arguments: '{"ids": ["part-0001"], "delta": [1, 0' },
      { name: 'weld_parts', arguments: { ids: ['part-0001'] } },
      { name: 'translate_objects', arguments: '{"ids": ["part-0001"]}' },
      { name: 'translate_objects', arguments: { ids: ['part-0001'], delta: [0.5, 0, 0] } },
      { name: 'get_object', arguments: { id: 'part-0001' } },
    ])
    const outcome = await rebuild(live.entries, { kind: 'api' })
    await expectExactRebuild(outcome, live)
    // The JSON string of arguments reached the world (an error there); the raw text and the invented tool did not.
    expect(outcome).toMatchObject({ status: 'rebuilt', toolCalls: 5, replayed: 3 })
    live.runtime.dispose()
  })

  it('a CLI agent\'s MCP record (benchmark surface) is replayed through the same surface over the rebuilt world', async () => {
    const execute = (toolName: string, input: unknown) => ({ name: 'execute_webmcp_tool', arguments: { pageId: 1, toolName, input: JSON.stringify(input) } })
    const live = await runCliAgent(episode, RELAY_PAGE, [
      { name: 'list_pages', arguments: {} },
      { name: 'list_webmcp_tools', arguments: { pageId: 1 } },
      execute('translate_objects', { ids: ['part-0002'], delta: [0.1, 0.2, 0.3] }),
      execute('capture_scene', {}),
      { name: 'execute_webmcp_tool', arguments: { pageId: 2, toolName: 'get_state' } },
      execute('rotate_objects', { ids: ['part-0002'], angles: [0, 0, 45] }),
      execute('get_state', {}),
    ])
    const outcome = await rebuild(live.entries, { kind: 'mcp', surface: 'benchmark', page: RELAY_PAGE, referencePages: [] })
    await expectExactRebuild(outcome, live)
    // Listing and the call naming another page never reached the world, in the replay as live; their answers matched.
    expect(outcome).toMatchObject({ status: 'rebuilt', toolCalls: 7, replayed: 4 })
    live.runtime.dispose()
  })
})

describe.concurrent('rebuildWorld refuses what it would have to guess', () => {
  const notRebuilt = async (entries: readonly ConversationEntry[], reason: RegExp, dialect: RebuildDialect = PAGE) => {
    const outcome = await rebuild(entries, dialect)
    expect(outcome.status).toBe('not_rebuilt')
    expect(outcome.status === 'not_rebuilt' ? outcome.reason : '').toMatch(reason)
    expect(outcome).not.toHaveProperty('episode')
  }
  const callIndex = (entries: readonly ConversationEntry[], name: string, nth = 0) => entries.flatMap((entry, i) => entry.type === 'tool_call' && entry.name === name ? [i] : [])[nth]!

  it('a changed argument: the world it gives is not the one the later answers saw', async () => {
    const live = await runPageAgent(episode, PAGE_CALLS)
    const entries = structuredClone(live.entries)
    const at = callIndex(entries, 'translate_objects')
    entries[at] = { ...entries[at]!, arguments: { ids: ['part-0001'], delta: [0.25, -0.5, 0.5] } } as ConversationEntry
    // Its own answer ("completed", state 1) still matches; the next answer that shows the world does not.
    await notRebuilt(entries, /line \d+: the recorded result of call "call-11" \(get_state\) differs from its replay/)
    live.runtime.dispose()
  })

  it('a changed result, and a result of the wrong shape', async () => {
    const live = await runPageAgent(episode, PAGE_CALLS)
    const changed = structuredClone(live.entries)
    const at = callIndex(changed, 'rotate_objects') + 1
    changed[at] = { type: 'tool_result', id: 'call-3', result: '{"status":"completed","physics":"disabled","index":7}' }
    await notRebuilt(changed, /the recorded result of call "call-3" \(rotate_objects\) differs from its replay: recorded \{"status":"completed","physics":"disabled","index":7\}, replayed \{"status":"completed","physics":"disabled","index":2\}/)
    const parsed = structuredClone(live.entries)
    parsed[at] = { type: 'tool_result', id: 'call-3', result: JSON.parse((parsed[at] as { result: string }).result) as unknown }
    await notRebuilt(parsed, /call "call-3" \(rotate_objects\) differs from its replay/)
    live.runtime.dispose()
  })

  it('a capture whose recorded image is gone or is no PNG', async () => {
    const live = await runPageAgent(episode, PAGE_CALLS)
    const at = callIndex(live.entries, 'capture_scene') + 1
    const answer = JSON.parse((live.entries[at] as { result: string }).result) as { content: [{ data: string }] }
    for (const data of [bytesToBase64(new TextEncoder().encode('not a png at all, but long enough')), undefined]) {
      const entries = structuredClone(live.entries)
      const content = data === undefined ? [] : [{ ...answer.content[0], data }]
      entries[at] = { type: 'tool_result', id: 'call-7', result: JSON.stringify({ ...answer, content }) }
      await notRebuilt(entries, /call "call-7" \(capture_scene\) differs from its replay: .*replayed \{"error":"(the recorded capture is not a PNG|the record holds no image for this capture)"/)
    }
    // A different PNG than the page rendered is the page's image too: its bytes are taken, never compared.
    const other = structuredClone(live.entries)
    other[at] = { type: 'tool_result', id: 'call-7', result: JSON.stringify({ ...answer, content: [{ ...answer.content[0], data: bytesToBase64(tinyPng(99)) }] }) }
    expect(await rebuild(other)).toMatchObject({ status: 'rebuilt' })
    live.runtime.dispose()
  })

  it('a call without its result, a missing call, a result that answers no call, overlapping calls, a torn line', async () => {
    const live = await runPageAgent(episode, PAGE_CALLS)
    const { entries } = live
    const last = entries.length - 1
    // The last call's result never reached Node (the page died during it).
    await notRebuilt(entries.slice(0, last), /line \d+: call "call-11" \(get_state\) has no recorded result/)
    // A call in the middle is missing (with its result): the next edit's answer names another state.
    const rotate = callIndex(entries, 'rotate_objects')
    await notRebuilt([...entries.slice(0, rotate), ...entries.slice(rotate + 2)], /call "call-4" \(group_objects\) differs from its replay/)
    // Only its call is missing: its result answers nothing.
    await notRebuilt([...entries.slice(0, rotate), ...entries.slice(rotate + 1)], /the tool_result of "call-3" answers no open call: a call the record lacks/)
    // Two calls open at once: their order in the world is unknown.
    const translate = callIndex(entries, 'translate_objects')
    const overlapping = [...entries.slice(0, translate + 1), entries[rotate]!, entries[translate + 1]!, ...entries.slice(rotate + 1)]
    await notRebuilt(overlapping, /call "call-3" \(rotate_objects\) started before call "call-2" \(translate_objects, line \d+\) was answered/)
    const torn = conversationOf(entries).replace(/\n(\{[^\n]*"type":"tool_result"[^\n]*)\n/, (_all, line: string) => `\n${line.slice(0, 40)}\n`)
    const outcome = await rebuildWorld({ initialEpisode: await encodeEpisode(episode), initialSource: 'initial episode', conversation: torn, dialect: PAGE })
    expect(outcome).toMatchObject({ status: 'not_rebuilt', reason: expect.stringMatching(/line \d+ is not JSON/) })
    live.runtime.dispose()
  })

  it('an API agent\'s call of a registered tool without its result, and a record with no call at all', async () => {
    const live = await runApiAgent(episode, [{ name: 'translate_objects', arguments: { ids: ['part-0001'], delta: [0.5, 0, 0] } }])
    await notRebuilt(live.entries.filter(entry => entry.type !== 'tool_result'), /call "toolu_0" \(translate_objects\) has no recorded result/, { kind: 'api' })
    await notRebuilt(live.entries.filter(entry => entry.type === 'message'), /no tool call was recorded/, { kind: 'api' })
    live.runtime.dispose()
  })

  it('a CLI agent\'s record whose page answered for another page (a relay failure), or that another surface made', async () => {
    const execute = { name: 'execute_webmcp_tool', arguments: { pageId: 1, toolName: 'translate_objects', input: JSON.stringify({ ids: ['part-0001'], delta: [0.5, 0, 0] }) } }
    const live = await runCliAgent(episode, RELAY_PAGE, [execute, execute])
    const dialect: RebuildDialect = { kind: 'mcp', surface: 'benchmark', page: RELAY_PAGE, referencePages: [] }
    // The page died during the second call: the relay answered with its failure, which the world never saw.
    const failed = structuredClone(live.entries)
    failed[3] = { type: 'tool_result', id: 'call-2', result: { content: [{ type: 'text', text: JSON.stringify({ status: 'Error', output: null, errorText: 'the environment page failed during invokeTool: Target page, context or browser has been closed' }, null, 2) }] } }
    await notRebuilt(failed, /call "call-2" \(execute_webmcp_tool\) differs from its replay/, dialect)
    await notRebuilt(live.entries, /differs from its replay/, { ...dialect, surface: 'direct' })
    live.runtime.dispose()
  })

  it('an initial episode that cannot be opened', async () => {
    const outcome = await rebuildWorld({ initialEpisode: new Uint8Array([1, 2, 3]), initialSource: 'initial episode', conversation: '', dialect: PAGE })
    expect(outcome).toMatchObject({ status: 'not_rebuilt', reason: expect.stringMatching(/^the initial episode could not be opened: /) })
  })
})
