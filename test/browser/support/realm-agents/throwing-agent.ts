// A page agent module whose run throws (realm tests): the failure keeps its name and message.
import { defineAgent } from '../../../../src/agents/index.ts'

export default defineAgent({
  name: 'throwing',
  async run() {
    throw new TypeError('the agent tripped')
  },
})
