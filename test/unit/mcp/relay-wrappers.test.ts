// The deferred relay (`awb mcp` answers before its browser is up) and the saving relay (a save after every call,
// before its answer), over a scripted relay.
import { describe, expect, it } from 'vitest'
import { BENCHMARK_TOOL_NAMES, createDeferredRelay, createMcpSurface, DEFAULT_RELAY_PAGE, saveAfterEachCall, type ToolRelay } from '../../../src/mcp/index.ts'
import { connectInMemory, execute } from './mcp-fixture.ts'

function scriptedRelay(log: string[]): ToolRelay {
  return {
    page: { id: 7, url: 'awb://late', title: 'late' },
    referencePages: [],
    listTools: async () => [{ name: 'get_scene', description: 'scene', inputSchema: { type: 'object' } }],
    callTool: async name => {
      log.push(`call ${name}`)
      if (name === 'explode') throw new Error('page crashed')
      return '{"ok":true}'
    },
  }
}

describe('deferred relay', () => {
  it('lists the benchmark tools before the environment exists; a call waits for it', async () => {
    let open: ((relay: ToolRelay) => void) | undefined
    const ready = new Promise<ToolRelay>(resolve => { open = resolve })
    const log: string[] = []
    const relay = createDeferredRelay({ page: DEFAULT_RELAY_PAGE, referencePages: [], ready })
    const client = await connectInMemory(createMcpSurface({ relay }))
    expect((await client.listTools()).tools.map(tool => tool.name)).toEqual([...BENCHMARK_TOOL_NAMES])
    const pending = execute(client, 'get_scene')
    await Promise.resolve()
    expect(log).toEqual([])
    open!(scriptedRelay(log))
    expect((await pending).answer).toEqual({ status: 'Completed', output: '{"ok":true}', errorText: null })
    // The page entry is the one given up front, not the late relay's.
    expect(relay.page).toBe(DEFAULT_RELAY_PAGE)
  })

  it('a failed start fails each call with its message', async () => {
    const relay = createDeferredRelay({ page: DEFAULT_RELAY_PAGE, referencePages: [], ready: Promise.reject(new Error('Chromium did not start')) })
    await expect(relay.listTools()).rejects.toThrow('Chromium did not start')
  })
})

describe('saving relay', () => {
  it('saves after every call, failed ones too, before the answer; a failed save is reported, not thrown', async () => {
    const log: string[] = []
    const errors: unknown[] = []
    let saves = 0
    const relay = saveAfterEachCall({
      relay: scriptedRelay(log),
      save: async () => {
        saves++
        log.push(`save ${saves}`)
        if (saves === 2) throw new Error('disk full')
      },
      onSaveError: error => errors.push(error),
    })
    const signal = new AbortController().signal
    expect(await relay.callTool('get_scene', {}, { signal })).toBe('{"ok":true}')
    await expect(relay.callTool('explode', {}, { signal })).rejects.toThrow('page crashed')
    expect(await relay.callTool('get_scene', {}, { signal })).toBe('{"ok":true}')
    expect(log).toEqual(['call get_scene', 'save 1', 'call explode', 'save 2', 'call get_scene', 'save 3'])
    expect(errors).toEqual([new Error('disk full')])
  })
})
