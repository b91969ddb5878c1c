// A page agent that never yields on one sample: when the scene has VITE_AWB_SPIN_PARTS parts it spins on the page's
// main thread (a bug or a hostile agent), so nothing in that page, its time limit included, runs again. On every
// other sample it stops at once.
import { defineAgent } from '../../../src/agents/index.ts'

export default defineAgent({
  name: 'spinning',
  async run({ tools }) {
    const listed = JSON.parse(await tools.call('list_objects', {})) as { objects: unknown[] }
    const spinParts = Number((import.meta as unknown as { env: Record<string, string | undefined> }).env.VITE_AWB_SPIN_PARTS ?? '0')
    if (listed.objects.length === spinParts) for (;;) { /* never yields */ }
    return { finalAnswer: JSON.stringify({ status: 'partial', summary: 'left the parts as they were', checked_connections: [], uncertainties: [] }), usage: null, costUsd: null, model: null }
  },
})
