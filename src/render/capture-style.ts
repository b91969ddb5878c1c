// The fixed look of capture_scene images (environment.md §8): background, lights, material; no scene building.

/** Solid background of every capture (sRGB hex, as the reference's `Color('#181825')`). */
export const CAPTURE_BACKGROUND = 0x181825

/**
 * Hemisphere light. Its direction is three.js's default (sky towards +Y, `Object3D.DEFAULT_UP`): the
 * reference never moves it, so neither do we, even though the world is Z-up (§8 "every parameter matters").
 */
export const CAPTURE_HEMISPHERE_LIGHT = { sky: 0xc6d3e8, ground: 0x525057, intensity: 2 } as const

/** Directional light at `position`, aimed at the world origin (its default target). */
export const CAPTURE_DIRECTIONAL_LIGHT = { color: 0xffefd9, intensity: 2.5, position: [-1, -2, 5] } as const

/** `MeshStandardMaterial` parameters shared by every geom; colour and opacity come from `geom_rgba`. */
export const CAPTURE_MATERIAL = { roughness: 0.7, metalness: 0 } as const

/** Vertical world axis: the capture camera's `up` (MuJoCo worlds are Z-up, §2.13). */
export const CAPTURE_CAMERA_UP = [0, 0, 1] as const

/** Tessellation of analytic geoms (sphere and ellipsoid 32 × 20, cylinder 32, capsule 8 cap × 24 radial). */
export const GEOM_SEGMENTS = {
  sphereWidth: 32,
  sphereHeight: 20,
  cylinderRadial: 32,
  capsuleCap: 8,
  capsuleRadial: 24,
} as const

/** Edge of a plane geom whose MuJoCo size is 0 (an infinite plane), in world units. */
export const INFINITE_PLANE_EDGE = 6
