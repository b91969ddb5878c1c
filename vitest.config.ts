import { defineConfig } from 'vitest/config'
import { assemblyWorld } from './plugin/index.ts'

// The benchmark: one browser project per block of the package (default: the bundled fixtures/awb-mini),
// e.g. `npx vitest run --project ikea-manualbook`. Options can also come from AWB_* variables (README).
// The project's own test suite has its own config: test/vitest.config.ts (`npm test`).
export default defineConfig({
  plugins: [assemblyWorld()],
  test: {
    outputFile: { junit: 'test-results/junit.xml' },
  },
})
