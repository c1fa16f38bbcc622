import { useEffect, useState, type RefObject } from "react";

export type Size = { width: number; height: number };

/**
 * The element's client size, from a ResizeObserver, which reports after the browser's own layout
 * (no layout forced in the middle of React's commit); null until the first report. Where there is
 * no ResizeObserver it is measured once.
 */
export function useElementSize(ref: RefObject<HTMLElement | null>): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const measure = () => setSize((old) => (old && old.width === node.clientWidth && old.height === node.clientHeight ? old : { width: node.clientWidth, height: node.clientHeight }));
    if (typeof ResizeObserver === "undefined") {
      measure();
      return;
    }
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}
