import { useState } from "react";
import defaultImage from "../assets/default-store.svg";
import { embedded } from "../lib/embed";
import { photoSrcset } from "../lib/photos";

/**
 * A store's picture, or the default one when it has none (or it fails to load).
 * An uploaded photo comes with its widths as a srcset; `sizes` says how wide it
 * is drawn so the browser picks the smallest that is sharp enough.
 */
export function StoreImage({
  src,
  alt,
  className,
  sizes = "(max-width: 640px) 100vw, 400px",
}: {
  src: string | null | undefined;
  alt: string;
  className?: string;
  sizes?: string;
}) {
  // The widget reaches only its own site (docs/embed.md): a picture hosted elsewhere shows the default.
  const [failed, setFailed] = useState(() => embedded && !!src && new URL(src, window.location.href).origin !== window.location.origin);
  const srcSet = failed ? undefined : photoSrcset(src);
  return (
    <img
      src={!src || failed ? defaultImage : src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      className={className}
    />
  );
}
