/**
 * The widget (docs/embed.md): the app at /embed, inside a partner's iframe. Read once when the
 * app loads; the server has already refused a page whose options are bad (internal/httpapi/embed.go),
 * so what is here is valid. In embed mode the app writes no cookie and no storage (favourites,
 * sign-in, the age check's kept verdict stay off), reaches only its own site, and counts what it
 * counts under the partner.
 */
export interface EmbedOptions {
  /** The partner's slug: the name its counts are kept under. */
  partner: string | null;
  /** list: the list alone; map: the map above the list. */
  view: "map" | "list";
  /** The page that framed the widget (its origin), which alone hears its size. */
  host: string | null;
  theme: string | null;
  /** The brand whose products the widget offers in its chooser (a brand's button without a product). */
  brand: string | null;
}

export function readEmbed(location: Pick<Location, "pathname" | "search">): EmbedOptions | null {
  if (location.pathname !== "/embed") return null;
  const params = new URLSearchParams(location.search);
  const theme = params.get("theme");
  return {
    partner: params.get("partner") || null,
    view: params.get("view") === "list" ? "list" : "map",
    host: params.get("host") || null,
    theme: theme && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(theme) ? theme : null,
    brand: params.get("brand")?.trim() || null,
  };
}

/** This page's widget options, null outside the widget. */
export const embed: EmbedOptions | null = readEmbed(window.location);
export const embedded = embed !== null;

/** The widget's own options, which the address keeps as the shopper moves in it (so a reload is still the partner's widget). */
const EMBED_PARAMS = ["partner", "brand", "theme", "lang", "view", "host"];

/** `next` with the widget's options of `current` (outside the widget, `next` as it is). */
export function withEmbedParams(current: URLSearchParams, next: URLSearchParams): URLSearchParams {
  if (!embedded) return next;
  for (const name of EMBED_PARAMS) {
    const value = current.get(name);
    if (value !== null) next.set(name, value);
  }
  return next;
}
