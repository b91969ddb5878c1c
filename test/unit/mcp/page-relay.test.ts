// The browser relay: a page exposes its tools (exposeToolRelay) and Node reaches them through Playwright
// (createPageRelay), here behind the benchmark surface with a real MCP client.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { chromium, type Browser, type Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMcpSurface, createPageRelay, exposeToolRelay, PAGE_RELAY_GLOBAL } from '../../../src/mcp/index.ts'
import { CHROMIUM_ARGS, findChromium } from '../../../src/shared/chromium.ts'
import { connectInMemory, execute, firstText } from './mcp-fixture.ts'

const executablePath = findChromium()
let browser: Browser | undefined
let page: Page

beforeAll(async () => {
  if (executablePath === undefined) return
  browser = await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] })
  page = await browser.newPage()
})
afterAll(async () => {
  await browser?.close()
})

describe('exposeToolRelay', () => {
  it('exposes list and invoke of the source on the global until undone', async () => {
    const calls: unknown[] = []
    const undo = exposeToolRelay({
      listTools: () => [{ name: 'get_scene', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
      invokeTool: async (name, input) => { calls.push([name, input]); return '{"ok":true}' },
    })
    const relay = Reflect.get(globalThis, PAGE_RELAY_GLOBAL) as { listTools(): unknown, invokeTool(n: string, i: unknown): Promise<string> }
    expect(relay.listTools()).toEqual([{ name: 'get_scene', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }])
    expect(await relay.invokeTool('get_scene', { a: 1 })).toBe('{"ok":true}')
    expect(calls).toEqual([['get_scene', { a: 1 }]])
    undo()
    expect(Reflect.has(globalThis, PAGE_RELAY_GLOBAL)).toBe(false)
  })
})

describe.runIf(executablePath !== undefined)('createPageRelay over Playwright', () => {
  it('a page without the exposed relay answers status Error naming the fix', async () => {
    const client = await connectInMemory(createMcpSurface({ relay: createPageRelay({ target: page, page: { id: 1, url: 'about:blank', title: 'env' } }) }))
    const listed = await client.callTool({ name: 'list_webmcp_tools', arguments: { pageId: 1 } }) as CallToolResult
    expect(listed.isError).toBe(true)
    expect(firstText(listed)).toContain('call exposeToolRelay(registry)')
  })

  it('lists and invokes the page tools; images are promoted', async () => {
    await page.evaluate(([global]) => {
      Reflect.set(globalThis, global, {
        listTools: () => [{ name: 'capture_scene', description: 'Capture.', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } }],
        invokeTool: async (name: string, input: unknown) => JSON.stringify({ name, input, content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] }),
      })
    }, [PAGE_RELAY_GLOBAL] as const)
    const client = await connectInMemory(createMcpSurface({ relay: createPageRelay({ target: page, page: { id: 1, url: page.url(), title: 'env' } }) }))
    const listed = await client.callTool({ name: 'list_webmcp_tools', arguments: { pageId: 1 } }) as CallToolResult
    expect(firstText(listed)).toContain('name="capture_scene"')
    const { result, answer } = await execute(client, 'capture_scene', { x: 1 })
    expect(answer.status).toBe('Completed')
    expect(JSON.parse(answer.output!)).toEqual({ name: 'capture_scene', input: { x: 1 }, content: ['Image attached as MCP image content.'] })
    expect(result.content[1]).toEqual({ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' })
  })
})
