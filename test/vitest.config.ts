import { resolve } from 'node:path'
import { playwright } from '@vitest/browser-playwright'
import { configDefaults, defineConfig } from 'vitest/config'
import { CHROMIUM_ARGS, findChromium } from '../src/shared/chromium.ts'
import { PREBUNDLED_DEPENDENCIES } from '../src/shared/prebundled-dependencies.ts'
import { awbTestRealmCode } from './browser/support/realm-commands.ts'
import { MODULE_MOCKING_UNIT_FILES } from './module-mocks.ts'
import { SlowestFirstSequencer } from './slowest-first.ts'

const chromium = findChromium()

// The project's own test suite (`npm test`): `unit` and `integration` run in Node, `browser` in headless Chromium
// through Playwright; `npm run test:unit` (unit and browser) is the inner loop. The benchmark itself (one project per
// block) is the root vitest.config.ts.
export default defineConfig({
  root: resolve(import.meta.dirname, '..'),
  optimizeDeps: { include: [...PREBUNDLED_DEPENDENCIES] },
  test: {
    // Two files at a time (Vitest takes one less than the cores, so one on CI's two): most integration files wait on
    // child runs and browsers, and the unit files fill those waits.
    maxWorkers: 2,
    env: {
      // Vite 8 loads a config by bundling it and, unless this is set, parses every module the bundle takes in to warn
      // about a future loader. The benchmark config of this checkout takes in the whole plugin source (a user's imports
      // it from node_modules, which is left out), so each child `vitest run` of the suite spent about 2 CPU-seconds on
      // that warning: a quarter of a small run.
      VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
    },
    // Each project's slowest files first (by a recorded CI run), so that no long file starts last and runs alone.
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...MODULE_MOCKING_UNIT_FILES],
          environment: 'node',
          testTimeout: 60_000,
          // Files share their worker's modules (a quarter of the lane's CPU time went to importing them afresh per
          // file); what a test stubs is put back after it, so that no file sees another's globals or variables.
          isolate: false,
          unstubGlobals: true,
          unstubEnvs: true,
        },
      },
      {
        extends: true,
        test: {
          // The unit files that replace modules (test/module-mocks.ts), each with a module registry of its own.
          name: 'unit-mocks',
          include: MODULE_MOCKING_UNIT_FILES,
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          // Integration files run their independent child runs at once (`describe.concurrent`): each mostly waits on
          // its browsers and agents, but with two files at a time, two each is what two cores carry without starving.
          maxConcurrency: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.browser.test.ts'],
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            instances: [{ browser: 'chromium' }],
            // Agent realm code bundled on the Node side, as a run bundles it (test/browser/support/realm-commands.ts).
            commands: { awbTestRealmCode },
            provider: playwright({
              launchOptions: {
                ...(chromium === undefined ? {} : { executablePath: chromium }),
                args: [...CHROMIUM_ARGS],
              },
            }),
          },
        },
      },
    ],
  },
})
