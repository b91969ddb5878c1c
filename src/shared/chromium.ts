// Node only: finds the Chromium binary and the launch flags every browser run uses (toolchain.md §4).
import { accessSync, constants } from 'node:fs'

/**
 * One flag list for Vitest, Playwright and raw launches. WebGL2 runs on SwiftShader without GPU flags;
 * `--disable-software-rasterizer` would break it and `--use-angle=swiftshader` costs ~1 s per page.
 * `--site-per-process`: an agent's realm (a sandboxed frame, src/agents/realm) gets a renderer process of its own only
 * under site isolation, which the headless shell leaves off; without it a realm that spins freezes its whole page.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--site-per-process',
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

/**
 * What a browser is started for: `page`, every page (block pages, headless pages, the suite's), or `hardware-gpu`, the
 * GPU scoring page when it tries to reach a hardware GPU with one of CHROMIUM_GPU_ARG_SETS.
 */
export type ChromiumUse = 'page' | 'hardware-gpu'

/** Debian's headless shell (package chromium-headless-shell): the old headless mode, no browser UI. */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
const FULL_BROWSERS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable']

/**
 * Where each use looks, in order. Pages prefer the headless shell: a one-sample block run costs about 2.5 CPU-seconds
 * less with it than with the full browser in its headless mode (9.0 against 11.7, docs/development.md), and it renders
 * the same pixels (`awb fixtures` renders awb-mini's 30 reference pages byte-identical on both, and equal to the
 * committed ones). A hardware flag set prefers a full browser: those sets are written for the full browser's headless
 * mode, the one bench/gpu-bundle.sh packs for GPU machines.
 */
const CANDIDATES: Record<ChromiumUse, readonly string[]> = {
  'page': [HEADLESS_SHELL, ...FULL_BROWSERS],
  'hardware-gpu': [...FULL_BROWSERS, HEADLESS_SHELL],
}

/**
 * `AWB_CHROMIUM` when set (for every use), else the first executable candidate for `use`; undefined when none is
 * found. The one read of a user variable outside src/settings (which declares it): src/shared sits below
 * src/settings, and src/headless, which starts Chromium for the CLI, the scorer and the report, cannot reach the run's
 * settings either.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env, use: ChromiumUse = 'page'): string | undefined {
  const fromEnv = env.AWB_CHROMIUM
  const candidates = fromEnv === undefined || fromEnv === '' ? CANDIDATES[use] : [fromEnv]
  return candidates.find(isExecutable)
}

/** Whether `path` is a file this process may execute. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
