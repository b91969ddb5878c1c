// A page agent module that throws while it is evaluated (realm tests).
import { defineAgent } from '../../../../src/agents/index.ts'

throw new Error('broken at load')

export default defineAgent({ name: 'never', run: async () => ({ finalAnswer: null, usage: null, costUsd: null, model: null }) })
