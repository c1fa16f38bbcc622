/**
 * The first frame the server wrote into #root for the page's address (internal/httpapi/frames):
 * the screen's header, heading and a skeleton (on /reviews the store's heading and review
 * summary), painted before the script ran. React replaces it; while a lazy screen's chunk or its
 * data loads, the screen shows the frame again (instead of a blank or "Loading…"), so the
 * takeover moves nothing and draws no new largest text.
 */
let kept: { path: string; search: string; html: string } | null = null;

/** Keeps #root's server-written markup; call before React renders into it. */
export function keepFirstFrame(root: HTMLElement, path = window.location.pathname, search = window.location.search) {
  kept = root.firstElementChild ? { path, search, html: root.innerHTML } : null;
}

/** The kept frame's markup when it was written for this path and query, else null. */
export function firstFrame(path: string, search: string): string | null {
  return kept !== null && kept.path === path && kept.search === search ? kept.html : null;
}
