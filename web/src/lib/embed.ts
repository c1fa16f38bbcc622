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
  };
}

/** This page's widget options, null outside the widget. */
export const embed: EmbedOptions | null = readEmbed(window.location);
export const embedded = embed !== null;
