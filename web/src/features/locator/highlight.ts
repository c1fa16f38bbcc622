import { useSyncExternalStore } from "react";

// The store a shopper points at, in the results list or on the map: its row and its pin are
// highlighted together. A tiny store outside React so a hover re-renders only the two rows that
// change and the map's markers are updated in place, not the whole page or map.

let current: number | null = null;
const listeners = new Set<() => void>();

export function setHighlighted(id: number | null): void {
  if (id === current) return;
  current = id;
  for (const listener of listeners) listener();
}

export function highlighted(): number | null {
  return current;
}

export function subscribeHighlight(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether store `id` is the highlighted one. */
export function useIsHighlighted(id: number): boolean {
  return useSyncExternalStore(subscribeHighlight, () => current === id);
}

/** The highlighted store's id. */
export function useHighlighted(): number | null {
  return useSyncExternalStore(subscribeHighlight, highlighted);
}

/** Pointer and focus handlers that highlight store `id` while it is pointed at or focused. */
export function highlightHandlers(id: number) {
  const on = () => setHighlighted(id);
  const off = () => {
    if (current === id) setHighlighted(null);
  };
  return { onMouseEnter: on, onMouseLeave: off, onFocus: on, onBlur: off };
}
