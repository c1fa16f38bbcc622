import { useState } from "react";
import defaultImage from "../assets/default-store.svg";

/** A store's picture, or the default one when it has none (or it fails to load). */
export function StoreImage({ src, alt, className }: { src: string | null | undefined; alt: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <img
      src={!src || failed ? defaultImage : src}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      className={className}
    />
  );
}
