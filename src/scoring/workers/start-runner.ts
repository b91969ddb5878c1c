// Worker-thread entry: builds chunks of a sample's cells (phase 1 of the `cells` kernel) and runs ICP starts claimed
// from a shared counter (phase 2); no winner choice. One IcpContext per sample, kept between the two phases.
import { parentPort } from 'node:worker_threads'
import { WasmCellBuilder } from '../cells-wasm.ts'
import { IcpContext, type StartResult } from '../icp.ts'
import { CELL_CHUNK_POINTS, buildCellChunk, sharedToCells, type CellChunk } from './cell-chunks.ts'
import type { CellsJob, StartsJob, WorkerJob, WorkerReply } from './worker-messages.ts'

const port = parentPort
if (port === null) throw new Error('start-runner.ts must run as a worker thread')

/** The context of the sample in progress (trees are built once per sample in each worker). */
let current: { id: number; context: IcpContext } | undefined

function contextFor(job: WorkerJob, kernel: StartsJob['kernel']): IcpContext {
  if (current?.id !== job.id) current = { id: job.id, context: new IcpContext(job.prediction, job.target, kernel) }
  return current.context
}

function buildCells(job: CellsJob): CellChunk[] {
  const context = contextFor(job, 'cells')
  const n = context.size
  const chunk = job.chunk > 0 ? job.chunk : CELL_CHUNK_POINTS
  const perCloud = Math.ceil(n / chunk)
  const builders = [new WasmCellBuilder(context.treeP), new WasmCellBuilder(context.treeT)]
  const chunks: CellChunk[] = []
  for (;;) {
    const c = Atomics.add(job.counter, 0, 1)
    if (c >= (job.predictionOnly === true ? 1 : 2) * perCloud) break
    const cloud = c < perCloud ? 0 : 1
    const lo = (c % perCloud) * chunk
    chunks.push(buildCellChunk(builders[cloud]!, cloud, lo, Math.min(n, lo + chunk)))
  }
  return chunks
}

function runStarts(job: StartsJob): { index: number; result: StartResult }[] {
  // Claiming order cannot change results: starts are independent (a reused trajectory is the start's own, bit for
  // bit: IcpContext.runStart), and cells only change speed.
  const context = contextFor(job, job.kernel)
  if (job.cells !== undefined) context.useCells([sharedToCells(context.treeP, job.cells[0]), sharedToCells(context.treeT, job.cells[1])])
  const results: { index: number; result: StartResult }[] = []
  for (;;) {
    const claim = Atomics.add(job.counter, 0, 1)
    if (claim >= job.claims.length) break
    for (const index of job.claims[claim]!) results.push({ index, result: context.runStart(job.starts[index]!) })
  }
  current = undefined
  return results
}

port.on('message', (job: WorkerJob) => {
  let reply: WorkerReply
  const transfer: ArrayBuffer[] = []
  try {
    if (job.kind === 'cells') {
      const chunks = buildCells(job)
      for (const c of chunks) transfer.push(c.counts.buffer as ArrayBuffer, c.nbr.buffer as ArrayBuffer)
      reply = { id: job.id, kind: 'cells', chunks }
    } else {
      reply = { id: job.id, kind: 'starts', results: runStarts(job) }
    }
  } catch (error) {
    current = undefined
    reply = { id: job.id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }
  }
  port.postMessage(reply, transfer)
})
