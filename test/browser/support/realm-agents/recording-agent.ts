// A page agent module for the realm tests: logs, calls two tools and records one entry of its own.
import { defineAgent } from '../../../../src/agents/index.ts'

console.info('realm agent loaded', { at: 'top level' })

export default defineAgent({
  name: 'recording',
  async run({ prompt, pages, tools, record }) {
    console.log('realm agent running', prompt, pages.length, pages[0]?.bytes instanceof Uint8Array)
    const names = tools.list().map(tool => tool.name)
    const listed = await tools.call('list_objects', {})
    await tools.call('translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] })
    await record({ type: 'message', role: 'assistant', content: 'moved part-0001' })
    console.warn('realm agent done')
    return { finalAnswer: JSON.stringify({ status: 'completed', summary: listed.slice(0, 20), tools: names.length, checked_connections: [], uncertainties: [] }), usage: { input_tokens: 3 }, costUsd: 0.5, model: 'module-model' }
  },
})
