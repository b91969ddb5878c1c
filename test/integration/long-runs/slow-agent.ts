// A page agent that takes its time (the dead-browser and Ctrl-C tests): one call, then it waits for the time
// limit or VITE_AWB_SLOW_MS milliseconds, whichever comes first.
import { defineAgent } from '../../../src/agents/index.ts'

export default defineAgent({
  name: 'slow',
  async run({ tools, signal }) {
    await tools.call('translate_objects', { ids: ['part-0001'], delta: [0.01, 0, 0] })
    const ms = Number((import.meta as unknown as { env: Record<string, string | undefined> }).env.VITE_AWB_SLOW_MS ?? '20000')
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      signal.addEventListener('abort', () => { clearTimeout(timer); resolve() }, { once: true })
    })
    return { finalAnswer: JSON.stringify({ status: 'completed', summary: 'waited', checked_connections: [], uncertainties: [] }), usage: null, costUsd: null, model: null }
  },
})
