// A page agent module that looks for a way out of its realm and reports what each attempt got (realm tests).
import { defineAgent } from '../../../../src/agents/index.ts'

async function attempt(run: () => unknown): Promise<string> {
  try {
    const value = await run()
    return `value: ${typeof value === 'string' ? value : JSON.stringify(value) ?? String(value)}`.slice(0, 200)
  } catch (error) {
    return `error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`.slice(0, 200)
  }
}

export default defineAgent({
  name: 'isolation-probe',
  async run() {
    const global = globalThis as Record<string, unknown>
    const specifier = 'vitest/browser'
    const findings: Record<string, string> = {
      origin: String(self.origin),
      vitestGlobals: Object.keys(global).filter(key => key.startsWith('__vitest') || key === 'commands').join(','),
      parentDocument: await attempt(() => (parent as unknown as { document: Document }).document.title),
      parentGlobals: await attempt(() => (parent as unknown as Record<string, unknown>).__vitest_worker__),
      parentLocation: await attempt(() => parent.location.href),
      topVitest: await attempt(() => (top as unknown as Record<string, unknown>).__vitest_browser_runner__),
      frameElement: await attempt(() => String(frameElement)),
      importVitest: await attempt(() => import(/* @vite-ignore */ specifier)),
      cookie: await attempt(() => document.cookie),
      localStorage: await attempt(() => localStorage.length),
      sameOriginFetch: await attempt(async () => (await fetch(`${location.ancestorOrigins[0] ?? ''}/package.json`)).status),
      scriptFromServer: await attempt(() => new Promise((resolve, reject) => {
        const script = document.createElement('script')
        script.src = `${location.ancestorOrigins[0] ?? ''}/src/agents/prompt.ts`
        script.onload = () => resolve('loaded')
        script.onerror = () => reject(new Error('refused'))
        document.head.append(script)
      })),
      referrer: document.referrer,
      // A worker's importScripts loads a classic script, which CORS does not stop: a way to run the server's files.
      workerImportScripts: await attempt(() => new Promise((resolve, reject) => {
        const source = `try { importScripts(${JSON.stringify(`${location.ancestorOrigins[0] ?? ''}/src/agents/prompt.ts`)}); postMessage('loaded') } catch (error) { postMessage('error: ' + error.name) }`
        const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })))
        worker.onmessage = event => { worker.terminate(); resolve(event.data) }
        worker.onerror = event => { event.preventDefault(); worker.terminate(); reject(new Error(`worker refused: ${event.message}`)) }
      })),
      // A worker started straight from the server.
      workerFromServer: await attempt(() => new Promise((resolve, reject) => {
        const worker = new Worker(`${location.ancestorOrigins[0] ?? ''}/src/agents/prompt.ts`)
        worker.onmessage = () => resolve('ran')
        worker.onerror = event => { event.preventDefault(); reject(new Error('refused')) }
      })),
    }
    return { finalAnswer: JSON.stringify(findings), usage: null, costUsd: null, model: null }
  },
})
