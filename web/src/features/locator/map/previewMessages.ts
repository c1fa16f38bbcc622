import type { Camera } from "./projection";

/** Main thread -> preview worker: draw the basemap for this view. */
export interface PreviewDraw {
  id: number;
  camera: Camera;
  /** The view in CSS pixels. */
  width: number;
  height: number;
  pixelRatio: number;
  /** The offline basemap's style (its tiles are read from its source). */
  styleUrl: string;
}

/** Preview worker -> main thread: the drawn view, or why it could not be drawn. */
export type PreviewDrawn = { id: number; bitmap: ImageBitmap } | { id: number; error: string };
