// A page agent that fails every sample with the message in VITE_AWB_FAIL_MESSAGE (the stop-rule tests): an agent
// crash is an infrastructure failure, and quota text in it stops the run at once.
import { defineAgent } from '../../../src/agents/index.ts'

export default defineAgent({
  name: 'failing',
  async run({ tools }) {
    await tools.call('list_objects', {})
    const message = (import.meta as unknown as { env: Record<string, string | undefined> }).env.VITE_AWB_FAIL_MESSAGE ?? 'the agent crashed'
    throw new Error(message)
  },
})
