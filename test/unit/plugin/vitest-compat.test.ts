// Adapter selection and the startup report, without a Vitest run (the real runs are in
// test/integration/vitest-compat.test.ts, on each supported major).
import { readdir, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { adapterFor, describeCapabilities, SUPPORTED_VITEST, VitestCompatError } from '../../../plugin/vitest-compat/index.ts'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')

describe('adapterFor', () => {
  it('picks one adapter per supported major', () => {
    expect(adapterFor('4.1.12').name).toBe('vitest-4.1')
    expect(adapterFor('4.1.20').name).toBe('vitest-4.1')
    expect(adapterFor('5.1.0').name).toBe('vitest-5')
    expect(adapterFor('5.9.3').name).toBe('vitest-5')
  })

  it.each(['4.0.18', '4.1.11', '4.2.0', '5.0.4', '6.0.0', 'beta'])('refuses Vitest %s, naming the supported range and what would not be applied', (version) => {
    const refusal = (() => {
      try {
        adapterFor(version)
      } catch (error) {
        return error
      }
      return undefined
    })()
    expect(refusal).toBeInstanceOf(VitestCompatError)
    expect((refusal as VitestCompatError).code).toBe('VITEST_UNSUPPORTED')
    expect((refusal as VitestCompatError).message).toContain(`supports Vitest ${SUPPORTED_VITEST}, and this is Vitest ${version}`)
    expect((refusal as VitestCompatError).message).toContain('integrity defences')
  })

  it('puts the browser API lock-down where each major reads it', () => {
    expect(adapterFor('4.1.12').apiLockdown(4321)).toEqual({ test: {}, browser: { api: { port: 4321, strictPort: false, allowWrite: false, allowExec: false } } })
    expect(adapterFor('5.1.2').apiLockdown(4321)).toEqual({ test: { api: { port: 4321, strictPort: false, allowWrite: false, allowExec: false } }, browser: {} })
  })

  it('gives a block\'s browser session and tester frame their start-up time where each major reads it', async () => {
    expect(adapterFor('4.1.12').startupPatience(180_000)).toEqual({ test: {}, browser: { connectTimeout: 180_000 } })
    expect(adapterFor('5.1.2').startupPatience(180_000)).toEqual({ test: { env: { VITEST_BROWSER_IFRAME_TIMEOUT: '180000' } }, browser: { connectTimeout: 180_000 } })
    // The installed Vitest's browser orchestrator reads the frame's limit from that variable (on 5; 4.1 has none).
    const installed = (JSON.parse(await readFile(join(ROOT, 'node_modules', 'vitest', 'package.json'), 'utf8')) as { version: string }).version
    const orchestrator = join(ROOT, 'node_modules', '@vitest', 'browser', 'dist', 'client', '__vitest_browser__')
    const scripts = await Promise.all((await readdir(orchestrator)).filter(name => name.startsWith('orchestrator')).map(name => readFile(join(orchestrator, name), 'utf8')))
    expect(scripts.some(script => script.includes('VITEST_BROWSER_IFRAME_TIMEOUT'))).toBe(installed.startsWith('5.'))
  })

  it('refuses the trace-artifact command only where it exists (Vitest 5)', () => {
    expect(adapterFor('5.1.2').hostFileCommands).toContain('__vitest_recordBrowserTrace')
    expect(adapterFor('4.1.12').hostFileCommands).not.toContain('__vitest_recordBrowserTrace')
  })
})

describe('describeCapabilities', () => {
  it('says when recovery, and with it the hung-page watch, is off and why', () => {
    const line = describeCapabilities({ adapter: adapterFor('5.1.2'), recoveryOff: 'Vitest 5.1.2 has no project._openBrowserPage' })
    expect(line).toContain('browser recovery off (Vitest 5.1.2 has no project._openBrowserPage)')
    expect(line).toContain('hung-page watch off')
  })
})
