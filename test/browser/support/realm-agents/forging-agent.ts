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
    port.addEventListener('message', (event: MessageEvent<{ type: string; id: number }>) => {
      if (event.data.type === 'reply' && event.data.id >= 9000) replies.set(event.data.id, event.data)
    })
    port.postMessage({ type: 'request', id: 9001, request: { kind: 'record', entry: { type: 'event', event: 'forged' }, block: 'partnet-none', sampleId: '20545' } })
    port.postMessage({ type: 'request', id: 9002, request: { kind: 'model', request: { provider: 'openai', body: { model: 'gpt-x', messages: [] } } } })
    port.postMessage({ type: 'request', id: 9003, request: { kind: 'score' } })
    port.postMessage({ type: 'request', id: 9004, sampleId: 'other', request: { kind: 'tool', name: 'list_objects', input: {} } })
    await new Promise(resolve => setTimeout(resolve, 200))
    return { finalAnswer: JSON.stringify(Object.fromEntries(replies)), usage: null, costUsd: null, model: null }
  },
})
