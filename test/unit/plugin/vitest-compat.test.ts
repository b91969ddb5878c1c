// Adapter selection and the startup report, without a Vitest run (the real runs are in
// test/integration/vitest-compat.test.ts, on each supported major).
import { describe, expect, it } from 'vitest'
import { adapterFor, describeCapabilities, SUPPORTED_VITEST, VitestCompatError } from '../../../plugin/vitest-compat/index.ts'

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
