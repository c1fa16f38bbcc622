/**
 * The first frame the server wrote into #root for the page's path (internal/httpapi/frames):
 * the screen's header, heading and a skeleton, painted before the script ran. React replaces it;
 * while a lazy screen's chunk loads, the route table shows the frame again (instead of a blank or
 * "Loading…"), so the takeover moves nothing and draws no new largest text.
 */
let kept: { path: string; html: string } | null = null;

/** Keeps #root's server-written markup; call before React renders into it. */
export function keepFirstFrame(root: HTMLElement, path = window.location.pathname) {
  kept = root.firstElementChild ? { path, html: root.innerHTML } : null;
}

/** The kept frame's markup when it was written for this path, else null. */
export function firstFrame(path: string): string | null {
  return kept !== null && kept.path === path ? kept.html : null;
}
