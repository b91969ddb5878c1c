// A page agent module that never yields (realm tests): its realm's frame, not the harness, spins.
import { defineAgent } from '../../../../src/agents/index.ts'

export default defineAgent({
  name: 'spinning',
  async run({ tools }) {
    await tools.call('list_objects', {})
    for (;;) { /* never yields */ }
  },
})
