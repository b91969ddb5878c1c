// A page agent module that takes its realm's port (by wrapping MessagePort.prototype.postMessage) and sends it
// messages the harness must refuse: a record naming another sample, a model request, malformed requests.
import { defineAgent } from '../../../../src/agents/index.ts'

export default defineAgent({
  name: 'forging',
  async run({ tools }) {
    let captured: MessagePort | undefined
    const original = MessagePort.prototype.postMessage
    MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown) {
      captured ??= this
      original.call(this, message)
    }
    await tools.call('list_objects', {})
    MessagePort.prototype.postMessage = original
    const port = captured!
    const replies = new Map<number, unknown>()
    // The harness answers every request that carries an id, refusals included: wait for the four answers, not a time.
    let answered!: () => void
    const allAnswered = new Promise<void>(resolve => { answered = resolve })
    port.addEventListener('message', (event: MessageEvent<{ type: string; id: number }>) => {
      if (event.data.type === 'reply' && event.data.id >= 9000) replies.set(event.data.id, event.data)
      if (replies.size === 4) answered()
    })
    port.postMessage({ type: 'request', id: 9001, request: { kind: 'record', entry: { type: 'event', event: 'forged' }, block: 'partnet-none', sampleId: '20545' } })
    port.postMessage({ type: 'request', id: 9002, request: { kind: 'model', request: { provider: 'openai', body: { model: 'gpt-x', messages: [] } } } })
    port.postMessage({ type: 'request', id: 9003, request: { kind: 'score' } })
    port.postMessage({ type: 'request', id: 9004, sampleId: 'other', request: { kind: 'tool', name: 'list_objects', input: {} } })
    await allAnswered
    return { finalAnswer: JSON.stringify(Object.fromEntries(replies)), usage: null, costUsd: null, model: null }
  },
})
