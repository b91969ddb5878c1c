// Node only: finds the Chromium binary and the launch flags every browser run uses (toolchain.md §4).
import { accessSync, constants } from 'node:fs'

/**
 * One flag list for Vitest, Playwright and raw launches. WebGL2 runs on SwiftShader without GPU flags;
 * `--disable-software-rasterizer` would break it and `--use-angle=swiftshader` costs ~1 s per page.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--enable-unsafe-swiftshader',
]

/**
 * Extra flags for a page that should run WebGL2 on a hardware GPU (the GPU scoring page only), one set per try: headless
 * Chromium keeps the GPU blocklisted and may pick SwiftShader otherwise. The first set that yields a hardware
 * renderer string wins (src/scoring/gpu/detect.ts); none of them hurts where there is no GPU (SwiftShader stays).
 */
export const CHROMIUM_GPU_ARG_SETS: readonly (readonly string[])[] = [
  ['--ignore-gpu-blocklist', '--enable-gpu', '--use-angle=vulkan', '--enable-features=Vulkan', '--disable-vulkan-surface'],
  ['--ignore-gpu-blocklist', '--enable-gpu', '--use-gl=angle', '--use-angle=gl-egl'],
]

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable']

/**
 * `AWB_CHROMIUM` when set, else the first executable candidate; undefined when none is found. The one read of a user
 * variable outside src/settings (which declares it): src/shared sits below src/settings, and src/headless, which
 * starts Chromium for the CLI, the scorer and the report, cannot reach the run's settings either.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env.AWB_CHROMIUM
  const candidates = fromEnv === undefined || fromEnv === '' ? CANDIDATES : [fromEnv]
  return candidates.find(isExecutable)
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
