import type { EmbedOptions } from "./embed";

// The widget's frame (docs/embed.md): a chunk of its own, loaded only at /embed (main.tsx), so
// the app's initial JavaScript does not carry it.

/**
 * The frame's parent, as the browser says it (Chromium's ancestorOrigins, else the referrer): the
 * size goes to it only when it is the host the snippet named, so no other page hears it.
 */
function parentOrigin(host: string | null): string | null {
  const ancestors = (window.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  let parent: string | null = ancestors && ancestors.length > 0 ? ancestors.item(0) : null;
  if (parent === null && document.referrer) {
    try {
      parent = new URL(document.referrer).origin;
    } catch {
      parent = null;
    }
  }
  return parent !== null && (host === null || host === parent) ? parent : null;
}

/** Applies the theme colour and tells the parent page the content's height as it changes. */
export function startEmbed(options: EmbedOptions): void {
  const root = document.documentElement;
  root.dataset.embed = options.view;
  if (options.theme) {
    // The app's accent (Tailwind's emerald) becomes the partner's colour; CSSOM, so the policy allows it.
    root.style.setProperty("--color-emerald-700", options.theme);
    root.style.setProperty("--color-emerald-800", `color-mix(in srgb, ${options.theme} 80%, black)`);
    root.style.setProperty("--color-emerald-600", `color-mix(in srgb, ${options.theme} 85%, white)`);
  }
  if (window.parent === window || typeof ResizeObserver === "undefined") return;
  const target = parentOrigin(options.host);
  if (target === null) return;
  let last = 0;
  const report = () => {
    const height = Math.ceil(document.body.scrollHeight);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: "locator:size", height }, target);
  };
  new ResizeObserver(report).observe(document.body);
  report();
}
