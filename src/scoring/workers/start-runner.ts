// Worker-thread entry: runs ICP starts claimed from a shared counter (one IcpContext per job); no winner choice.
import { parentPort } from 'node:worker_threads'
import { IcpContext, type StartResult } from '../icp.ts'
import type { StartsJob, StartsReply } from './protocol.ts'

const port = parentPort
if (port === null) throw new Error('start-runner.ts must run as a worker thread')

port.on('message', (job: StartsJob) => {
  let reply: StartsReply
  try {
    // Trees are built once per sample in each worker; starts are independent, so claiming order cannot change results.
    const context = new IcpContext(job.prediction, job.target)
    const results: { index: number; result: StartResult }[] = []
    for (;;) {
      const index = Atomics.add(job.counter, 0, 1)
      if (index >= job.starts.length) break
      results.push({ index, result: context.runStart(job.starts[index]!) })
    }
    reply = { id: job.id, results }
  } catch (error) {
    reply = { id: job.id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }
  }
  port.postMessage(reply)
})
