/**
 * Store photos uploaded by their owners are served at /photos/{id}/{width}.jpg
 * in three slots (320, 640, 1280; a narrower photo answers its own width in
 * every slot it does not fill), and the store's `image` names the 640 one.
 * `photoSrcset` gives the browser all three so a small thumbnail loads 320
 * and a sharp screen 1280; any other image has no srcset.
 */
const PHOTO = /^\/photos\/(\d+)\/(320|640|1280)\.jpg$/;

export const PHOTO_WIDTHS = [320, 640, 1280] as const;

export function photoSrcset(src: string | null | undefined): string | undefined {
  const m = src ? PHOTO.exec(src) : null;
  if (!m) return undefined;
  return PHOTO_WIDTHS.map((w) => `/photos/${m[1]}/${w}.jpg ${w}w`).join(", ");
}
