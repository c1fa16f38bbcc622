import { useEffect, useRef } from "react";

/**
 * When the popup switches to this view, focus its [data-autofocus] element: the link that was
 * clicked is gone, so focus would otherwise fall to the page. On the popup's first view the
 * Dialog does this itself (and remembers the opener to return focus to), so nothing happens
 * while focus is still outside the dialog.
 */
export function useViewFocus<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const node = ref.current;
    const active = document.activeElement;
    const dialog = node?.closest('[role="dialog"]');
    if (!node || !(active === null || active === document.body || dialog?.contains(active))) return;
    node.querySelector<HTMLElement>("[data-autofocus]")?.focus();
  }, []);
  return ref;
}
