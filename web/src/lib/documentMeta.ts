import { useEffect } from "react";

function descriptionTag(): HTMLMetaElement {
  let tag = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!tag) {
    tag = document.createElement("meta");
    tag.name = "description";
    document.head.append(tag);
  }
  return tag;
}

/** Sets the document's title and meta description while the calling component shows; puts the previous ones back after. */
export function useDocumentMeta(title: string, description: string) {
  useEffect(() => {
    const tag = descriptionTag();
    const previous = { title: document.title, description: tag.content };
    document.title = title;
    tag.content = description;
    return () => {
      document.title = previous.title;
      tag.content = previous.description;
    };
  }, [title, description]);
}

/** The product's name, the last part of every screen's title. */
export const PRODUCT = "Store Locator";

/**
 * Titles the document "{screen} · Store Locator" while the calling component shows (WCAG 2.4.2:
 * each screen says where the visitor is); puts the previous title back after.
 */
export function useTitle(screen: string) {
  useEffect(() => {
    const previous = document.title;
    document.title = `${screen} · ${PRODUCT}`;
    return () => {
      document.title = previous;
    };
  }, [screen]);
}
