// A complete page agent: like the built-in agents, it runs in its own realm (a sandboxed frame) beside the sample's page.
// Run it with `AWB_AGENT=./examples/page-agent/agent.ts npx vitest run --project partnet-none`
// (or `assemblyWorld({ agent: './examples/page-agent/agent.ts' })`). Its tool calls are recorded for you.
import { defineAgent } from '../../src/agents/index.ts'

interface ObjectEntry { id: string }
interface ObjectState { id: string; position: [number, number, number] }

export default defineAgent({
  name: 'example-gather',
  async run({ prompt, pages, tools, signal }) {
    // prompt: the block's task and the protocol; pages: reference images ({page, mimeType, bytes}) when the block has them.
    console.info(`example agent: ${prompt.length} prompt characters, ${pages.length} reference pages, tools: ${tools.list().map(tool => tool.name).join(', ')}`)
    // Every answer is a JSON string; failures are {"error", "code"} envelopes, never exceptions.
    const { objects } = JSON.parse(await tools.call('list_objects', {})) as { objects: ObjectEntry[] }
    const states: ObjectState[] = []
    for (const object of objects) {
      signal.throwIfAborted() // the signal fires at the sample's time limit
      states.push(JSON.parse(await tools.call('get_object', { id: object.id })) as ObjectState)
    }
    // A naive strategy, to show an edit: bring every part halfway towards the first one.
    const [anchor] = states
    for (const state of states.slice(1)) {
      const delta = state.position.map((value, axis) => ((anchor?.position[axis] ?? 0) - value) / 2)
      await tools.call('translate_objects', { ids: [state.id], delta })
    }
    return {
      // The final answer ends with the protocol's JSON object.
      finalAnswer: JSON.stringify({ status: 'completed', summary: `moved ${states.length - 1} parts towards ${anchor?.id}`, checked_connections: [], uncertainties: ['a naive example'] }),
      usage: null,
      costUsd: null,
      model: null,
    }
  },
})
