// A page agent that takes its time (the dead-browser and Ctrl-C tests): one call, then it waits until the test's
// release barrier answers (VITE_AWB_RELEASE_URL, test/helpers/release-barrier.ts), or VITE_AWB_SLOW_MS milliseconds
// without one; its time limit or a stop ends the wait either way.
import { defineAgent } from '../../../src/agents/index.ts'

export default defineAgent({
  name: 'slow',
  async run({ tools, signal }) {
    await tools.call('translate_objects', { ids: ['part-0001'], delta: [0.01, 0, 0] })
    const env = (import.meta as unknown as { env: Record<string, string | undefined> }).env
    const release = env.VITE_AWB_RELEASE_URL
    if (release !== undefined) {
      await fetch(`${release}/wait`, { signal }).then(response => response.text(), () => undefined)
    } else {
      const ms = Number(env.VITE_AWB_SLOW_MS ?? '20000')
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms)
        signal.addEventListener('abort', () => { clearTimeout(timer); resolve() }, { once: true })
      })
    }
    return { finalAnswer: JSON.stringify({ status: 'completed', summary: 'waited', checked_connections: [], uncertainties: [] }), usage: null, costUsd: null, model: null }
  },
})
