// The examples users copy, in real runs of one sample beside the do-nothing agent: README's page agent
// (examples/page-agent, bundled by path into its realm) and the Node program (examples/external-agent/agent.mjs, run
// in the sandbox over MCP). Each perceives the scene in captures and gathers the parts, and must score better than
// `idle` on the sample. Three child runs (idle, page, Node), all at once; the Python twin runs in external-agent.test.ts.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runBenchmark } from '../helpers/run-benchmark.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BLOCK = 'partnet-none'
const SAMPLE = '44266'
const PAGE_EXAMPLE = './examples/page-agent/agent.ts'
const NODE_EXAMPLE = JSON.stringify({ command: [process.execPath, 'examples/external-agent/agent.mjs'] })

interface SampleRun {
  code: number
  output: string
  sampleDir: string
  /** The sample's metrics.jsonl row. */
  row: { status: string; SCD: number; PA: number; tool_calls: number }
}

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map(folder => rm(folder, { recursive: true, force: true })))
})

/** One child run of the sample per agent, started by the first test that needs it and shared by the others. */
const started = new Map<string, Promise<SampleRun>>()
function runSample(agent: string): Promise<SampleRun> {
  let run = started.get(agent)
  if (run === undefined) {
    run = (async () => {
      const runs = await mkdtemp(join(tmpdir(), 'awb-examples-'))
      folders.push(runs)
      const { code, output } = await runBenchmark(['--project', BLOCK, '-t', SAMPLE], { AWB_AGENT: agent, AWB_RUNS: runs })
      const [runId] = await readdir(runs)
      if (runId === undefined) return { code, output, sampleDir: '', row: { status: 'missing', SCD: NaN, PA: NaN, tool_calls: 0 } }
      const [row] = (await readFile(join(runs, runId, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as SampleRun['row'])
      return { code, output, sampleDir: join(runs, runId, 'blocks', BLOCK, 'samples', SAMPLE), row: row! }
    })()
    started.set(agent, run)
  }
  return run
}

async function toolCalls(sampleDir: string): Promise<{ calls: string[]; results: number }> {
  const conversation = (await readFile(join(sampleDir, 'conversation.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { type: string; name?: string })
  return { calls: conversation.filter(entry => entry.type === 'tool_call').map(entry => entry.name!), results: conversation.filter(entry => entry.type === 'tool_result').length }
}

describe.concurrent('the examples', () => {
  it('the page agent runs as AWB_AGENT=./examples/page-agent/agent.ts: every tool call recorded, the sample scored', async () => {
    const { code, output, sampleDir, row } = await runSample(PAGE_EXAMPLE)
    expect(code, output).toBe(0)
    // Logged in its realm (a sandboxed frame), printed by the harness in the tester page, collected by Vitest.
    expect(output).toMatch(/example agent: \d+ prompt characters, 0 reference pages, tools: list_objects, /)
    const { calls, results } = await toolCalls(sampleDir)
    expect(calls.slice(0, 3)).toEqual(['list_objects', 'move_camera', 'capture_scene'])
    expect(calls.at(-1)).toBe('translate_objects')
    expect(results).toBe(calls.length)
    const result = JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8')) as Record<string, unknown>
    expect(result).toMatchObject({ status: 'completed', tool_calls: calls.length, agent_outcome: { status: 'partial', summary: expect.stringMatching(/^found 6 of 6 parts/) as unknown } })
    expect(row).toMatchObject({ status: 'scored', tool_calls: calls.length })
  }, 300_000)

  it('the Node program runs as AWB_AGENT={"command": [node, "examples/external-agent/agent.mjs"]} over MCP, in the sandbox', async () => {
    const { code, output, sampleDir, row } = await runSample(NODE_EXAMPLE)
    expect(code, output).toBe(0)
    const result = JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8')) as Record<string, unknown>
    expect(result, output).toMatchObject({
      status: 'completed', agent_outcome: { status: 'partial', summary: expect.stringMatching(/^Found 6 of 6 parts/) as unknown },
      execution: { status: 'completed', exit_code: 0, error: null, infrastructure_error: null },
    })
    const { calls } = await toolCalls(sampleDir)
    expect(calls[0]).toBe('list_pages')
    expect(new Set(calls.slice(1))).toEqual(new Set(['execute_webmcp_tool']))
    expect(row).toMatchObject({ status: 'scored', tool_calls: calls.length })
  }, 300_000)

  it('both score better than the do-nothing agent on the sample (lower SCD)', async () => {
    const [idle, page, node] = await Promise.all([runSample('idle'), runSample(PAGE_EXAMPLE), runSample(NODE_EXAMPLE)])
    expect(idle.row.status, idle.output).toBe('scored')
    expect(page.row.SCD, page.output).toBeLessThan(idle.row.SCD)
    expect(node.row.SCD, node.output).toBeLessThan(idle.row.SCD)
  }, 300_000)
})

describe('README', () => {
  it('shows lines of the page agent example as they are in the file', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
    const snippet = /```ts\n(\/\/ examples\/page-agent\/agent\.ts[^\n]*\n[\s\S]*?)```/.exec(readme)?.[1]
    expect(snippet, 'README.md has no ```ts block starting with // examples/page-agent/agent.ts').toBeDefined()
    const example = await readFile(join(ROOT, 'examples', 'page-agent', 'agent.ts'), 'utf8')
    // Every line but the block's first (where it comes from) and elisions (`// …`) is a line of the file.
    const lines = snippet!.split('\n').slice(1).filter(line => line.trim() !== '' && !/^\s*\/\/ …/.test(line))
    expect(lines.filter(line => !example.split('\n').includes(line))).toEqual([])
  })
})
