// The fixed look of reference pages on top of the capture style: part colours and the caption; no drawing.

/** Plain parts: the benchmark models' grey (`rgba 0.70 0.73 0.79`), linear RGB as `geom_rgba` is read. */
export const PAGE_PART_COLOUR = [0.7, 0.73, 0.79] as const

/** Parts a step adds: a warm orange (linear RGB), far from the grey parts and the dark blue background. */
export const PAGE_HIGHLIGHT_COLOUR = [0.95, 0.25, 0.02] as const

/**
 * The caption: large light text at the top-left, on the capture background. Font families are listed
 * so the fonts of Debian's Chromium (DejaVu, Liberation) are picked before the generic fallback.
 */
export const PAGE_CAPTION = {
  font: 'bold 64px "DejaVu Sans", "Liberation Sans", Arial, sans-serif',
  colour: '#f4f4f8',
  /** Left edge and baseline of the text, in pixels from the top-left corner. */
  left: 40,
  baseline: 96,
} as const
