// A page agent module that keeps its realm's thread busy for a while, then finishes (realm tests): whether the page
// runs meanwhile tells whether Chromium gave the realm a process of its own.
import { defineAgent } from '../../../../src/agents/index.ts'

const BUSY_MS = 1500

export default defineAgent({
  name: 'busy',
  async run() {
    console.log('busy: start')
    const until = Date.now() + BUSY_MS
    while (Date.now() < until) { /* busy, bounded */ }
    console.log('busy: end')
    return { finalAnswer: 'busy', usage: null, costUsd: null, model: null }
  },
})
