// Decides whether a WebGL renderer is a hardware GPU, and declares the backend choices (src/settings parses the flag
// and AWB_SCORING_BACKEND); pure: no browser, no timing (backend.ts does those).
import * as z from 'zod'

/** `--backend` / AWB_SCORING_BACKEND values: `auto` picks the GPU only when it is hardware and measured faster. */
export const SCORING_BACKEND_CHOICES = ['auto', 'cpu', 'gpu'] as const
export type ScoringBackendChoice = (typeof SCORING_BACKEND_CHOICES)[number]
export const ScoringBackendChoiceSchema = z.enum(SCORING_BACKEND_CHOICES)

/** The default when neither the flag nor AWB_SCORING_BACKEND is set. */
export const DEFAULT_SCORING_BACKEND: ScoringBackendChoice = 'auto'

/** What runs WebGL: a hardware GPU, a software rasterizer, or nothing usable. */
export type RendererKind = 'hardware' | 'software' | 'none'

/** Renderer strings of CPU rasterizers (Chromium's SwiftShader, Mesa's llvmpipe / softpipe / lavapipe, Windows WARP). */
const SOFTWARE_RENDERERS = /swiftshader|llvmpipe|softpipe|lavapipe|software|basic render|microsoft basic|warp/i

/**
 * Classifies a WebGL renderer string (UNMASKED_RENDERER_WEBGL) and the gpu.js mode. Anything naming a CPU rasterizer
 * is software even when it mentions a GPU vendor; `no WebGL2` or a non-GL gpu.js mode is none.
 */
export function classifyRenderer(renderer: string, mode: string): RendererKind {
  if (renderer === 'no WebGL2' || renderer.trim() === '' || !/^(gpu|webgl2?|headlessgl)$/.test(mode)) return 'none'
  return SOFTWARE_RENDERERS.test(renderer) ? 'software' : 'hardware'
}
