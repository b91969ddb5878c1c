// The reference-page renderer's page: parses each request and draws it with one drawer for the whole session.
// Page code: no `node:` imports. The Node side (reference-pages.ts) serves reference-pages.html through Vite.
import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url'
import * as z from 'zod'
import { loadMujoco } from '../../world/index.ts'
import { RenderError } from '../../render/index.ts'
import { bytesToBase64 } from '../headless-page-messages.ts'
import { REFERENCE_PAGE_GLOBAL, ReferencePageRequestSchema, type ReferencePageResponse } from '../reference-page-messages.ts'
import { createReferencePageDrawer, type ReferencePageDrawer } from './reference-page-drawer.ts'

let drawer: Promise<ReferencePageDrawer> | undefined

async function render(request: unknown): Promise<ReferencePageResponse> {
  const parsed = ReferencePageRequestSchema.safeParse(request)
  if (!parsed.success) {
    // Spelled out here: a ZodError's message does not survive the trip back through page.evaluate.
    throw new RenderError('RENDER_HEADLESS_PAGE', `the reference-page request is malformed; fix the caller:\n${z.prettifyError(parsed.error)}`)
  }
  // A failed MuJoCo load is not kept, so the next request tries again.
  drawer ??= loadMujoco({ locateFile: path => (path.endsWith('.wasm') ? wasmUrl : path) }).then(createReferencePageDrawer, (error: unknown) => {
    drawer = undefined
    throw error
  })
  const png = await (await drawer).draw(parsed.data)
  return { png: bytesToBase64(png) }
}

Reflect.set(window, REFERENCE_PAGE_GLOBAL, { render })
