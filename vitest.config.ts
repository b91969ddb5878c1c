import { defineConfig } from 'vitest/config'
import { assemblyWorld } from './plugin/index.ts'
import selfTests from './test/vitest.config.ts'

// The benchmark: one browser project per block of the package (default: the bundled fixtures/awb-mini),
// e.g. `npx vitest run --project ikea-manualbook`. Options can also come from AWB_* variables (README).
// TODO(#6): the project's own projects (unit, browser) are listed here too only while parallel work still
// runs `--project unit` against this file; `npm test` uses test/vitest.config.ts.
export default defineConfig({
  plugins: [assemblyWorld()],
  optimizeDeps: selfTests.optimizeDeps,
  test: {
    outputFile: { junit: 'test-results/junit.xml' },
    projects: selfTests.test?.projects,
  },
})
